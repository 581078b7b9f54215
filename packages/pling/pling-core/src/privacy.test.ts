// A sensitive() value never leaves the page, whatever carries it — a handler that returns or echoes the restored value,
// a PostToolUse replacement, an error, a hook's reason, a trace entry, an event, the user's own text. Redaction is by
// value, not only by wrapper. Driven through createPlingCore (what every adapter is) with the real runtime and a
// scripted model.
import { HookRegistry, type RuntimeEvent } from '@plingjs/agent';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPlingCore } from './create-pling-core.js';
import type { PageEvent } from './page-events.js';
import { sensitive } from './sensitive.js';
import { manualClock, type ScriptedReply, scriptedLlm, toolCall } from './test-helpers.case.js';

const EMAIL = 'ann.private@example.com';
const CARD = 4111222233334444;

function setup(replies: ScriptedReply[], hooks = new HookRegistry()) {
  const llm = scriptedLlm(replies);
  const runtimeEvents: RuntimeEvent[] = [];
  const pageEvents: PageEvent[] = [];
  const core = createPlingCore({
    agent: {
      config: { model: 'm', trace: { maxCalls: 20 } },
      env: {},
      llm,
      hooks,
      clock: manualClock(),
      onEvent: (event) => runtimeEvents.push(event),
    },
    page: { onEvent: (event) => pageEvents.push(event) },
  });
  core.state('customer', () => ({ name: 'Ann', email: sensitive(EMAIL, 'email'), card: sensitive(CARD, 'card') }));
  core.register({
    id: 'send_invoice',
    description: 'Emails an invoice',
    parameters: { type: 'object', properties: { to: { type: 'string' } } },
    confirm: 'never',
    // The spec's pattern: the handler gets the real address and echoes it back.
    handler: ({ to }) => ({ sentTo: to }),
  });
  core.register({
    id: 'charge',
    description: 'Charges the card',
    parameters: { type: 'object', properties: { card: { type: 'string' } } },
    confirm: 'never',
    handler: ({ card }, context) => {
      context.requestHandoff({ reason: `card ${String(card)} needs a person`, context: { card } });
      throw new Error(`card ${String(card)} declined for ${EMAIL}`);
    },
  });
  /** Everything that left the page: model requests, trace, stored events, listeners, page events, results. */
  const everything = (extra: unknown[] = []) =>
    JSON.stringify([
      llm.requests.map((request) => request.messages),
      core.runtime().trace.calls(),
      core.session().events(),
      runtimeEvents,
      pageEvents,
      core.session().history(),
      ...extra,
    ]);
  return { core, llm, everything };
}

afterEach(() => vi.restoreAllMocks());

describe('a sensitive() value never leaves the page', () => {
  it('a handler echoing a restored sensitive value (({ to }) => ({ sentTo: to })) sends only the marker', async () => {
    const { core, llm, everything } = setup([
      { toolCalls: [toolCall('a', 'send_invoice', { to: '[redacted:email]' })] },
      { content: 'sent' },
    ]);
    const result = await core.session().send('send the invoice');
    expect(result.outcome).toBe('completed');
    const toolMessage = llm.requests[1]!.messages.find((message) => message.role === 'tool')!;
    expect(JSON.parse(toolMessage.content)).toEqual({ result: { sentTo: '[redacted:email]' } });
    expect(everything()).not.toContain(EMAIL);
  });

  it('a PostToolUse replacement, a hook reason, an error and a handoff carrying the value are redacted', async () => {
    const hooks = new HookRegistry();
    hooks.addPostToolUse(({ id, result }) =>
      id === 'send_invoice' ? { result: { ...(result as { result: object }).result, copy: EMAIL } } : undefined,
    );
    hooks.addPreToolUse(({ id }) =>
      id === 'blocked_one' ? { blocked: true, reason: `no mail to ${EMAIL}` } : undefined,
    );
    const { core, everything } = setup(
      [
        {
          toolCalls: [
            toolCall('a', 'send_invoice', { to: '[redacted:email]' }),
            toolCall('b', 'charge', { card: '[redacted:card]' }),
            toolCall('c', 'blocked_one'),
          ],
        },
        { content: `I wrote to ${EMAIL}` },
      ],
      hooks,
    );
    core.register({
      id: 'blocked_one',
      description: 'Never runs',
      parameters: { type: 'object' },
      confirm: 'never',
      handler: () => 'ran',
    });
    const result = await core.session().send(`my card is ${CARD}, mail ${EMAIL}`);
    expect(result.outcome).toBe('completed');
    expect(result.text).toBe('I wrote to [redacted:email]');
    expect(core.page.handoffs.getSnapshot()).toHaveLength(1);
    const all = everything([result]);
    expect(all).not.toContain(EMAIL);
    expect(all).not.toContain(String(CARD));
    expect(all).toContain('[redacted:card]');
    expect(
      core
        .session()
        .events()
        .find((event) => event.type === 'blocked'),
    ).toMatchObject({
      reason: 'no mail to [redacted:email]',
    });
  });

  it('an error a model call throws is redacted in the error event and the send() result', async () => {
    const { core, everything } = setup([
      () => {
        throw new Error(`gateway rejected ${EMAIL}`);
      },
    ]);
    const result = await core.session().send('hi');
    expect(result.outcome).toBe('error');
    expect(result.error?.message).toContain('[redacted:email]');
    expect(everything([result.error?.message])).not.toContain(EMAIL);
  });

  it('a value split across two streamed deltas reaches text-delta listeners only as its marker', async () => {
    const reply = `mail ${EMAIL} today`;
    const cut = reply.indexOf('private') + 3;
    const { core } = setup([
      (request) => {
        request.onTextDelta?.(reply.slice(0, cut));
        request.onTextDelta?.(reply.slice(cut));
        return { content: reply, toolCalls: [] };
      },
    ]);
    const deltas: string[] = [];
    core.onEvent((event) => {
      if (event.type === 'text-delta') deltas.push(event.text);
    });
    await core.session().send('hi');
    expect(deltas.join('')).toBe('mail [redacted:email] today');
    expect(JSON.stringify(deltas)).not.toContain('ann.pri');
  });

  it('a listener that throws with the value in its message is reported with the marker', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { core } = setup([{ content: 'ok' }]);
    core.onEvent(() => {
      throw new Error(`listener saw ${EMAIL}`);
    });
    expect(await core.session().send('hi')).toMatchObject({ outcome: 'completed' });
    expect(logged).toHaveBeenCalledTimes(1);
    expect(String(logged.mock.calls[0]![0])).toContain('[redacted:email]');
    expect(String(logged.mock.calls[0]![0])).not.toContain(EMAIL);
  });
});
