// The conversation: every entry of the timeline (turns with their inputs, her words, tool cards, joined inputs
// and outcome; commands with their answers; dividers, released inputs, notes), the sends not yet placed, and what
// waits to join or is queued while a turn runs. Each message offers Copy; the person's own messages Edit (an editor
// in place), her last reply Regenerate, a failed last turn Retry; a turn that replaced others switches between the
// versions (「‹ 1/2 ›」). Follows the bottom while the reader is there; scrolled up, new content shows a
// "Jump to latest" button instead of pulling the page down.
import { defineComponent, h, nextTick, onMounted, type PropType, reactive, ref, type VNode, watch } from 'vue';
import type { ConversationModel } from '../model/conversation-model.js';
import type { EntryView, TurnItemView, TurnView } from '../model/conversation-types.js';
import { splitErrorCode } from '../model/error-line.js';
import { type TurnActions, turnActions } from '../model/message-actions.js';
import { t } from '../page-preferences.js';
import { useStore } from '../use-store.js';
import { CopyButton } from './copy-button.js';
import { icon } from './icons.js';
import { MarkdownText } from './markdown-text.js';
import { noticeText, outcomeText, renderInput, renderNotice, renderText, renderTool } from './turn-parts.js';

/** What the conversation asks the page to do (rollbacks go through the session protocol). */
export interface ConversationHandlers {
  editTurn(turnId: string, text: string): Promise<boolean>;
  regenerate(turnId: string): void;
  retry(turnId: string): void;
}

/** Distance from the bottom (px) within which the reader counts as being at the latest message. */
const BOTTOM_SLACK = 48;

function renderItem(item: TurnItemView, selfId: string | undefined, turnId?: string): VNode | null {
  if (item.kind === 'text') return renderText(item, turnId);
  if (item.kind === 'tool') return renderTool(item);
  if (item.kind === 'input') return renderInput(item.input, selfId, t('webui-page.joined'));
  return renderNotice(item);
}

/** A command's answer; a refusal (a coded error) shows its code in small print under the sentence. */
function commandReply(reply: string): VNode[] {
  const { message, code } = splitErrorCode(reply);
  if (code === undefined) return [h(MarkdownText, { text: reply })];
  return [
    h(MarkdownText, { text: message }),
    h('small', { class: 'error-code', 'data-testid': 'error-code' }, t('webui-page.errorCode', { code })),
  ];
}

function turnHolds(turn: TurnView, storageId: string): boolean {
  return (
    turn.inputs.some((input) => input.storageId === storageId) ||
    turn.items.some(
      (item) =>
        (item.kind === 'text' && item.storageId === storageId) ||
        (item.kind === 'input' && item.input.storageId === storageId),
    )
  );
}

function actionButton(label: string, name: 'retry', testId: string, onClick: () => void): VNode {
  return h(
    'button',
    { type: 'button', class: 'button small', 'aria-label': label, title: label, 'data-testid': testId, onClick },
    [icon(name), h('span', { 'aria-hidden': 'true' }, label)],
  );
}

