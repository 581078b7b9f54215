import { type DockPlacement, type DockState, dockTexts } from '@plingjs/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { type DockActions, DockView } from './dock-view.js';

const texts = dockTexts('en');
const idle: DockState = Object.freeze({
  title: 'Orders',
  status: 'idle',
  busy: false,
  messages: [],
  operations: [],
  confirmations: [],
  handoffs: [],
  canRetry: false,
  thinking: false,
  open: true,
  announcement: '',
  texts,
});
const actions: DockActions = {
  send: async () => {},
  cancel: () => {},
  clear: () => {},
  approve: () => true,
  reject: () => true,
  resolveHandoff: () => true,
  retry: async () => {},
  setOpen: () => {},
};

function render(state: DockState, props: { className?: string; placement?: DockPlacement } = {}): string {
  return renderToStaticMarkup(<DockView state={state} actions={actions} {...props} />);
}

function count(html: string, fragment: string): number {
  return html.split(fragment).length - 1;
}

describe('DockView (the shared DOM contract)', () => {
  it('an idle dock: title, clear, empty chat, no operations, an input whose send button is disabled', () => {
    const html = render(idle, { className: 'mine' });
    expect(html).toMatch(
      /^<section data-pling="dock" data-placement="fixed" data-open="true" aria-label="Orders" aria-busy="false" class="mine">/,
    );
    expect(html).toContain(
      `<header class="pling-header"><h2 class="pling-title">Orders</h2><div class="pling-header-actions"><button type="button" data-pling="clear">${texts.clear}</button><button type="button" data-pling="close" aria-expanded="true" aria-label="${texts.closeLabel}">${texts.close}</button></div></header>`,
    );
    expect(html).toContain(
      `<div data-pling="messages" aria-live="polite"><p data-pling="empty" class="pling-muted">${texts.empty}</p></div>`,
    );
    expect(html).toContain(`<p data-pling="no-operations" class="pling-muted">${texts.noOperations}</p>`);
    expect(html).toContain(`<h3 class="pling-subheading">${texts.recentOperations}</h3>`);
    expect(html).toMatch(/<textarea data-pling="input" aria-label="[^"]+" placeholder="Type a message, Enter to send"/);
    expect(html).toContain(`<button type="submit" data-pling="send" disabled="">${texts.send}</button>`);
    for (const absent of ['not-configured', '"notice"', '"error"', 'confirmation', 'handoff', '"stop"', 'trace']) {
      expect(html).not.toContain(absent);
    }
  });

  it('a busy dock with chat, a streamed reply, notice, error, requests and operations', () => {
    const html = render(
      {
        ...idle,
        status: 'running',
        busy: true,
        notConfigured: 'The agent is not configured: missing model.',
        messages: [
          { key: 'm1', role: 'user', text: 'delete order 7', streaming: false },
          { key: 'streaming', role: 'assistant', text: 'Deleting <b>', streaming: true },
        ],
        notice: 'Stopped.',
        error: { code: 'NETWORK_ERROR', message: 'offline', summary: texts.errorSummary('NETWORK_ERROR') },
        confirmations: [
          {
            id: 'confirmation-1',
            actionId: 'delete_order',
            description: 'Deletes an order',
            danger: true,
            arguments: { id: 7, email: '[redacted:email]' },
            shownArguments: { id: 7, email: '[redacted:email]' },
            createdAt: 1,
          },
        ],
        handoffs: [{ id: 'handoff-1', reason: 'call the customer', createdAt: 2 }],
        operations: [
          { key: 'c1', status: 'ok', text: texts.toolDone('delete_order'), at: 1 },
          { key: 'c2', status: 'running', text: texts.toolRunning('add_todo'), at: 2 },
        ],
      },
      { placement: 'inline' },
    );
    expect(html).toContain('data-placement="inline"');
    expect(html).toContain(`<strong>${texts.notConfigured}</strong><p>${texts.notConfiguredHint}</p>`);
    expect(html).toContain(
      `<details data-pling="error-details"><summary>${texts.errorDetails}</summary><p><code data-pling="error-code" class="pling-error-code">NOT_CONFIGURED</code> The agent is not configured: missing model.</p></details>`,
    );
    expect(count(html, 'data-pling="message"')).toBe(2);
    expect(html).toContain(
      `<div data-pling="message" data-role="user"><span data-pling="speaker" class="pling-speaker">${texts.you}</span><div class="pling-text" data-pling="text" data-format="text">delete order 7</div></div>`,
    );
    expect(html).toContain('data-role="assistant" data-streaming="true"');
    // Server-rendered HTML shows the reply's text (escaped, as plain text: the Markdown needs a DOM to sanitise).
    expect(html).toContain('<div class="pling-text" data-pling="text">Deleting &lt;b&gt;</div>');
    expect(html).not.toContain(texts.empty);
    expect(html).toContain('<p data-pling="notice" role="status">Stopped.</p>');
    expect(html).toContain(`<p data-pling="error-summary">${texts.errorSummary('NETWORK_ERROR')}</p>`);
    expect(html).toContain('<code data-pling="error-code" class="pling-error-code">NETWORK_ERROR</code> offline');
    expect(html).toContain(
      `<p class="pling-confirmation-title">${texts.confirm('delete_order')}${texts.dangerMark}</p>`,
    );
    expect(html).toContain('<p data-pling="description" class="pling-muted">Deletes an order</p>');
    expect(html).toContain('id: 7\nemail: [redacted:email]');
    expect(html).toContain(`data-pling="approve">${texts.approve}</button>`);
    expect(html).toContain(`data-pling="reject">${texts.reject}</button>`);
    expect(html).toContain(`<p>${texts.handoff('call the customer')}</p>`);
    expect(html).toContain(`data-pling="resolve-handoff">${texts.resolveHandoff}</button>`);
    expect(html).toContain(`<li data-pling="operation" data-status="ok">delete_order done</li>`);
    expect(html).toContain(`<li data-pling="operation" data-status="running">Running add_todo</li>`);
    expect(html).toContain(`<button type="button" data-pling="stop">${texts.stop}</button>`);
  });

  it('renders no stylesheet of its own: @plingjs/core’s shared one is injected in the browser, by an effect', () => {
    const html = render(idle);
    expect(html).not.toContain('<style');
    expect(html).toContain('<form class="pling-form">');
    expect(html).toMatch(/<div class="pling-actions"><button type="submit" data-pling="send" disabled="">/);
  });

  it('a confirmation without danger has no danger mark', () => {
    const html = render({
      ...idle,
      confirmations: [
        {
          id: 'confirmation-2',
          actionId: 'rename',
          description: 'Renames',
          danger: false,
          arguments: {},
          shownArguments: {},
          createdAt: 1,
        },
      ],
    });
    expect(html).toContain(`<p class="pling-confirmation-title">${texts.confirm('rename')}</p>`);
    expect(html).not.toContain(texts.dangerMark);
  });

  it('shows the texts of the locale (zh-CN)', () => {
    const zh = dockTexts('zh-CN');
    const html = render({ ...idle, title: zh.title, texts: zh });
    expect(html).toContain(`aria-label="${zh.title}"`);
    expect(html).toContain(zh.empty);
    expect(html).toContain(zh.send);
    expect(html).not.toContain(texts.send);
  });
});
