// The incremental history structures (the grouped history copy, the trim index) change nothing the model or a
// usage consumer sees: the same conversation run with them and from scratch sends the same requests and emits
// the same token:usage events.

import { hooks } from '@aalis/api-hooks';
import { memory } from '@aalis/api-memory';
import { HistorySegment, HistoryTrimIndex } from '@aalis/context-budget';
import { definePlugin } from '@aalis/core';
import type { Message } from '@aalis/schema-message';
import { type PluginEntry, textReply, toolCallReply } from '@aalis/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Harness, startHarness } from '../agent-harness.case.js';
import { HistoryCache } from './history-cache.js';

let harness: Harness | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await harness?.close();
  harness = undefined;
});

function seed(count: number): Message[] {
  const messages: Message[] = [];
  for (let index = 0; index < count; index++) {
    if (index % 7 === 3) {
      messages.push(
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: `seed${index}`, type: 'function', function: { name: 'lookup', arguments: '{"q":"s"}' } }],
        },
        { role: 'tool', toolCallId: `seed${index}`, content: `seeded result ${index} `.repeat(20) },
      );
    } else {
      messages.push({ role: index % 2 ? 'assistant' : 'user', content: `message ${index} `.repeat(15) });
    }
  }
  return messages;
}

/** A plugin with an agent:llm:before middleware that reads the list (and, with `copy`, replaces it with copies). */
function listReader(copy: boolean): PluginEntry {
  return definePlugin({
    name: '@test/list-reader',
    uses: { hooks },
    apply({ hooks }) {
      hooks.use.middleware('agent:llm:before', async (call, next) => {
        if (copy) call.messages = call.messages.map((message) => ({ ...message }));
        else if (call.messages.length === 0) throw new Error('empty list');
        await next();
      });
    },
  });
}

async function run(extra: PluginEntry[] = []): Promise<{ bodies: unknown[]; usage: unknown[] }> {
  harness = await startHarness({
    extra,
    contextWindow: 6_000,
    maxOutputTokens: 500,
    tools: [
      {
        name: 'lookup',
        description: 'Looks something up',
        parameters: { type: 'object', properties: { q: { type: 'string' } } },
        handler: ({ q }) => `result for ${String(q)} `.repeat(30),
      },
    ],
  });
  const store = harness.booted.app.services.selected(memory)!.impl;
  await store.append('cli:owner', seed(400));
  const usage = harness.booted.capture('token:usage');
  for (let turn = 0; turn < 12; turn++) {
    harness.server.enqueue(
      toolCallReply([{ id: `c${turn}`, name: 'lookup', arguments: { q: `t${turn}` } }]),
      toolCallReply([{ id: `d${turn}`, name: 'lookup', arguments: { q: `u${turn}` } }]),
      textReply(`reply ${turn} `.repeat(40)),
    );
    await harness.say(`turn ${turn} `.repeat(20));
    // Someone else writes between turns (a plugin's note, an orphan result): appended, not reloaded.
    if (turn % 4 === 1) await store.append('cli:owner', [{ role: 'assistant', content: `note ${turn}` }]);
  }
  const bodies = harness.requests();
  // Turn ids and call ids are random per run, and the runs may straddle a minute (the volatile context's time):
  // everything else must match.
  const stable = (value: unknown) =>
    JSON.parse(
      JSON.stringify(value)
        .replace(/"turnId":"[^"]*"/g, '"turnId":"-"')
        .replace(/call_[a-z0-9]+/g, 'call')
        .replace(/\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}\]/g, '[minute]'),
    );
  const result = { bodies: bodies.map(stable), usage: usage.map(stable) };
  await harness.close();
  harness = undefined;
  return result;
}

describe('incremental history structures', () => {
  it('send the same requests and emit the same token:usage events as a from-scratch trim, the list built or not', async () => {
    const view = vi.spyOn(HistoryTrimIndex.prototype, 'segmentView');
    const built = vi.spyOn(HistorySegment.prototype, 'toArray');
    const indexed = await run();
    // The index stood for the history (it declines nothing here) on every call, reading the history as a segment of the
    // cache's log: no list of the whole history was built for any call.
    expect(view.mock.results.length).toBeGreaterThanOrEqual(36);
    expect(view.mock.results.every((result) => result.value !== undefined)).toBe(true);
    expect(built).not.toHaveBeenCalled();
    // Built once, then grown turn after turn: never dropped and indexed again.
    const indexes = new Set(view.mock.contexts as HistoryTrimIndex[]);
    expect(indexes.size).toBe(1);
    expect([...indexes][0]!.rebuilds).toBe(0);
    vi.restoreAllMocks();
    // A middleware that reads the list gets it built, and the trim of that list is the same.
    const read = await run([listReader(false)]);
    // One that replaces the list with copies: the index cannot vouch for them, the trim works from scratch.
    const copied = await run([listReader(true)]);
    vi.spyOn(HistoryCache.prototype, 'trimIndex').mockReturnValue(undefined as never);
    const scratch = await run();
    expect(indexed.usage.length).toBe(36);
    // The trim dropped history: the index was exercised where it matters.
    expect(indexed.usage.some((event) => (event as { trimmed: boolean }).trimmed)).toBe(true);
    expect(indexed.bodies).toEqual(scratch.bodies);
    expect(indexed.usage).toEqual(scratch.usage);
    for (const other of [read, copied]) {
      expect(other.bodies).toEqual(scratch.bodies);
      expect(other.usage).toEqual(scratch.usage);
    }
    // Four conversations of 12 turns over real HTTP and SQLite: seconds quiet, far longer on a loaded machine.
  }, 120_000);
});
