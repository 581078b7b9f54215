// Continuity with the page layer: two "documents" (two createPlingCore on one storage, as two pages of one tab
// share sessionStorage) — a pending confirmation is shown again and runs when approved, and no sensitive value the
// page shows ever reaches the storage.
import type { CheckpointStorage } from '@plingjs/agent';
import { describe, expect, it } from 'vitest';
import { createPlingCore } from './create-pling-core.js';
import { sensitive } from './sensitive.js';
import { nextConfirmation, type ScriptedReply, scriptedLlm, toolCall } from './test-helpers.case.js';

class MemoryStorage implements CheckpointStorage {
  readonly items = new Map<string, string>();
  getItem = (key: string) => this.items.get(key) ?? null;
  setItem = (key: string, value: string) => void this.items.set(key, value);
  removeItem = (key: string) => void this.items.delete(key);
  raw = () => [...this.items.values()].join('\n');
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function documentOf(storage: CheckpointStorage, replies: ScriptedReply[]) {
  const llm = scriptedLlm(replies);
  const pling = createPlingCore({ agent: { config: { model: 'm', continuity: true }, llm, checkpoint: { storage } } });
  const sent: unknown[] = [];
  pling.state('customer', () => ({ name: 'Ada', email: sensitive('ada"x@example.com', 'email') }));
  pling.register({
    id: 'send_invoice',
    description: 'Emails the invoice',
    parameters: { type: 'object', properties: { to: { type: 'string' } } },
    danger: true,
    // Echoes the real address back (the case the checkpoint must survive: a tool that repeats a sensitive value): the
    // checkpoint must still hold the marker only.
    handler: ({ to }) => {
      sent.push(to);
      return { sentTo: to };
    },
  });
  return { pling, llm, sent };
}

describe('continuity with the page layer', () => {
  it('a pending confirmation is shown again on the next page; approving runs the handler there', async () => {
    const storage = new MemoryStorage();
    const call = toolCall('call_1', 'send_invoice', { to: '[redacted:email]' });
    const first = documentOf(storage, [{ toolCalls: [call] }]);
    void first.pling.session().send('把发票发给客户');
    const shown = await nextConfirmation(first.pling.page);
    expect(shown).toMatchObject({ actionId: 'send_invoice', callId: 'call_1' });
    await settle();

    const second = documentOf(storage, [{ content: '已发送。' }]);
    second.pling.session(); // what a dock mounting does: the session restores and its run carries on
    const again = await nextConfirmation(second.pling.page);
    expect(again).toMatchObject({ actionId: 'send_invoice', callId: 'call_1', arguments: { to: '[redacted:email]' } });
    expect(second.sent).toEqual([]);
    second.pling.page.confirmations.approve(again.id);
    await expect.poll(() => second.pling.session().status()).toBe('idle');
    await expect.poll(() => second.sent).toEqual(['ada"x@example.com']);
    expect(second.llm.requests).toHaveLength(1);
    await settle();
    expect(storage.raw()).not.toContain('ada');
    expect(storage.raw()).toContain('[redacted:email]');
  });

  it('sensitive values are stored as markers, even when a reply or a result repeats them', async () => {
    const storage = new MemoryStorage();
    const { pling } = documentOf(storage, [
      { toolCalls: [toolCall('c1', 'send_invoice', { to: '[redacted:email]' })] },
      { content: 'Sent to ada"x@example.com.' },
    ]);
    const sending = pling.session().send('My address is ada"x@example.com, send it');
    pling.page.confirmations.approve((await nextConfirmation(pling.page)).id);
    await sending;
    await settle();
    const raw = storage.raw();
    expect(raw).not.toContain('ada"x@example.com');
    expect(raw).not.toContain('ada\\"x@example.com');
    expect(raw).not.toContain('ada\\\\\\"x@example.com');
    expect(raw).not.toContain('x@example.com');
    expect(raw.match(/\[redacted:email\]/g)!.length).toBeGreaterThanOrEqual(3);
  });
});
