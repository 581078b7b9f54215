// The history copy must never differ from what the memory service would return.
import { memory } from '@aalis/api-memory';
import { textReply } from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../agent-harness.case.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const contents = (messages: Array<Record<string, unknown>>) => messages.map((m) => String(m.content ?? ''));

describe('history copy kept by memory events', () => {
  it('follows rollbacks, compression dividers and clears', async () => {
    harness = await startHarness();
    const store = harness.booted.app.services.selected(memory)!.impl;
    harness.server.enqueue(textReply('r1'), textReply('r2'), textReply('r3'), textReply('r4'), textReply('r5'));
    await harness.say('m1');
    await harness.say('m2');
    const turnOfM2 = (await store.readAll('cli:owner')).find((m) => m.content.endsWith('m2'))!.metadata!
      .turnId as string;
    await store.deleteByTurn('cli:owner', turnOfM2);
    await harness.say('m3');
    expect(contents(harness.requests()[2]!.messages).some((c) => c.endsWith('m2') || c === 'r2')).toBe(false);
    await store.append('cli:owner', [
      { role: 'system', kind: 'compression-divider', content: '', metadata: { summary: 's' } },
    ]);
    await harness.say('m4');
    const fourth = contents(harness.requests()[3]!.messages);
    expect(fourth.some((c) => c.endsWith('m1') || c.endsWith('m3'))).toBe(false);
    await store.clear('cli:owner');
    await harness.say('m5');
    const fifth = contents(harness.requests()[4]!.messages);
    expect(fifth.filter((c) => /m\d$/.test(c))).toHaveLength(1);
  });

  it('a message appended by someone else between turns is in the next request', async () => {
    harness = await startHarness();
    const store = harness.booted.app.services.selected(memory)!.impl;
    harness.server.enqueue(textReply('r1'), textReply('r2'));
    await harness.say('m1');
    await store.append('cli:owner', [{ role: 'assistant', content: 'note written by a plugin' }]);
    await harness.say('m2');
    expect(contents(harness.requests()[1]!.messages)).toContain('note written by a plugin');
  });
});
