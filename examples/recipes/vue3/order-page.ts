// The order page of the Vue 3 recipe: a few orders in reactive state, shown as a list, and the actions the assistant
// may take on them. The customer's email is shown on the page but reaches the model only as `[redacted:email]`
// (`sensitive(…, 'email')` in the page state and in action results). The component also registers the spec's
// PreToolUse hook, which blocks every action whose id starts with "delete" while "阻止删除" is ticked.
import type { HookRegistry } from '@plingjs/agent';
import { sensitive } from '@plingjs/core';
import { useAction, usePageState } from '@plingjs/vue';
import { defineComponent, h, onScopeDispose, type PropType, ref } from 'vue';

export interface Order {
  id: string;
  customer: string;
  email: string;
  item: string;
  status: 'pending' | 'shipped';
}

export const INITIAL_ORDERS: readonly Order[] = [
  { id: 'A-1001', customer: '王芳', email: 'wang.fang@example.com', item: '机械键盘', status: 'pending' },
  { id: 'A-1002', customer: '李雷', email: 'li.lei@example.com', item: '显示器支架', status: 'pending' },
  { id: 'A-1003', customer: '韩梅梅', email: 'han.meimei@example.com', item: 'USB-C 扩展坞', status: 'shipped' },
];

const STATUS_TEXT: Record<Order['status'], string> = { pending: '待发货', shipped: '已发货' };

/** What the model may see of an order: everything, with the email replaced by its redaction marker on the way out. */
function forModel(order: Order) {
  return { ...order, email: sensitive(order.email, 'email') };
}

const orderIdParameter = {
  type: 'object',
  properties: { id: { type: 'string', description: 'The order id, e.g. "A-1001"' } },
  required: ['id'],
};

export const OrderPage = defineComponent({
  name: 'OrderPage',
  props: {
    /** The registry passed to `createPling({ agent: { hooks } })`; the page adds its policy hook to it. */
    hooks: { type: Object as PropType<HookRegistry>, required: true },
  },
  setup(props) {
    const orders = ref<Order[]>(INITIAL_ORDERS.map((order) => ({ ...order })));
    const blockDeletions = ref(false);
    const find = (id: unknown) => orders.value.find((order) => order.id === id);

    // The spec's PreToolUse example, switched by the checkbox; removed when the page unmounts.
    const removePre = props.hooks.addPreToolUse(({ id }) => {
      if (blockDeletions.value && id.startsWith('delete')) {
        return { blocked: true, reason: '删除需要单独的审批策略' };
      }
    });
    onScopeDispose(removePre);

    usePageState('orders', () => orders.value.map(forModel));
    useAction({
      id: 'list_orders',
      description: 'Lists all orders with their id, customer, email, item and status (pending or shipped).',
      parameters: { type: 'object', properties: {} },
      handler: () => orders.value.map(forModel),
    });
    useAction({
      id: 'mark_shipped',
      description: 'Marks the order with this id as shipped.',
      parameters: orderIdParameter,
      confirm: 'always',
      handler: ({ id }) => {
        const order = find(id);
        if (!order) throw new Error(`No order ${String(id)}`);
        order.status = 'shipped';
        return { id: order.id, status: order.status };
      },
    });
    useAction({
      id: 'delete_order',
      description: 'Deletes the order with this id. It cannot be undone.',
      parameters: orderIdParameter,
      danger: true,
      handler: ({ id }) => {
        const before = orders.value.length;
        orders.value = orders.value.filter((order) => order.id !== id);
        return { deleted: before - orders.value.length };
      },
    });

    return () =>
      h('section', { class: 'orders' }, [
        h('h1', '订单'),
        h('label', [
          h('input', {
            type: 'checkbox',
            checked: blockDeletions.value,
            onChange: (event: Event) => {
              blockDeletions.value = (event.target as HTMLInputElement).checked;
            },
          }),
          ' 阻止删除（block deletions：PreToolUse 钩子拦截 delete_*）',
        ]),
        h(
          'ul',
          { 'data-testid': 'orders' },
          orders.value.map((order) =>
            h('li', { key: order.id, 'data-order-id': order.id, 'data-status': order.status }, [
              h('strong', order.id),
              ` ${order.customer} <${order.email}> · ${order.item} · `,
              h('span', { class: 'status' }, STATUS_TEXT[order.status]),
            ]),
          ),
        ),
      ]);
  },
});
