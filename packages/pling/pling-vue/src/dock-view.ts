// AgentDock's markup as a pure function of the dock state and the draft being typed, following the DOM contract
// every Pling dock shares (data-pling="…" hooks, texts from dockTexts only, the layout dock-styles describes).
// Vue's keyed diff keeps the tree in place, and a reply's Markdown is morphed by MessageText, so a streamed delta
// only changes the streaming message's text.
import type { TraceEntry } from '@plingjs/agent';
import {
  confirmationArgumentsText,
  type DockConfirmation,
  type DockPlacement,
  type DockState,
  type DockTexts,
  type HandoffRequest,
} from '@plingjs/core';
import { h, type Ref, type VNode, type VNodeChild } from 'vue';
import { MessageText } from './message-text.js';
import { renderOperations } from './operations-view.js';

export interface DockViewHandlers {
  input(text: string): void;
  submit(): void;
  clear(): void;
  cancel(): void;
  approve(id: string): void;
  reject(id: string): void;
  resolveHandoff(id: string): void;
  retry(): void;
  /** The launcher (true) and the header's close button (false). */
  setOpen(open: boolean): void;
}

export interface DockViewInput {
  state: DockState;
  draft: string;
  /** 'fixed': the panel at the bottom right of the viewport; 'inline': fills the parent element. */
  placement: DockPlacement;
  traceNumber: (entry: TraceEntry) => number;
  on: DockViewHandlers;
  /** Receives the chat's scrolling element (`data-pling="messages"`). */
  messagesRef?: Ref<HTMLElement | null>;
  /** Receives the root element. */
  rootRef?: Ref<HTMLElement | null>;
  /** The dock's model settings, shown in the `settings` panel under the header (AgentDock's `settings` slot). */
  settings?: VNodeChild;
}

export function renderDock({
  state,
  draft,
  placement,
  traceNumber,
  on,
  messagesRef,
  rootRef,
  settings,
}: DockViewInput): VNode {
  const { texts } = state;
  const floating = placement === 'fixed';
  const open = !floating || state.open;
  return h(
    'div',
    {
      'data-pling': 'dock',
      'data-placement': placement,
      'data-open': String(open),
      role: 'complementary',
      'aria-label': state.title,
      'aria-busy': state.busy ? 'true' : 'false',
      ref: rootRef,
      // Escape folds a floating dock, as it closes a popup (not while an input method is composing).
      onKeydown: (event: KeyboardEvent) => {
        if (event.key !== 'Escape' || event.isComposing || !floating || !open) return;
        event.preventDefault();
        on.setOpen(false);
      },
    },
    [
      floating
        ? h(
            'button',
            { type: 'button', 'data-pling': 'launcher', 'aria-expanded': 'false', onClick: () => on.setOpen(true) },
            texts.open,
          )
        : null,
      h('header', { class: 'pling-header' }, [
        h('h2', { class: 'pling-title' }, state.title),
        h('div', { class: 'pling-header-actions' }, [
          h('button', { type: 'button', 'data-pling': 'clear', onClick: on.clear }, texts.clear),
          floating
            ? h(
                'button',
                {
                  type: 'button',
                  'data-pling': 'close',
                  'aria-expanded': 'true',
                  'aria-label': texts.closeLabel,
                  onClick: () => on.setOpen(false),
                },
                texts.close,
              )
            : null,
        ]),
      ]),
      h('div', { 'data-pling': 'settings', class: 'pling-settings' }, settings ? [settings] : []),
      state.notConfigured === undefined
        ? null
        : h('div', { 'data-pling': 'not-configured', role: 'status' }, [
            h('strong', texts.notConfigured),
            h('p', texts.notConfiguredHint),
            renderDetails(texts, [errorCode('NOT_CONFIGURED'), state.notConfigured]),
          ]),
      renderMessages(state, messagesRef),
      state.notice === undefined ? null : h('p', { 'data-pling': 'notice', role: 'status' }, state.notice),
      state.error === undefined
        ? null
        : h('div', { 'data-pling': 'error', role: 'alert' }, [
            h('p', { 'data-pling': 'error-summary' }, state.error.summary),
            renderDetails(texts, [errorCode(state.error.code), state.error.message]),
            state.canRetry
              ? h('button', { type: 'button', 'data-pling': 'retry', onClick: on.retry }, texts.retryButton)
              : null,
          ]),
      ...state.confirmations.map((request) => renderConfirmation(request, texts, on)),
      ...state.handoffs.map((request) => renderHandoff(request, texts, on)),
      renderOperations(state, traceNumber),
      renderForm(state, draft, on),
      h(
        'p',
        { 'data-pling': 'announcer', class: 'pling-visually-hidden', 'aria-live': 'assertive', 'aria-atomic': 'true' },
        state.announcement,
      ),
    ],
  );
}

