// The pieces of a turn: an input bubble (with its images), her text of one model call (reasoning collapsed,
// Markdown, 「未发出」), a tool card (arguments, result, duration, error) and a notice. Pure render functions of
// view entries, so the conversation re-renders one turn per delta.
import { h, type VNode } from 'vue';
import type {
  InputView,
  LocaleTexts,
  NoticeItemView,
  PersonView,
  TextItemView,
  ToolCardView,
  TurnView,
} from '../model/conversation-types.js';
import { preferences, t } from '../page-preferences.js';
import { CopyButton } from './copy-button.js';
import { icon } from './icons.js';
import { MarkdownText } from './markdown-text.js';
import { PlayButton, replySpeech } from './play-button.js';

export function personName(person: PersonView | undefined, selfId: string | undefined): string {
  if (!person) return '';
  if (selfId !== undefined && person.userId === selfId && person.platform !== undefined && person.platform === 'webui')
    return t('webui-page.you');
  return person.displayName || person.userId || '';
}

function time(at: number | undefined): VNode | null {
  if (at === undefined) return null;
  const date = new Date(at);
  return h(
    'time',
    { datetime: date.toISOString(), class: 'time' },
    date.toLocaleTimeString(preferences.locale, { hour: '2-digit', minute: '2-digit' }),
  );
}

/** What an input bubble offers besides Copy: Edit (the person's own message of a live turn), or an open editor. */
export interface InputExtras {
  onEdit?: () => void;
  editor?: VNode;
}

function messageActions(children: (VNode | null)[]): VNode {
  return h(
    'div',
    { class: 'message-actions', role: 'group', 'aria-label': t('webui-page.action.messageActions') },
    children,
  );
}

export function editButton(onEdit: () => void): VNode {
  return h(
    'button',
    {
      type: 'button',
      class: 'icon-button message-action',
      'aria-label': t('webui-page.action.edit'),
      title: t('webui-page.action.edit'),
      'data-testid': 'edit',
      onClick: onEdit,
    },
    icon('edit'),
  );
}

export function renderInput(
  input: InputView,
  selfId: string | undefined,
  note?: string,
  extras: InputExtras = {},
): VNode {
  const own = input.pending || (input.sender?.userId === selfId && input.sender?.platform === 'webui');
  if (extras.editor) return h('div', { key: input.key, class: 'bubble bubble-user own editing' }, extras.editor);
  return h(
    'div',
    {
      key: input.key,
      class: ['bubble', 'bubble-user', own ? 'own' : 'other', input.pending ? 'pending' : ''],
      'data-testid': 'input',
      'data-entry': input.entry ?? 'released',
      'data-storage-id': input.storageId,
    },
    [
      h('div', { class: 'bubble-meta' }, [
        h('span', { class: 'sender' }, input.pending ? t('webui-page.you') : personName(input.sender, selfId)),
        time(input.at),
        note ? h('span', { class: 'tag' }, note) : null,
        input.pending ? h('span', { class: 'tag' }, t('webui-page.pending')) : null,
      ]),
      input.text === '' ? null : h('div', { class: 'bubble-text' }, input.text),
      input.attachments.length === 0
        ? null
        : h(
            'div',
            { class: 'attachments' },
            input.attachments.map((attachment, index) =>
              attachment.url
                ? h('img', {
                    key: index,
                    src: attachment.url,
                    alt: attachment.name ?? attachment.description ?? '',
                    loading: 'lazy',
                    class: 'attachment',
                  })
                : h('span', { key: index, class: 'tag' }, attachment.name ?? attachment.type),
            ),
          ),
      input.pending || input.text === ''
        ? null
        : messageActions([h(CopyButton, { text: input.text }), extras.onEdit ? editButton(extras.onEdit) : null]),
    ],
  );
}

