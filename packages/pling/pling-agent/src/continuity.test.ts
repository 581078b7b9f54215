// Cross-document continuity through the runtime's public surface: one runtime per "document", sharing a storage
// the way the documents of one tab share sessionStorage.
import { validateProviderSequence } from '@aalis/schema-message';
import { describe, expect, it } from 'vitest';
import { CHECKPOINT_VERSION } from './checkpoint.js';
import type { CheckpointOptions, CheckpointStorage } from './checkpoint-store.js';
import { CONTINUITY_TEXTS } from './checkpoint-texts.js';
import type { AgentConfig } from './config.js';
import { createAgentRuntime } from './runtime.js';
import type { RuntimeEvent } from './session-events.js';
import { manualClock, type ScriptedReply, scriptedLlm, toolCall } from './test-helpers.case.js';
import type { AgentTool } from './tool.js';

class MemoryStorage implements CheckpointStorage {
  readonly items = new Map<string, string>();
  failWrites = false;
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    if (this.failWrites) throw new DOMException('quota', 'QuotaExceededError');
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

/** Lets the coalesced checkpoint write (a microtask) and a restored run's start (a zero sleep) happen. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function documentOf(
  storage: CheckpointStorage,
  {
    replies = [],
    config = {},
    tools = [],
    checkpoint = {},
  }: { replies?: ScriptedReply[]; config?: AgentConfig; tools?: AgentTool[]; checkpoint?: CheckpointOptions } = {},
) {
  const llm = scriptedLlm(replies);
  const events: RuntimeEvent[] = [];
  const runtime = createAgentRuntime({
    config: { model: 'm', continuity: true, ...config },
    llm,
    tools,
    clock: manualClock(),
    onEvent: (event) => events.push(event),
    checkpoint: { storage, ...checkpoint },
  });
  return { runtime, session: runtime.session(), llm, events };
}

function gate() {
  let open!: (value: unknown) => void;
  const opened = new Promise((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe('continuity: cross-document checkpoints', () => {
  it('a session survives a reload: messages, summary, events and the next request all carry over', async () => {
    const storage = new MemoryStorage();
    const first = documentOf(storage, { replies: [{ content: '你好！' }] });
    expect(first.session.continuity).toBe(true);
    await first.session.send('你好');
    await settle();
    expect([...storage.items.keys()].sort()).toEqual(['pling:checkpoint-telemetry', 'pling:checkpoint:default']);

    const second = documentOf(storage, { replies: [{ content: '还记得。' }] });
    expect(second.session.history().messages.map((message) => message.content)).toEqual(['你好', '你好！']);
    const events = second.session.events();
    expect(events.map((event) => event.type)).toEqual(['message', 'message', 'continuity']);
    expect(events.at(-1)).toMatchObject({ outcome: 'restored', message: CONTINUITY_TEXTS['zh-CN'].restored(2) });
    // One numbering across documents.
    expect(events.map((event) => event.seq)).toEqual([1, 2, 3]);
    await second.session.send('还记得吗');
    const sent = second.llm.requests[0]!.messages.filter((message) => message.role !== 'system');
    expect(sent.map((message) => message.content)).toEqual(['你好', '你好！', '还记得吗']);
    await settle();

    // A third page: still one "restored" line (the latest), not one per page.
    const third = documentOf(storage);
    const restored = third.session.events().filter((event) => event.type === 'continuity');
    expect(restored).toMatchObject([{ outcome: 'restored', message: CONTINUITY_TEXTS['zh-CN'].restored(4), seq: 6 }]);
  });

  it('the telemetry counters carry over too, and the clear button’s reset is carried as well', async () => {
    const storage = new MemoryStorage();
    const first = documentOf(storage, { replies: [{ content: 'a' }, { content: 'b' }] });
    await first.session.send('one');
    await first.session.send('two');
    await settle();
    const second = documentOf(storage, { replies: [{ content: 'c' }] });
    expect(second.runtime.telemetry.snapshot()).toMatchObject({ modelCalls: 2, failedModelCalls: 0 });
    await second.session.send('three');
    expect(second.runtime.telemetry.snapshot().modelCalls).toBe(3);
    second.runtime.telemetry.reset();
    await settle();
    expect(documentOf(storage).runtime.telemetry.snapshot().modelCalls).toBe(0);
  });

  it('without continuity nothing is written or read', async () => {
    const storage = new MemoryStorage();
    const first = documentOf(storage, { config: { continuity: false } });
    expect(first.session.continuity).toBe(false);
    await first.session.send('hi');
    await settle();
    expect(storage.items.size).toBe(0);
  });

  it('a pending confirmation is asked again after the reload, and approving it carries the run on', async () => {
    const storage = new MemoryStorage();
    const confirmation = gate();
    let confirmations = 0;
    let awaiting: string | undefined;
    const refunds: unknown[] = [];
    // The page's tool: waits for the person's confirmation, then runs the handler.
    const refundTool = (approve: Promise<unknown>): AgentTool => ({
      name: 'refund',
      description: 'Refunds an order',
      parameters: { type: 'object' },
      async execute(args, { callId }) {
        confirmations++;
        awaiting = callId;
        await approve;
        awaiting = undefined;
        refunds.push(args);
        return { refunded: args.order };
      },
    });
    const checkpoint = { awaitingConfirmation: (_: string, callId: string) => callId === awaiting };
    const first = documentOf(storage, {
      replies: [{ toolCalls: [toolCall('call_1', 'refund', { order: 7 })] }],
      tools: [refundTool(new Promise(() => {}))],
      checkpoint,
    });
    void first.session.send('退款 7 号订单');
    await settle();
    expect(confirmations).toBe(1);
    expect(first.session.status()).toBe('running');
    // The document goes away while the confirmation card is shown.

    const second = documentOf(storage, {
      replies: [{ content: '已退款。' }],
      tools: [refundTool(confirmation.opened)],
      checkpoint,
    });
    await settle();
    expect(confirmations).toBe(2); // shown again
    expect(refunds).toEqual([]);
    confirmation.open(true);
    await expect.poll(() => second.session.status()).toBe('idle');
    expect(refunds).toEqual([{ order: 7 }]);
    const types = second.session.events().map((event) => event.type);
    expect(types).toEqual(['message', 'tool-call', 'continuity', 'tool-result', 'message']);
    const request = second.llm.requests[0]!;
    expect(JSON.parse(request.messages.at(-1)!.content)).toEqual({ result: { refunded: 7 } });
    expect(validateProviderSequence(second.session.history().messages)).toEqual([]);
  });

  it('a call that was running when the page was left gets INTERRUPTED; the calls after it run', async () => {
    const storage = new MemoryStorage();
    const ran: string[] = [];
    const tool = (name: string, hang = false): AgentTool => ({
      name,
      description: name,
      parameters: { type: 'object' },
      execute: () => {
        ran.push(name);
        return hang ? new Promise(() => {}) : { ok: name };
      },
    });
    const first = documentOf(storage, {
      replies: [{ toolCalls: [toolCall('c1', 'save', {}), toolCall('c2', 'notify', {})] }],
      tools: [tool('save', true), tool('notify')],
    });
    void first.session.send('保存并通知');
    await settle();
    expect(ran).toEqual(['save']);

    ran.length = 0;
    const second = documentOf(storage, { replies: [{ content: '完成' }], tools: [tool('save'), tool('notify')] });
    await expect.poll(() => second.session.events().at(-1)?.type).toBe('message');
    expect(ran).toEqual(['notify']); // save is never run twice
    const results = second.session.events().filter((event) => event.type === 'tool-result');
    expect(results).toMatchObject([
      { callId: 'c1', ok: false, code: 'INTERRUPTED' },
      { callId: 'c2', ok: true },
    ]);
    const messages = second.llm.requests[0]!.messages;
    const interrupted = JSON.parse(messages.find((message) => message.toolCallId === 'c1')!.content);
    expect(interrupted).toEqual({ error: { code: 'INTERRUPTED', message: CONTINUITY_TEXTS['zh-CN'].interruptedTool } });
    expect(validateProviderSequence(second.session.history().messages)).toEqual([]);
  });

  it('a run waiting for the model is sent again with the new page, and keeps its turn count', async () => {
    const storage = new MemoryStorage();
    const first = documentOf(storage, {
      config: { limits: { maxTurns: 2 } },
      replies: [{ toolCalls: [toolCall('c1', 'open_page')] }, () => new Promise(() => {})],
      tools: [{ name: 'open_page', description: 'navigates', parameters: { type: 'object' }, execute: () => 'ok' }],
    });
    void first.session.send('打开详情页');
    await settle();
    expect(first.llm.requests).toHaveLength(2);

    const second = documentOf(storage, {
      config: { limits: { maxTurns: 2 }, systemPrompt: 'detail page' },
      replies: [{ toolCalls: [toolCall('c2', 'open_page')] }],
      tools: [{ name: 'open_page', description: 'navigates', parameters: { type: 'object' }, execute: () => 'ok' }],
    });
    await expect.poll(() => second.session.events().at(-1)?.type).toBe('notice');
    expect(second.llm.requests).toHaveLength(1);
    expect(second.llm.requests[0]!.messages[0]!.content).toContain('detail page');
    // Turn 2 of 2 was the resumed one: the run ends at maxTurns rather than starting its count again.
    expect(second.session.events().at(-1)).toMatchObject({ type: 'notice', code: 'max-turns' });
  });

  it('reset() removes the checkpoint; cancel() before the resume settles the calls on the next send', async () => {
    const storage = new MemoryStorage();
    const first = documentOf(storage, { replies: [{ content: 'a' }] });
    await first.session.send('x');
    await settle();
    first.session.reset();
    await settle();
    expect(storage.getItem('pling:checkpoint:default')).toBeNull();

    const hanging: AgentTool = { name: 't', description: 't', parameters: {}, execute: () => new Promise(() => {}) };
    const third = documentOf(storage, { replies: [{ toolCalls: [toolCall('c1', 't')] }], tools: [hanging] });
    void third.session.send('y');
    await settle();
    const fourth = documentOf(storage, { replies: [{ content: 'ok' }], tools: [hanging] });
    fourth.session.cancel();
    await fourth.session.send('z');
    const messages = fourth.session.history().messages;
    expect(validateProviderSequence(messages)).toEqual([]);
    expect(JSON.parse(messages.find((message) => message.role === 'tool')!.content).error.code).toBe('CANCELLED');
  });

  it('a checkpoint of an unknown version is discarded with a reported reason, not crashed on', async () => {
    const storage = new MemoryStorage();
    storage.setItem('pling:checkpoint:default', JSON.stringify({ version: CHECKPOINT_VERSION + 1, messages: 'v2' }));
    const { session, events } = documentOf(storage, { config: { locale: 'en' }, replies: [{ content: 'fresh' }] });
    expect(session.history().messages).toEqual([]);
    expect(session.events()).toMatchObject([
      {
        type: 'continuity',
        outcome: 'discarded',
        problem: 'unknown-version',
        message: CONTINUITY_TEXTS.en.discarded('unknown-version'),
      },
    ]);
    expect(events.map((event) => event.type)).toEqual(['continuity']);
    expect((await session.send('hi')).outcome).toBe('completed');
  });

  it('past the bound: events are dropped first; a history over the bound is reported once and not restored', async () => {
    const storage = new MemoryStorage();
    const first = documentOf(storage, {
      checkpoint: { maxBytes: 1500 },
      replies: Array.from({ length: 3 }, () => ({ content: 'r'.repeat(100) })),
    });
    for (const text of ['a', 'b', 'c']) await first.session.send(text.repeat(100));
    await settle();
    const kept = JSON.parse(storage.getItem('pling:checkpoint:default')!);
    expect(kept.messages).toHaveLength(6);
    expect(kept.droppedEvents).toBeGreaterThan(0);

    first.session.reset();
    await settle();
    const big = documentOf(storage, {
      checkpoint: { maxBytes: 600 },
      replies: [{ content: 'r'.repeat(400) }, { content: 'again' }],
    });
    await big.session.send('q'.repeat(400));
    await settle();
    await big.session.send('more');
    await settle();
    const notSaved = big.session.events().filter((event) => event.type === 'continuity');
    expect(notSaved).toMatchObject([{ outcome: 'not-saved', problem: 'too-large' }]);
    expect(notSaved[0]!.message).toBe(CONTINUITY_TEXTS['zh-CN'].notSaved('too-large', 600));

    const next = documentOf(storage, { checkpoint: { maxBytes: 600 } });
    expect(next.session.history().messages).toEqual([]);
    expect(next.session.events()).toMatchObject([{ type: 'continuity', outcome: 'discarded', problem: 'too-large' }]);
  });

  it('a storage that refuses writes is reported, and the session goes on', async () => {
    const storage = new MemoryStorage();
    storage.failWrites = true;
    const { session } = documentOf(storage, { replies: [{ content: 'ok' }] });
    expect((await session.send('hi')).outcome).toBe('completed');
    await settle();
    expect(session.events().filter((event) => event.type === 'continuity')).toMatchObject([
      { outcome: 'not-saved', problem: 'storage-error' },
    ]);
  });

  it('a failure while writing (here the redactor throws) is reported, never thrown into the page', async () => {
    const storage = new MemoryStorage();
    const redactor = () => () => {
      throw new Error('page state unavailable');
    };
    const { session } = documentOf(storage, { checkpoint: { redactor }, replies: [{ content: 'ok' }] });
    expect((await session.send('hi')).outcome).toBe('completed');
    await settle();
    expect(storage.getItem('pling:checkpoint:default')).toBeNull();
    expect(session.events().filter((event) => event.type === 'continuity')).toMatchObject([
      { outcome: 'not-saved', problem: 'storage-error' },
    ]);
  });

  it('without a storage (no sessionStorage here) continuity reports false and says why', () => {
    const runtime = createAgentRuntime({ config: { model: 'm', continuity: true }, llm: scriptedLlm([]) });
    const session = runtime.session();
    expect(session.continuity).toBe(false);
    expect(session.events()).toMatchObject([
      { type: 'continuity', outcome: 'discarded', problem: 'storage-unavailable' },
    ]);
  });

  it('strings are redacted before they are stored (markers, never values)', async () => {
    const storage = new MemoryStorage();
    const redact = (text: string) => text.replaceAll('ada@example.com', '[redacted:email]');
    const echo: AgentTool = {
      name: 'echo',
      description: 'echo',
      parameters: {},
      execute: () => ({ sentTo: 'ada@example.com' }),
    };
    const { session } = documentOf(storage, {
      checkpoint: { redactor: () => redact },
      tools: [echo],
      replies: [{ toolCalls: [toolCall('c1', 'echo')] }, { content: 'sent to ada@example.com' }],
    });
    await session.send('send it to ada@example.com');
    await settle();
    const raw = storage.getItem('pling:checkpoint:default')!;
    expect(raw).not.toContain('ada@example.com');
    expect(raw).toContain('[redacted:email]');
  });
});
