// Many sessions at once in one process: each turn's model call links its own stop signal with the provider's
// shutdown signal, and nothing may pile listeners onto a long-lived signal (Node warns past ten).
import { type ScriptedReply, textReply } from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../agent-harness.case.js';

let harness: Harness | undefined;

const delayed = (reply: ScriptedReply): ScriptedReply =>
  reply.type === 'stream' ? { ...reply, headersDelayMs: 150 } : reply;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('concurrent turns', () => {
  it('sixteen sessions with model calls in flight together emit no MaxListenersExceededWarning', async () => {
    harness = await startHarness();
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const sessions = Array.from({ length: 16 }, (_, index) => `cli:user${index}`);
      // Every reply waits before its headers, so all sixteen calls are open at the same time.
      for (const _ of sessions) harness.server.enqueue(delayed(textReply('ok')));
      const outbound = harness.booted.capture('outbound:message');
      await Promise.all(
        sessions.map((sessionId, index) =>
          harness!.say(`hello ${index}`, { sessionId, sender: { userId: `user${index}` } }),
        ),
      );
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(outbound.filter((message) => message.content === 'ok')).toHaveLength(16);
      expect(warnings.map((warning) => `${warning.name}: ${warning.message}`)).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
