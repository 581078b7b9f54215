// Conformance: the history timeline a subscriber gets is restored from the archive for replied, stopped, errored,
// joined and queued turns and in rooms (「未发出」), matching what the live events showed.
import { gateway } from '@aalis/api-gateway';
import { sessionManager } from '@aalis/api-session-manager';
import type { SessionClient, Timeline, TimelineTurn } from '@aalis/session-client';
import { errorReply, type StreamStep, textReply, toolCallReply } from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { hostPerFile, Recorder, waitFor } from './harness.case.js';

const { host, connected } = hostPerFile();

/** A streamed text reply slow enough to act in the middle of it. */
function slowReply(text: string, delayMs = 60): { type: 'stream'; steps: StreamStep[] } {
  const steps: StreamStep[] = [{ role: 'assistant' }];
  for (const word of text.split(' ')) steps.push({ text: `${word} ` }, { delayMs });
  steps.push({ finish: 'stop' }, { usage: { promptTokens: 10, completionTokens: 5 } }, { done: true });
  return { type: 'stream', steps };
}

async function freshTimeline(sessionId: string): Promise<Timeline> {
  const client = await connected();
  const recorder = new Recorder();
  const subscription = client.subscribe(sessionId, recorder.handlers);
  await subscription.ready;
  await subscription.unsubscribe();
  return recorder.latest!;
}

const turns = (timeline: Timeline) => timeline.entries.filter((entry): entry is TimelineTurn => entry.kind === 'turn');

async function session(client: SessionClient) {
  const { session: created } = await client.request('session.create', {});
  const recorder = new Recorder();
  await client.subscribe(created.id, recorder.handlers).ready;
  return { id: created.id, recorder };
}

