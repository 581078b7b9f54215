// Conformance: live events in order, the timeline a later subscriber gets for the same turns, several tabs in step.
import type { TimelineTurn } from '@aalis/session-client';
import { textReply, toolCallReply } from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { hostPerFile, Recorder } from './harness.case.js';

const { host, connected } = hostPerFile();

function turnsOf(recorder: Recorder): TimelineTurn[] {
  return (recorder.latest?.entries ?? []).filter((entry): entry is TimelineTurn => entry.kind === 'turn');
}

describe('live events and the timeline', () => {
  it('streams a tool turn in order, and a later subscriber gets the same turn from the archive', async () => {
    const client = await connected();
    const { session } = await client.request('session.create', { title: 'tools' });
    const live = new Recorder();
    const subscription = client.subscribe(session.id, live.handlers);
    await subscription.ready;
    expect(live.latest?.entries).toEqual([]);
    await live.until(() => live.of('usage').length >= 1); // the token:request snapshot
    expect(live.of('usage')[0]!.usage.turnId).toBeUndefined();
    expect(live.of('usage')[0]!.usage.parts.length).toBeGreaterThan(0);

    host.model.enqueue(
      toolCallReply([{ id: 'c1', name: 'calculator', arguments: { expression: '6*7' } }], { text: 'Let me compute.' }),
      textReply('The answer is 42.', { usage: { promptTokens: 50, completionTokens: 6, cachedTokens: 32 } }),
    );
    await client.send({ sessionId: session.id, text: 'What is 6*7?' });
    await live.until(() => live.of('turn.ended').length === 1);

    const types = live.types().filter((type) => type !== 'usage' && type !== 'session.updated' && type !== 'queue');
    const first = (type: string) => types.indexOf(type);
    expect(first('turn.started')).toBeLessThan(first('input'));
    expect(first('input')).toBeLessThan(first('tool.progress'));
    expect(first('tool.progress')).toBeLessThan(first('tool.started'));
    expect(first('tool.started')).toBeLessThan(first('tool.ended'));
    expect(types.lastIndexOf('text.delta')).toBeLessThan(first('turn.ended'));
    expect(types.at(-1)).toBe('turn.ended');
    const seqs = live.events.map((entry) => entry.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);

    const started = live.of('tool.started')[0]!;
    const ended = live.of('tool.ended')[0]!;
    const progress = live.of('tool.progress')[0]!;
    expect(progress.callId).toBe(started.callId);
    expect(ended.callId).toBe(started.callId);
    expect(ended.result).toContain('42');
    expect(ended.isError).toBe(false);
    const text = live
      .of('text.delta')
      .filter((delta) => delta.segment === 1)
      .map((delta) => delta.delta)
      .join('');
    expect(text).toBe('The answer is 42.');
    expect(live.of('turn.ended')[0]).toMatchObject({ outcome: 'replied', unsentSegments: [] });
    // usage after every model call (two calls), then the cached tokens from llm:usage on the second
    const turnUsage = live.of('usage').filter((entry) => entry.usage.turnId !== undefined);
    expect(turnUsage).toHaveLength(2);
    expect(turnUsage[1]!.usage.cachedPromptTokens).toBe(32);

    const later = new Recorder();
    const second = await connected();
    await second.subscribe(session.id, later.handlers).ready;
    const [turn] = turnsOf(later);
    expect(turn).toMatchObject({ outcome: 'replied', running: false });
    expect(turn!.inputs.map((input) => [input.entry, input.text])).toEqual([['opened', 'What is 6*7?']]);
    expect(turn!.items.map((item) => item.kind)).toEqual(['text', 'tool', 'text']);
    const tool = turn!.items[1]!;
    expect(tool).toMatchObject({ kind: 'tool', callId: started.callId, name: 'calculator', state: 'done' });
    expect(turn!.items[2]).toMatchObject({ kind: 'text', text: 'The answer is 42.', final: true, unsent: false });
    // An untitled WebUI session took its first input as its title; the list says the turn no longer runs.
    const listed = (await client.request('sessions.list', {})).sessions.find((entry) => entry.id === session.id);
    expect(listed).toMatchObject({ title: 'tools', running: false, lastTurn: { outcome: 'replied' } });
    const untitled = await client.request('session.create', {});
    host.model.enqueue(textReply('ok'));
    const titled = new Recorder();
    await client.subscribe(untitled.session.id, titled.handlers).ready;
    await client.send({
      sessionId: untitled.session.id,
      text: 'A question about   the weather in Paris tomorrow morning please',
    });
    await titled.until(() => titled.of('session.updated').some((event) => event.session.title !== undefined));
    const again = (await client.request('sessions.list', {})).sessions.find(
      (entry) => entry.id === untitled.session.id,
    );
    expect(again!.title).toBe('A question about the weather in Paris to…');
    await subscription.unsubscribe();
  });

  it('a session the account watches stays read in every list frame; one it does not watch becomes unread', async () => {
    const client = await connected();
    const { session } = await client.request('session.create', {});
    const rows: { unread: boolean; turnId?: string }[] = [];
    client.on('sessions', (frame) => {
      if (frame.sessionId === session.id && frame.session)
        rows.push({ unread: frame.session.unread, turnId: frame.session.lastTurn?.turnId });
    });
    const recorder = new Recorder();
    const subscription = client.subscribe(session.id, recorder.handlers);
    await subscription.ready;
    host.model.enqueue(textReply('watched'));
    await client.send({ sessionId: session.id, text: 'while watching' });
    await recorder.until(() => recorder.of('turn.ended').length === 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((row) => row.unread)).toEqual([]);
    await subscription.unsubscribe();
    rows.splice(0);
    host.model.enqueue(textReply('unwatched'));
    await client.send({ sessionId: session.id, text: 'while away' });
    const deadline = Date.now() + 10_000;
    while (!rows.some((row) => row.unread) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(rows.at(-1)?.unread).toBe(true);
    const listed = await client.request('sessions.list', {});
    expect(listed.sessions.find((entry) => entry.id === session.id)?.unread).toBe(true);
  });

  it('keeps several tabs on one session in step', async () => {
    const a = await connected();
    const b = await connected();
    const { session } = await a.request('session.create', {});
    const tabA = new Recorder();
    const tabB = new Recorder();
    await a.subscribe(session.id, tabA.handlers).ready;
    await b.subscribe(session.id, tabB.handlers).ready;
    host.model.enqueue(textReply('Hello from the model.'));
    await b.send({ sessionId: session.id, text: 'hi' });
    await tabA.until(() => tabA.of('turn.ended').length === 1);
    await tabB.until(() => tabB.of('turn.ended').length === 1);
    const tail = (recorder: Recorder) =>
      recorder.events.filter((entry) => entry.event.type !== 'usage' || entry.event.usage.turnId !== undefined);
    const fromA = tail(tabA).filter((entry) => entry.seq > (tail(tabB)[0]?.seq ?? 0) - 1);
    expect(tail(tabB).map((entry) => entry.seq)).toEqual(fromA.map((entry) => entry.seq));
    expect(tail(tabB).map((entry) => entry.event)).toEqual(fromA.map((entry) => entry.event));
  });
});
