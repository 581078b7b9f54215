// The history copy groups appended messages incrementally; the result must equal applyHistoryWindow over the same
// active history at every step (late results completing a group, orphan results, control messages, envelopes).
import { applyHistoryWindow } from '@aalis/context-budget';
import { isControlMessage, type Message, WellKnownMetadataKeys } from '@aalis/schema-message';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HistoryCache, type HistoryReader, visibleForm } from './history-cache.js';

type Step = 'user' | 'assistant' | 'call' | 'call-missing' | 'late' | 'orphan' | 'marker' | 'envelope';

describe('HistoryCache grouped window', () => {
  it('equals applyHistoryWindow over the stored history after every append', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.array(
            fc.constantFrom<Step>('user', 'assistant', 'call', 'call-missing', 'late', 'orphan', 'marker', 'envelope'),
            { minLength: 1, maxLength: 4 },
          ),
          { minLength: 1, maxLength: 12 },
        ),
        async (batches) => {
          const stored: Message[] = [];
          const memory: HistoryReader = {
            read: async () => stored.filter((message) => !isControlMessage(message)),
          };
          const cache = new HistoryCache();
          const missing: string[] = [];
          let next = 0;
          const build = (step: Step): Message[] => {
            const id = `m${next++}`;
            switch (step) {
              case 'user':
                return [{ role: 'user', content: id, metadata: { [WellKnownMetadataKeys.TurnId]: `t${next % 3}` } }];
              case 'assistant':
                return [{ role: 'assistant', content: id }];
              case 'envelope':
                return [
                  {
                    role: 'assistant',
                    content: `{"v":"${id}"}`,
                    metadata: { [WellKnownMetadataKeys.VisibleContent]: id },
                  },
                ];
              case 'marker':
                return [{ role: 'system', content: id, kind: 'event-marker' }];
              case 'orphan':
                return [{ role: 'tool', content: id, toolCallId: `none-${id}` }];
              case 'late':
                return [{ role: 'tool', content: id, toolCallId: missing.shift() ?? `none-${id}` }];
              case 'call':
              case 'call-missing': {
                const calls = [`c${id}a`, `c${id}b`];
                if (step === 'call-missing') missing.push(calls[1]!);
                return [
                  {
                    role: 'assistant',
                    content: '',
                    toolCalls: calls.map((callId) => ({
                      id: callId,
                      type: 'function' as const,
                      function: { name: 'lookup', arguments: '{}' },
                    })),
                  },
                  { role: 'tool', content: `r${id}a`, toolCallId: calls[0]! },
                  ...(step === 'call' ? [{ role: 'tool' as const, content: `r${id}b`, toolCallId: calls[1]! }] : []),
                ];
              }
            }
          };
          // The copy is loaded once, then follows appends.
          await cache.groupedWindow(memory, 's', 0, 0);
          for (const batch of batches) {
            const added = batch.flatMap(build);
            stored.push(...added);
            cache.appended('s', added);
            const count = stored.filter((message) => !isControlMessage(message)).length;
            const window = await cache.groupedWindow(memory, 's', 0, count);
            const expected = applyHistoryWindow({ messages: stored.map(visibleForm), limit: 0 }).messages;
            expect(window.log.segment(window.length).toArray()).toEqual(expected);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