describe('timeline restoration', () => {
  it('a stopped turn: 已停止 with who stopped it, no stop marker, and the next message is answered', async () => {
    const client = await connected();
    const { id, recorder } = await session(client);
    host.model.enqueue(slowReply('one two three four five six seven eight'), textReply('Next answer.'));
    await client.send({ sessionId: id, text: 'tell me a long story' });
    await recorder.until(() => recorder.of('text.delta').length >= 2);
    expect(await client.request('stop', { sessionId: id })).toEqual({ stopped: true });
    await recorder.until(() => recorder.of('turn.ended').length === 1);
    expect(recorder.of('turn.ended')[0]).toMatchObject({
      outcome: 'aborted',
      stoppedBy: { platform: 'webui', userId: 'owner' },
    });
    expect(await client.request('stop', { sessionId: id })).toEqual({ stopped: false });
    await client.send({ sessionId: id, text: 'and now?' });
    await recorder.until(() => recorder.of('turn.ended').length === 2);

    const timeline = await freshTimeline(id);
    const [stopped, next] = turns(timeline);
    expect(stopped).toMatchObject({ outcome: 'aborted', stoppedBy: { platform: 'webui', userId: 'owner' } });
    expect(stopped!.inputs.map((input) => input.text)).toEqual(['tell me a long story']);
    // the half-streamed reply was not kept, and the stop marker is not shown
    expect(stopped!.items).toEqual([]);
    expect(JSON.stringify(timeline)).not.toContain('[已停下]');
    expect(JSON.stringify(timeline)).not.toContain('[Stopped]');
    expect(next).toMatchObject({ outcome: 'replied' });
    expect(next!.items.at(-1)).toMatchObject({ kind: 'text', text: 'Next answer.', final: true });
  });

  it('an errored turn carries its reason, a coded one in both languages; a silent one has outcome silent', async () => {
    const client = await connected();
    const { id, recorder } = await session(client);
    host.model.enqueue(errorReply(400, 'the model refused this request'));
    await client.send({ sessionId: id, text: 'break' });
    await recorder.until(() => recorder.of('turn.ended').length === 1);
    const ended = recorder.of('turn.ended')[0]!;
    expect(ended.outcome).toBe('error');
    expect(ended.error).toBeTruthy();
    // The provider's coded error: each page shows errors[its locale]; both keep the model server's own words.
    expect(ended.errors?.en).toContain('the model refused this request');
    expect(ended.errors?.['zh-CN']).toContain('the model refused this request');
    expect(ended.errors?.en).not.toBe(ended.errors?.['zh-CN']);
    expect([ended.errors?.en, ended.errors?.['zh-CN']]).toContain(ended.error);
    host.model.enqueue(textReply(''));
    await client.send({ sessionId: id, text: 'say nothing' });
    await recorder.until(() => recorder.of('turn.ended').length === 2);

    const [errored, silent] = turns(await freshTimeline(id));
    expect(errored).toMatchObject({ outcome: 'error', error: ended.error, errors: ended.errors });
    expect(silent).toMatchObject({ outcome: 'silent', items: [] });
  });

  it('a message sent during the tool phase joins the running turn; one during the final reply is queued', async () => {
    const client = await connected();
    const { id, recorder } = await session(client);
    host.model.enqueue(
      {
        type: 'stream',
        steps: [
          { role: 'assistant' },
          { delayMs: 300 },
          { toolCall: { index: 0, id: 'c1', name: 'current_time', arguments: '{}' } },
          { finish: 'tool_calls' },
          { done: true },
        ],
      },
      slowReply('first turn reply here', 150),
      textReply('Second turn.'),
    );
    await client.send({ sessionId: id, text: 'first' });
    await recorder.until(() => recorder.of('turn.started').length === 1);
    await client.send({ sessionId: id, text: 'joining' });
    await recorder.until(() => recorder.of('queue').some((event) => event.added.length === 1));
    expect(recorder.of('queue').find((event) => event.added.length === 1)!.added[0]).toMatchObject({
      text: 'joining',
      disposition: 'join',
    });
    await recorder.until(() => recorder.of('input').some((event) => event.input.entry === 'joined'));
    await recorder.until(() => recorder.of('text.delta').length >= 1);
    await client.send({ sessionId: id, text: 'queued' });
    await recorder.until(() =>
      recorder.of('queue').some((event) => event.added.some((input) => input.text === 'queued')),
    );
    // Arriving while the last model call streams, it waits to join; that call ends the turn, so it opens the next.
    await recorder.until(() => recorder.of('turn.ended').length === 2, 15_000);

    const [first, second] = turns(await freshTimeline(id));
    expect(first!.inputs.map((input) => input.text)).toEqual(['first']);
    const joined = first!.items.find((item) => item.kind === 'input');
    expect(joined).toMatchObject({ kind: 'input', input: { entry: 'joined', text: 'joining' } });
    const order = first!.items.map((item) => item.kind);
    expect(order.indexOf('tool')).toBeLessThan(order.indexOf('input'));
    expect(second!.inputs.map((input) => [input.entry, input.text])).toEqual([['opened', 'queued']]);
    expect(second).toMatchObject({ outcome: 'replied' });
  });

  it('in a room, the words before a tool call are 「未发出」, live and in the history', async () => {
    const client = await connected();
    const manager = host.aalis.app.services.selected(sessionManager)!.impl;
    const room = await manager.ensure({
      id: 'room:test:1',
      kind: 'room',
      platform: 'test-im',
      venue: 'group-1',
      originChat: { multiParty: true },
    });
    const recorder = new Recorder();
    await client.subscribe(room.id, recorder.handlers).ready;
    host.model.enqueue(
      toolCallReply([{ id: 'c1', name: 'calculator', arguments: { expression: '1+1' } }], { text: 'Thinking aloud.' }),
      textReply('It is 2.'),
    );
    // A room's people talk on its own platform (the WebUI shows the room read-only): the input comes through the
    // gateway as a platform adapter hands it over.
    void host.aalis.app.services.selected(gateway)!.impl.receive({
      sessionId: room.id,
      platform: 'test-im',
      venue: 'group-1',
      sender: { userId: 'u1', displayName: 'Ann' },
      content: 'what is 1+1',
      triggerType: 'direct',
    });
    await recorder.until(() => recorder.of('turn.ended').length === 1);
    expect(recorder.of('turn.ended')[0]).toMatchObject({ outcome: 'replied', unsentSegments: [0] });

    const [turn] = turns(await freshTimeline(room.id));
    const texts = turn!.items.filter((item) => item.kind === 'text');
    expect(texts).toMatchObject([
      { text: 'Thinking aloud.', unsent: true, final: false },
      { text: 'It is 2.', unsent: false, final: true },
    ]);
  });

  it('a timeline taken while a turn runs holds what streamed so far, and the later events complete it', async () => {
    const client = await connected();
    const { id, recorder } = await session(client);
    host.model.enqueue(slowReply('alpha beta gamma delta epsilon', 80));
    await client.send({ sessionId: id, text: 'go' });
    await recorder.until(() => recorder.of('text.delta').length >= 2);
    const late = await connected();
    const lateRecorder = new Recorder();
    await late.subscribe(id, lateRecorder.handlers).ready;
    await lateRecorder.until(() => lateRecorder.of('turn.ended').length === 1);
    const [running] = turns(lateRecorder.timelines[0]!);
    expect(running!.running).toBe(true);
    const streamed = running!.items.find((item) => item.kind === 'text');
    const rest = lateRecorder
      .of('text.delta')
      .map((delta) => delta.delta)
      .join('');
    expect(`${streamed?.kind === 'text' ? streamed.text : ''}${rest}`).toBe('alpha beta gamma delta epsilon ');
    await waitFor(async () =>
      (await client.request('sessions.list', {})).sessions.some((s) => s.id === id && !s.running),
    );
  });
});
