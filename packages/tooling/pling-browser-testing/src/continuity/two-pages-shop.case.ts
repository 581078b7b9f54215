// Browser side of the continuity suite: what every adapter's two-pages fixture shares. Two pages of one small shop,
// each a full document (`?page=orders` and `?page=detail`, one bundle), continuity on and model settings offered;
// `?maxBytes=<n>` bounds the checkpoint. The detail page shows the customer's email as sensitive() and offers a
// dangerous `send_receipt` that echoes the real address back (what the checkpoint must never store); `open_order`
// on the orders page navigates. Each adapter's fixture renders the headings, link and `#sent` paragraph its own way.
import { type ActionDefinition, sensitive } from '@plingjs/core';

export const DOCK_TITLE = '订单助手';
export const ORDERS_HEADING = '订单列表';
export const DETAIL_HEADING = '订单详情';

/** Which page this document is, and the createPling options for it (any adapter's createPling takes them). */
export function shopPage() {
  const query = new URLSearchParams(location.search);
  const detail = query.get('page') === 'detail';
  const options = {
    agent: {
      config: { baseUrl: '/v1', model: 'test-model', continuity: true, retry: { maxRetries: 0 } },
      ...(query.has('maxBytes') && { checkpoint: { maxBytes: Number(query.get('maxBytes')) } }),
    },
    page: { title: detail ? DETAIL_HEADING : ORDERS_HEADING },
    modelSettings: { models: ['test-model', 'large-model'] },
  };
  return { detail, options };
}

/** The detail page's state. */
export const customerState = () => ({ name: 'Ada', email: sensitive('ada@example.com', 'email') });
/** The orders page's state. */
export const ordersState = () => [{ id: 7, total: 42 }];

/** The detail page's dangerous action; `show` puts what it did into the page's `#sent` paragraph. */
export function sendReceiptAction(show: (text: string) => void): ActionDefinition<{ to: string }> {
  return {
    id: 'send_receipt',
    description: 'Emails the receipt of order 7 to an address',
    parameters: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
    danger: true,
    handler: ({ to }) => {
      show(`sent to ${String(to)}`);
      return { sentTo: to };
    },
  };
}

/** The orders page's action that navigates to the detail page. */
export const openOrderAction: ActionDefinition = {
  id: 'open_order',
  description: 'Opens the detail page of order 7',
  parameters: { type: 'object', properties: {} },
  // The page is left a moment after the action answered, as a real link or router would.
  handler: () => {
    setTimeout(() => location.assign('?page=detail'), 300);
    return { opening: 7 };
  },
};