/** An error's code, as every dock marks it. */
function errorCode(code: string): VNode {
  return h('code', { 'data-pling': 'error-code', class: 'pling-error-code' }, code);
}

/** The developer's part of an error: its code and technical message, behind a disclosure. */
function renderDetails(texts: DockTexts, content: VNodeChild[]): VNode {
  return h('details', { 'data-pling': 'error-details' }, [h('summary', texts.errorDetails), h('p', content)]);
}

function renderMessages({ messages, texts, thinking }: DockState, ref: Ref<HTMLElement | null> | undefined): VNode {
  return h('div', { 'data-pling': 'messages', 'aria-live': 'polite', ref }, [
    ...(messages.length === 0 && !thinking
      ? [h('p', { class: 'pling-muted' }, texts.empty)]
      : messages.map((message) =>
          h(
            'div',
            {
              key: message.key,
              'data-pling': 'message',
              'data-role': message.role,
              'data-streaming': message.streaming ? 'true' : undefined,
              'data-interrupted': message.interrupted ? 'true' : undefined,
            },
            [
              h('span', { class: 'pling-speaker' }, message.role === 'user' ? texts.you : texts.assistant),
              h(MessageText, { role: message.role, text: message.text }),
              // A reply cut off mid-stream keeps its text and says so.
              message.interrupted
                ? h('span', { class: 'pling-muted', 'data-pling': 'interrupted' }, texts.interrupted)
                : null,
            ],
          ),
        )),
    thinking ? h('p', { key: 'thinking', 'data-pling': 'thinking', role: 'status' }, texts.thinking) : null,
  ]);
}

/** The same card in every dock: title, description, the arguments as the person knows them, reject then approve. */
function renderConfirmation(request: DockConfirmation, texts: DockTexts, on: DockViewHandlers): VNode {
  const title = texts.confirm(request.actionId) + (request.danger ? texts.dangerMark : '');
  const attributes = {
    'data-pling': 'confirmation',
    'data-danger': String(request.danger),
    'data-id': request.id,
    role: 'group',
    'aria-label': title,
  };
  return h('div', { key: request.id, ...attributes }, [
    h('p', { class: 'pling-confirmation-title' }, title),
    h('p', { class: 'pling-muted' }, request.description),
    h('pre', { class: 'pling-arguments' }, confirmationArgumentsText(request.shownArguments)),
    h('div', { class: 'pling-actions' }, [
      h('button', { type: 'button', 'data-pling': 'reject', onClick: () => on.reject(request.id) }, texts.reject),
      h('button', { type: 'button', 'data-pling': 'approve', onClick: () => on.approve(request.id) }, texts.approve),
    ]),
  ]);
}

function renderHandoff(request: HandoffRequest, texts: DockTexts, on: DockViewHandlers): VNode {
  return h('div', { key: request.id, 'data-pling': 'handoff', role: 'group' }, [
    h('p', texts.handoff(request.reason)),
    h('div', { class: 'pling-actions' }, [
      h(
        'button',
        { type: 'button', 'data-pling': 'resolve-handoff', onClick: () => on.resolveHandoff(request.id) },
        texts.resolveHandoff,
      ),
    ]),
  ]);
}

function renderForm({ texts, busy }: DockState, draft: string, on: DockViewHandlers): VNode {
  return h(
    'form',
    {
      class: 'pling-form',
      onSubmit: (event: Event) => {
        event.preventDefault();
        on.submit();
      },
    },
    [
      h('textarea', {
        'data-pling': 'input',
        rows: 2,
        placeholder: texts.placeholder,
        'aria-label': texts.placeholder,
        value: draft,
        onInput: (event: Event) => on.input((event.target as HTMLTextAreaElement).value),
        onKeydown: (event: KeyboardEvent) => {
          // Enter sends, Shift+Enter is a new line; Enter that confirms an IME composition is neither.
          if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
          event.preventDefault();
          on.submit();
        },
      }),
      h('div', { class: 'pling-actions' }, [
        busy ? h('button', { type: 'button', 'data-pling': 'stop', onClick: on.cancel }, texts.stop) : null,
        h('button', { type: 'submit', 'data-pling': 'send', disabled: draft.trim() === '' }, texts.send),
      ]),
    ],
  );
}
