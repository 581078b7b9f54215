// Browser side of the dock UX suite and the screenshots: one small orders page that every adapter's fixture mounts
// its dock on. The same actions and state whatever the adapter (a dangerous action with the customer's e-mail as
// a sensitive value), the locale from `?locale=`, the model behind the page's relative /v1 (no retries, so an
// error reaches the dock at once), and a static page behind the dock for the screenshots to show.
import { type ActionDefinition, defineAction, sensitive } from '@plingjs/core';

export type FixtureLocale = 'zh-CN' | 'en';

/** What the page needs from any adapter's pling. */
export interface OrdersPageHost {
  register(action: ActionDefinition): () => void;
  state(name: string, getter: () => unknown): () => void;
}

export const CUSTOMER_EMAIL = 'ann.lee@example.com';

export function fixtureLocale(): FixtureLocale {
  return new URLSearchParams(location.search).get('locale') === 'en' ? 'en' : 'zh-CN';
}

export function fixtureConfig(locale: FixtureLocale) {
  return { baseUrl: '/v1', model: 'test-model', locale, retry: { maxRetries: 0 } };
}

export function dockTitle(locale: FixtureLocale): string {
  return locale === 'en' ? 'Order assistant' : '订单助手';
}

const PAGE_TEXT = {
  'zh-CN': {
    heading: '我的订单',
    intro: '最近 30 天的订单。需要改地址、开发票或退货，问右下角的订单助手。',
    columns: ['订单号', '商品', '金额', '状态'],
    rows: [
      ['#1007', '降噪耳机', '¥899', '配送中'],
      ['#1006', '机械键盘', '¥459', '已签收'],
      ['#1005', 'USB-C 扩展坞', '¥239', '已签收'],
      ['#1004', '显示器支架', '¥189', '已退货'],
    ],
  },
  en: {
    heading: 'My orders',
    intro:
      'Orders from the last 30 days. To change an address, get an invoice or return something, ask the order assistant.',
    columns: ['Order', 'Item', 'Total', 'Status'],
    rows: [
      ['#1007', 'Noise-cancelling headphones', '€89.00', 'On its way'],
      ['#1006', 'Mechanical keyboard', '€45.90', 'Delivered'],
      ['#1005', 'USB-C hub', '€23.90', 'Delivered'],
      ['#1004', 'Monitor arm', '€18.90', 'Returned'],
    ],
  },
};

/** Writes the static page (into `#page`) and declares the page's state and actions on `pling`. */
export function installOrdersPage(pling: OrdersPageHost, locale: FixtureLocale): void {
  document.documentElement.lang = locale;
  const text = PAGE_TEXT[locale];
  const page = document.querySelector('#page') ?? document.body.appendChild(document.createElement('main'));
  page.id = 'page';
  page.innerHTML = '';
  const style = document.createElement('style');
  style.textContent = `
    body { margin: 0; font: 15px/1.5 system-ui, "Noto Sans CJK SC", sans-serif; color: #1f2328; background: #f6f8fa; }
    #page { max-width: 760px; padding: 24px; }
    #page h1 { margin: 0 0 8px; font-size: 24px; }
    #page table { width: 100%; border-collapse: collapse; background: #fff; }
    #page th, #page td { padding: 10px 12px; border-bottom: 1px solid #d0d7de; text-align: start; }
    #page input { margin: 0 0 12px; padding: 6px 8px; font: inherit; }`;
  document.head.append(style);
  const heading = document.createElement('h1');
  heading.textContent = text.heading;
  const intro = document.createElement('p');
  intro.textContent = text.intro;
  const table = document.createElement('table');
  const head = table.createTHead().insertRow();
  for (const column of text.columns) head.appendChild(document.createElement('th')).textContent = column;
  const body = table.createTBody();
  for (const row of text.rows) {
    const line = body.insertRow();
    for (const cell of row) line.insertCell().textContent = cell;
  }
  const search = document.createElement('input');
  search.id = 'search';
  search.placeholder = text.columns[0]!;
  page.append(heading, intro, search, table);

  pling.state('customer', () => ({ name: 'Ann Lee', email: sensitive(CUSTOMER_EMAIL, 'email') }));
  pling.state('orders', () => text.rows.map(([id, item, total, status]) => ({ id, item, total, status })));
  pling.register(
    defineAction<{ to: string; order: string }>({
      id: 'email_invoice',
      description: locale === 'en' ? 'Emails the invoice of an order' : '把订单发票发到邮箱',
      parameters: {
        type: 'object',
        properties: { to: { type: 'string' }, order: { type: 'string' } },
        required: ['to', 'order'],
      },
      danger: true,
      handler: ({ to, order }) => {
        (globalThis as { invoicesSent?: unknown[] }).invoicesSent ??= [];
        (globalThis as unknown as { invoicesSent: unknown[] }).invoicesSent.push({ to, order });
        return { sent: true, order };
      },
    }) as ActionDefinition,
  );
}
