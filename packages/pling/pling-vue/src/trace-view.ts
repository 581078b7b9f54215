// The debug trace inside the recent-operations area: one line per model request actually sent (the runtime's
// bounded trace), each expandable to the roles and first characters of the messages it carried.
import type { TraceEntry } from '@plingjs/agent';
import type { DockTexts } from '@plingjs/core';
import { h, type VNode } from 'vue';

/** How much of each message the trace shows. */
export const TRACE_PREVIEW_CHARACTERS = 200;

type TraceMessage = TraceEntry['messages'][number];

/** The message's text (or, for a tool-calling reply without text, its calls), cut to `limit` characters. */
export function tracePreview(message: TraceMessage, limit = TRACE_PREVIEW_CHARACTERS): string {
  const calls = message.toolCalls?.map((call) => `${call.function.name}(${call.function.arguments})`).join(', ');
  const text = message.content !== '' ? message.content : (calls ?? '');
  const characters = Array.from(text); // code points, so a cut never splits a surrogate pair
  return characters.length > limit ? `${characters.slice(0, limit).join('')}…` : text;
}

/**
 * Numbers trace entries in the order this view first sees them (#1, #2, …), so the numbers stay with their
 * requests while older ones fall out of the bounded trace.
 */
export function createTraceNumbering(): (entry: TraceEntry) => number {
  const numbers = new WeakMap<TraceEntry, number>();
  let next = 1;
  return (entry) => {
    let number = numbers.get(entry);
    if (number === undefined) {
      number = next++;
      numbers.set(entry, number);
    }
    return number;
  };
}

export function renderTrace(
  entries: readonly TraceEntry[],
  texts: DockTexts,
  numberOf: (entry: TraceEntry) => number,
): VNode {
  return h('div', { 'data-pling': 'trace' }, [
    h('h3', { class: 'pling-subheading' }, texts.trace(entries.length)),
    h(
      'ol',
      entries.map((entry) => {
        const number = numberOf(entry);
        return h('li', { key: number, 'data-pling': 'trace-call' }, [
          h('details', [
            h('summary', texts.traceCall(number, entry.model, entry.messages.length, entry.tools.length)),
            h(
              'ol',
              entry.messages.map((message, index) =>
                h('li', { key: index, 'data-role': message.role }, [
                  h('code', message.role),
                  ' ',
                  tracePreview(message),
                ]),
              ),
            ),
          ]),
        ]);
      }),
    ),
  ]);
}
