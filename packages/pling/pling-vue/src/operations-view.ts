// The recent-operations area: tool calls, retries and compactions as the dock model words them, and, when the dock
// has `debug`, the request trace below them.
import type { TraceEntry } from '@plingjs/agent';
import type { DockState } from '@plingjs/core';
import { h, type VNode } from 'vue';
import { renderTrace } from './trace-view.js';

export function renderOperations(state: DockState, numberOf: (entry: TraceEntry) => number): VNode {
  const { texts, operations, trace } = state;
  return h('section', { 'data-pling': 'operations' }, [
    h('h3', { class: 'pling-subheading' }, texts.recentOperations),
    operations.length === 0
      ? h('p', { class: 'pling-muted' }, texts.noOperations)
      : h(
          'ul',
          { class: 'pling-list' },
          operations.map((operation) =>
            h(
              'li',
              {
                key: operation.key,
                'data-pling': 'operation',
                'data-status': operation.status,
              },
              operation.text,
            ),
          ),
        ),
    trace ? renderTrace(trace, texts, numberOf) : null,
  ]);
}
