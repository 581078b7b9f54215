// AgentDock's markup as a pure function of the dock state and the draft being typed, following the DOM contract
// every Pling dock shares (data-pling="…" hooks, texts from dockTexts only). Vue's keyed diff keeps the tree in
// place, so a streamed delta only changes the streaming message's text.
import type { TraceEntry } from '@plingjs/agent';
import type { ConfirmationRequest, DockPlacement, DockState, DockTexts, HandoffRequest } from '@plingjs/core';
import { h, type Ref, type VNode } from 'vue';
import { renderOperations } from './operations-view.js';

export interface DockViewHandlers {
  input(text: string): void;
  submit(): void;
  clear(): void;
  cancel(): void;
  approve(id: string): void;
  reject(id: string): void;
  resolveHandoff(id: string): void;
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
}

export function renderDock({ state, draft, placement, traceNumber, on, messagesRef }: DockViewInput): VNode {
  const { texts } = state;
  return h(
    'div',
    {
      'data-pling': 'dock',
      'data-placement': placement,
      role: 'complementary',
      'aria-label': state.title,
      'aria-busy': state.busy ? 'true' : 'false',
    },
    [
      h('header', { class: 'pling-header' }, [
        h('h2', { class: 'pling-title' }, state.title),
        h('button', { type: 'button', 'data-pling': 'clear', onClick: on.clear }, texts.clear),
      ]),
      state.notConfigured === undefined
        ? null
        : h('div', { 'data-pling': 'not-configured', role: 'alert' }, [
            h('strong', texts.notConfigured),
            h('p', state.notConfigured),
          ]),
      renderMessages(state, messagesRef),
      state.notice === undefined ? null : h('p', { 'data-pling': 'notice' }, state.notice),
      state.error === undefined
        ? null
        : h('p', { 'data-pling': 'error', role: 'alert' }, [
            h('code', { class: 'pling-error-code' }, state.error.code),
            ' ',
            state.error.message,
          ]),
      ...state.confirmations.map((request) => renderConfirmation(request, texts, on)),
      ...state.handoffs.map((request) => renderHandoff(request, texts, on)),
      renderOperations(state, traceNumber),
      renderForm(state, draft, on),
    ],
  );
}

function renderMessages({ messages, texts }: DockState, ref: Ref<HTMLElement | null> | undefined): VNode {
  return h(
    'div',
    { 'data-pling': 'messages', 'aria-live': 'polite', ref },
    messages.length === 0
      ? [h('p', { class: 'pling-muted' }, texts.empty)]
      : messages.map((message) =>
          h(
            'div',
            {
              key: message.key,
              'data-pling': 'message',
              'data-role': message.role,
              'data-streaming': message.streaming ? 'true' : undefined,
            },
            [
              h('span', { class: 'pling-speaker' }, message.role === 'user' ? texts.you : texts.assistant),
              h('div', message.text),
            ],
          ),
        ),
  );
}

function renderConfirmation(request: ConfirmationRequest, texts: DockTexts, on: DockViewHandlers): VNode {
  const attributes = { 'data-pling': 'confirmation', 'data-danger': String(request.danger), role: 'group' };
  return h('div', { key: request.id, ...attributes }, [
    h('p', [h('strong', texts.confirm(request.actionId)), request.danger ? texts.dangerMark : null]),
    h('p', { class: 'pling-muted' }, request.description),
    h('pre', { class: 'pling-arguments' }, JSON.stringify(request.arguments, null, 2)),
    h('div', { class: 'pling-actions' }, [
      h('button', { type: 'button', 'data-pling': 'approve', onClick: () => on.approve(request.id) }, texts.approve),
      h('button', { type: 'button', 'data-pling': 'reject', onClick: () => on.reject(request.id) }, texts.reject),
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