/** `turnId`: the turn it belongs to, so a reply the page has only live can be named to the host (its Play button). */
export function renderText(item: TextItemView, turnId?: string): VNode | null {
  if (item.text === '' && item.reasoning === '') return null;
  return h(
    'div',
    {
      key: item.key,
      class: ['reply', item.unsent ? 'unsent' : '', item.stopped ? 'stopped' : ''],
      'data-testid': 'reply',
      'data-stopped': item.stopped ? 'true' : undefined,
      'data-storage-id': item.storageId,
    },
    [
      item.reasoning === ''
        ? null
        : h('details', { class: 'reasoning', 'data-testid': 'reasoning' }, [
            h('summary', t('webui-page.reasoning.chars', { count: item.reasoning.length })),
            h('div', { class: 'reasoning-text' }, item.reasoning),
          ]),
      item.text === '' ? null : h(MarkdownText, { text: item.text }),
      item.unsent ? h('span', { class: 'tag tag-unsent', 'data-testid': 'unsent' }, t('webui-page.unsent')) : null,
      item.stopped ? h('span', { class: 'tag tag-stopped', 'data-testid': 'stopped' }, t('webui-page.stopped')) : null,
      item.text === ''
        ? null
        : messageActions([
            h(CopyButton, { text: item.text }),
            // Her stored words only (by id, or by turn and segment while live): never a text the page sends.
            replySpeech.value && (item.storageId !== undefined || turnId !== undefined)
              ? h(PlayButton, {
                  ...(item.storageId !== undefined ? { messageId: item.storageId } : { turnId, segment: item.segment }),
                })
              : null,
          ]),
    ],
  );
}

const TOOL_STATE_TEXT = {
  writing: 'webui-page.tool.writing',
  running: 'webui-page.tool.running',
  done: 'webui-page.tool.done',
  error: 'webui-page.tool.error',
} as const;

/** A tool call's duration for people: <1 ms, 12 ms, 3.4 s. */
export function durationText(ms: number): string {
  if (ms < 1) return t('webui-page.tool.duration', { ms: '<1' });
  if (ms < 1000) return t('webui-page.tool.duration', { ms: Math.round(ms) });
  return t('webui-page.tool.durationSeconds', { s: (ms / 1000).toFixed(1) });
}

/** The arguments on one line, cut to fit the card's heading. */
function argumentsPreview(text: string): string {
  let line = text;
  try {
    line = JSON.stringify(JSON.parse(text));
  } catch {
    line = text.replace(/\s+/g, ' ');
  }
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

export function renderTool(card: ToolCardView): VNode {
  const busy = card.state === 'writing' || card.state === 'running';
  return h(
    'details',
    {
      key: card.key,
      class: ['tool-card', `tool-${card.state}`],
      'data-testid': 'tool-card',
      'data-call-id': card.callId,
      'data-state': card.state,
      open: card.state === 'error' ? true : undefined,
    },
    [
      h('summary', { class: 'tool-summary' }, [
        h('span', { class: 'tool-icon', 'aria-hidden': 'true' }, busy ? '⚙' : card.state === 'error' ? '✗' : '✓'),
        h('code', { class: 'tool-name' }, card.name || '…'),
        h('code', { class: 'tool-args-preview' }, argumentsPreview(card.argumentsText)),
        h('span', { class: 'tool-state' }, t(TOOL_STATE_TEXT[card.state])),
        card.durationMs === undefined ? null : h('span', { class: 'tool-duration' }, durationText(card.durationMs)),
      ]),
      h('div', { class: 'tool-body' }, [
        h('div', { class: 'tool-label' }, t('webui-page.tool.arguments')),
        h('pre', { class: 'tool-pre' }, card.argumentsText || '{}'),
        card.result === undefined
          ? null
          : [
              h('div', { class: 'tool-label' }, t('webui-page.tool.result')),
              h('pre', { class: ['tool-pre', card.state === 'error' ? 'tool-error' : ''] }, card.result),
            ],
      ]),
    ],
  );
}

export function renderNotice(item: NoticeItemView): VNode {
  return h(
    'p',
    {
      key: item.key,
      class: ['notice', `notice-${item.tone}`],
      role: item.tone === 'info' ? undefined : 'status',
      'data-testid': 'notice',
      'data-tone': item.tone,
    },
    noticeText(item),
  );
}

/** A notice in the page's language when the host sent it in each (an older stored one is in the host's). */
export function noticeText(notice: { text: string; texts?: LocaleTexts }): string {
  return notice.texts?.[preferences.locale] ?? notice.text;
}

export function outcomeText(turn: TurnView, selfId: string | undefined): string | undefined {
  switch (turn.outcome) {
    case undefined:
    case 'replied':
      return undefined;
    case 'silent':
      return t('webui-page.outcome.silent');
    case 'aborted':
      return turn.stoppedBy
        ? t('webui-page.outcome.abortedBy', { who: personName(turn.stoppedBy, selfId) })
        : t('webui-page.outcome.aborted');
    case 'error':
      return t('webui-page.outcome.error', { reason: turn.errors?.[preferences.locale] ?? turn.error ?? '' });
  }
}
