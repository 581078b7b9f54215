// The conversation: every entry of the timeline (turns with their inputs, her words, tool cards, joined inputs
// and outcome; dividers, released inputs, notes), the sends not yet placed, and what waits to join or is queued
// while a turn runs. Follows the bottom while the reader is there.
import { defineComponent, h, nextTick, type PropType, ref, type VNode, watch } from 'vue';
import type { ConversationModel } from '../model/conversation-model.js';
import type { EntryView, TurnItemView, TurnView } from '../model/conversation-types.js';
import { t } from '../page-preferences.js';
import { useStore } from '../use-store.js';
import { outcomeText, renderInput, renderNotice, renderText, renderTool } from './turn-parts.js';

function renderItem(item: TurnItemView, selfId: string | undefined): VNode | null {
  if (item.kind === 'text') return renderText(item);
  if (item.kind === 'tool') return renderTool(item);
  if (item.kind === 'input') return renderInput(item.input, selfId, t('webui-page.joined'));
  return renderNotice(item);
}

function renderTurn(turn: TurnView, selfId: string | undefined) {
  const outcome = outcomeText(turn, selfId);
  return h(
    'article',
    {
      key: turn.key,
      class: ['turn', turn.running ? 'running' : '', turn.outcome ? `outcome-${turn.outcome}` : ''],
      'data-testid': 'turn',
      'data-turn-id': turn.turnId,
      'data-outcome': turn.outcome ?? (turn.running ? 'running' : ''),
      'aria-busy': turn.running ? 'true' : 'false',
    },
    [
      ...turn.inputs.map((input) => renderInput(input, selfId)),
      ...turn.items.map((item) => renderItem(item, selfId)),
      turn.running ? h('div', { class: 'typing', 'aria-hidden': 'true' }, [h('span'), h('span'), h('span')]) : null,
      outcome ? h('p', { class: ['outcome', `outcome-${turn.outcome}`], 'data-testid': 'outcome' }, outcome) : null,
    ],
  );
}

function renderEntry(entry: EntryView, selfId: string | undefined) {
  switch (entry.kind) {
    case 'turn':
      return renderTurn(entry, selfId);
    case 'divider':
      return h('div', { key: entry.key, class: 'divider', role: 'separator' }, [
        h('span', t('webui-page.divider')),
        entry.summary ? h('details', [h('summary', '…'), h('p', entry.summary)]) : null,
      ]);
    case 'released':
      return renderInput(entry.input, selfId, t('webui-page.released'));
    case 'note':
      return h('p', { key: entry.key, class: ['notice', `notice-${entry.tone}`] }, entry.text);
  }
}

export const ConversationView = defineComponent({
  name: 'ConversationView',
  props: {
    model: { type: Object as PropType<ConversationModel>, required: true },
    selfId: { type: String, required: false },
  },
  setup(props) {
    const snapshot = useStore(props.model);
    const scroller = ref<HTMLElement | null>(null);
    let atBottom = true;
    const onScroll = () => {
      const element = scroller.value;
      if (element) atBottom = element.scrollHeight - element.scrollTop - element.clientHeight < 48;
    };
    watch(snapshot, () => {
      if (!atBottom) return;
      void nextTick().then(() => {
        const element = scroller.value;
        if (element) element.scrollTop = element.scrollHeight;
      });
    });
    return () => {
      const { entries, pending, waiting, loaded, truncated } = snapshot.value;
      const selfId = props.selfId;
      const empty = loaded && entries.length === 0 && pending.length === 0;
      return h(
        'div',
        {
          ref: scroller,
          class: 'conversation',
          role: 'log',
          'aria-live': 'polite',
          'aria-relevant': 'additions',
          'aria-label': t('webui-page.sessions'),
          'data-testid': 'conversation',
          'data-loaded': loaded ? 'true' : 'false',
          'data-session-id': snapshot.value.sessionId,
          tabindex: 0,
          onScroll,
        },
        [
          loaded ? null : h('p', { class: 'placeholder' }, t('webui-page.loading')),
          empty ? h('p', { class: 'placeholder' }, t('webui-page.empty')) : null,
          truncated ? h('p', { class: 'placeholder', 'data-testid': 'truncated' }, t('webui-page.truncated')) : null,
          ...entries.map((entry) => renderEntry(entry, selfId)),
          ...pending.map((input) => renderInput(input, selfId)),
          waiting.length === 0
            ? null
            : h(
                'section',
                { class: 'waiting', 'aria-label': t('webui-page.waiting.title'), 'data-testid': 'waiting' },
                [
                  ...waiting.map((entry) =>
                    h(
                      'div',
                      { key: entry.key, class: ['waiting-item', `waiting-${entry.state}`], 'data-state': entry.state },
                      [
                        h(
                          'span',
                          { class: 'tag' },
                          t(entry.state === 'join' ? 'webui-page.waiting.join' : 'webui-page.waiting.queue'),
                        ),
                        h('span', { class: 'waiting-text' }, entry.text),
                      ],
                    ),
                  ),
                ],
              ),
        ],
      );
    };
  },
});