export const ConversationView = defineComponent({
  name: 'ConversationView',
  props: {
    model: { type: Object as PropType<ConversationModel>, required: true },
    selfId: { type: String, required: false },
    /** The account may write messages here (Edit, Regenerate and Retry are offered only then). */
    canSend: { type: Boolean, required: false, default: true },
    handlers: { type: Object as PropType<ConversationHandlers>, required: false },
    /** A stored message to show (a search hit): scrolled to and marked once the conversation is loaded. */
    focus: { type: Object as PropType<{ messageId: string; nonce: number }>, required: false },
  },
  setup(props) {
    const snapshot = useStore(props.model);
    const scroller = ref<HTMLElement | null>(null);
    /** Which version each turn with earlier versions shows (absent: the current one). */
    const shownVersion = reactive(new Map<string, number>());
    const atBottom = ref(true);
    const unseen = ref(false);
    const scrollToEnd = (behavior: ScrollBehavior = 'auto') => {
      const element = scroller.value;
      if (!element) return;
      element.scrollTo({ top: element.scrollHeight, behavior });
      // Once more after the next frame: code highlighting, fonts and the phone layout may still grow the content.
      if (behavior === 'auto')
        requestAnimationFrame(() => {
          if (atBottom.value) element.scrollTo({ top: element.scrollHeight });
        });
    };
    const onScroll = () => {
      const element = scroller.value;
      if (!element) return;
      atBottom.value = element.scrollHeight - element.scrollTop - element.clientHeight < BOTTOM_SLACK;
      if (atBottom.value) unseen.value = false;
    };
    let focusedNonce: number | undefined;
    /** Shows the message a search hit names: its earlier version first when it was replaced, then scrolls to it. */
    const showFocus = () => {
      const focus = props.focus;
      if (!focus || focus.nonce === focusedNonce || !snapshot.value.loaded) return;
      focusedNonce = focus.nonce;
      const id = focus.messageId;
      for (const entry of snapshot.value.entries) {
        if (entry.kind !== 'turn') continue;
        const index = entry.versions.findIndex((version) => version.some((turn) => turnHolds(turn, id)));
        if (index >= 0) shownVersion.set(entry.key, index);
      }
      void nextTick().then(() => {
        const element = scroller.value?.querySelector<HTMLElement>(`[data-storage-id="${CSS.escape(id)}"]`);
        if (!element) return;
        atBottom.value = false;
        element.scrollIntoView({ block: 'center' });
        element.classList.add('found');
        setTimeout(() => element.classList.remove('found'), 2500);
      });
    };
    watch(() => [props.focus?.nonce, snapshot.value.loaded], showFocus);
    onMounted(() => {
      scrollToEnd();
      showFocus();
    });
    watch(snapshot, (now, before) => {
      if (props.focus && props.focus.nonce === focusedNonce && !before.loaded) return;
      if (!atBottom.value) {
        // Content came while the reader is up the page: offer the way down instead of pulling them there.
        if (now.entries !== before.entries || now.pending !== before.pending) unseen.value = true;
        return;
      }
      void nextTick().then(() => scrollToEnd());
    });

    const versionSwitch = (turn: TurnView, shown: number): VNode => {
      const count = turn.versions.length + 1;
      const go = (index: number) => {
        if (index >= count - 1) shownVersion.delete(turn.key);
        else shownVersion.set(turn.key, Math.max(0, index));
      };
      return h('div', { class: 'version-switch', 'data-testid': 'version-switch' }, [
        h(
          'button',
          {
            type: 'button',
            class: 'icon-button',
            'aria-label': t('webui-page.version.previous'),
            title: t('webui-page.version.previous'),
            disabled: shown === 0,
            'data-testid': 'version-previous',
            onClick: () => go(shown - 1),
          },
          icon('chevronLeft'),
        ),
        h(
          'span',
          {
            class: 'version-position',
            'aria-label': t('webui-page.version.position', { index: shown + 1, count }),
            'data-testid': 'version-position',
          },
          `${shown + 1}/${count}`,
        ),
        h(
          'button',
          {
            type: 'button',
            class: 'icon-button',
            'aria-label': t('webui-page.version.next'),
            title: t('webui-page.version.next'),
            disabled: shown === count - 1,
            'data-testid': 'version-next',
            onClick: () => go(shown + 1),
          },
          icon('chevronRight'),
        ),
      ]);
    };

    const editor = (turnId: string, text: string): VNode => {
      const submit = () => void props.handlers?.editTurn(turnId, text);
      return h(
        'form',
        {
          class: 'edit-form',
          'data-testid': 'edit-form',
          onSubmit: (event: Event) => {
            event.preventDefault();
            submit();
          },
        },
        [
          h('label', { for: `edit-${turnId}`, class: 'visually-hidden' }, t('webui-page.edit.label')),
          h('textarea', {
            id: `edit-${turnId}`,
            class: 'edit-text',
            value: text,
            rows: Math.min(10, Math.max(2, text.split('\n').length)),
            'data-testid': 'edit-text',
            onVnodeMounted: (vnode: VNode) => {
              const area = vnode.el as HTMLTextAreaElement;
              area.focus();
              area.setSelectionRange(area.value.length, area.value.length);
            },
            onInput: (event: Event) => props.model.editText((event.target as HTMLTextAreaElement).value),
            onKeydown: (event: KeyboardEvent) => {
              if (event.key === 'Escape') {
                event.preventDefault();
                event.stopPropagation();
                props.model.cancelEdit();
              } else if (event.key === 'Enter' && !event.shiftKey && !event.isComposing && event.keyCode !== 229) {
                event.preventDefault();
                submit();
              }
            },
          }),
          h('p', { class: 'muted edit-hint' }, t('webui-page.edit.hint')),
          h('div', { class: 'edit-buttons' }, [
            h(
              'button',
              { type: 'button', class: 'button', onClick: () => props.model.cancelEdit() },
              t('webui-page.edit.cancel'),
            ),
            h(
              'button',
              { type: 'submit', class: 'button primary', disabled: text.trim() === '', 'data-testid': 'edit-save' },
              t('webui-page.edit.save'),
            ),
          ]),
        ],
      );
    };

    const renderTurn = (turn: TurnView, actions: TurnActions | undefined, footerExtra?: VNode): VNode => {
      const selfId = props.selfId;
      const outcome = outcomeText(turn, selfId);
      const editing = snapshot.value.editing;
      const isEditing = editing !== undefined && editing.turnId === turn.turnId && !turn.superseded;
      const turnId = turn.turnId;
      const footer = [
        footerExtra ?? null,
        turnId && actions?.regenerate
          ? actionButton(t('webui-page.action.regenerate'), 'retry', 'regenerate', () =>
              props.handlers?.regenerate(turnId),
            )
          : null,
        turnId && actions?.retry
          ? actionButton(t('webui-page.action.retry'), 'retry', 'retry', () => props.handlers?.retry(turnId))
          : null,
      ].filter((node): node is VNode => node !== null);
      return h(
        'article',
        {
          key: turn.key,
          class: [
            'turn',
            turn.running ? 'running' : '',
            turn.outcome ? `outcome-${turn.outcome}` : '',
            turn.superseded ? 'superseded' : '',
          ],
          'data-testid': 'turn',
          'data-turn-id': turn.turnId,
          'data-outcome': turn.outcome ?? (turn.running ? 'running' : ''),
          'data-superseded': turn.superseded ? turn.superseded.action : undefined,
          'aria-busy': turn.running ? 'true' : 'false',
        },
        [
          turn.superseded
            ? h('p', { class: 'tag tag-superseded', 'data-testid': 'superseded' }, t('webui-page.version.superseded'))
            : null,
          ...turn.inputs.map((input, index) =>
            renderInput(input, selfId, undefined, {
              onEdit: index === 0 && turnId && actions?.edit ? () => props.model.startEdit(turnId) : undefined,
              editor: index === 0 && isEditing && editing ? editor(editing.turnId, editing.text) : undefined,
            }),
          ),
          ...(isEditing ? [] : turn.items.map((item) => renderItem(item, selfId, turn.turnId))),
          turn.running && !isEditing
            ? h('div', { class: 'typing', 'aria-hidden': 'true' }, [h('span'), h('span'), h('span')])
            : null,
          outcome && !isEditing
            ? h('p', { class: ['outcome', `outcome-${turn.outcome}`], 'data-testid': 'outcome' }, outcome)
            : null,
          footer.length > 0 && !isEditing ? h('div', { class: 'turn-footer' }, footer) : null,
        ],
      );
    };

    /** A turn with earlier versions: the version picked is drawn in its place, the switch at its foot. */
    const renderVersioned = (turn: TurnView, actions: TurnActions | undefined): VNode[] => {
      if (turn.versions.length === 0) return [renderTurn(turn, actions)];
      const shown = Math.min(shownVersion.get(turn.key) ?? turn.versions.length, turn.versions.length);
      if (shown === turn.versions.length) return [renderTurn(turn, actions, versionSwitch(turn, shown))];
      const old = turn.versions[shown] ?? [];
      return old.map((version, index) =>
        renderTurn(version, undefined, index === old.length - 1 ? versionSwitch(turn, shown) : undefined),
      );
    };

    const renderEntry = (entry: EntryView, actions: Map<string, TurnActions>): VNode | VNode[] => {
      const selfId = props.selfId;
      switch (entry.kind) {
        case 'turn':
          return renderVersioned(entry, actions.get(entry.key));
        case 'divider':
          return h('div', { key: entry.key, class: 'divider', role: 'separator' }, [
            h('span', t('webui-page.divider')),
            entry.summary ? h('details', [h('summary', '…'), h('p', entry.summary)]) : null,
          ]);
        case 'released':
          return renderInput(entry.input, selfId, t('webui-page.released'));
        case 'note':
          return h(
            'p',
            {
              key: entry.key,
              class: ['notice', `notice-${entry.tone}`],
              'data-testid': 'notice',
              'data-tone': entry.tone,
            },
            noticeText(entry),
          );
        case 'command':
          return h(
            'article',
            {
              key: entry.key,
              class: 'command-entry',
              'data-testid': 'command',
              'data-message-id': entry.input.messageId,
            },
            [
              renderInput(entry.input, selfId, t('webui-page.command')),
              entry.reply === undefined || entry.reply === ''
                ? null
                : h('div', { class: 'reply command-reply', 'data-testid': 'command-reply' }, [
                    ...commandReply(entry.reply),
                    h('div', { class: 'message-actions' }, [h(CopyButton, { text: entry.reply })]),
                  ]),
            ],
          );
      }
    };

    return () => {
      const { entries, pending, waiting, loaded, truncated, runningTurnId } = snapshot.value;
      const selfId = props.selfId;
      const empty = loaded && entries.length === 0 && pending.length === 0;
      const actions = turnActions(entries, {
        selfId,
        canSend: props.canSend && props.handlers !== undefined,
        running: runningTurnId !== undefined,
      });
      return h('div', { class: 'conversation-frame' }, [
        h(
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
            ...entries.flatMap((entry) => renderEntry(entry, actions)),
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
                        {
                          key: entry.key,
                          class: ['waiting-item', `waiting-${entry.state}`],
                          'data-state': entry.state,
                        },
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
        ),
        unseen.value && !atBottom.value
          ? h(
              'button',
              {
                type: 'button',
                class: 'button jump-latest',
                'data-testid': 'jump-latest',
                onClick: () => {
                  unseen.value = false;
                  scrollToEnd('smooth');
                },
              },
              [icon('arrowDown'), t('webui-page.jumpLatest')],
            )
          : null,
      ]);
    };
  },
});
