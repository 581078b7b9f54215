// The framework-free AgentDock: builds the dock's elements once and `render(state)` brings them up to date in
// place — lists keyed by their items' key/id, optional parts attached and detached without moving their
// neighbours, so the textarea keeps its value and focus and a streamed delta morphs only the reply's changed text.
import { ChatFollower, ConfirmationFocus, type DockPlacement, type DockState, type DockTexts } from '@plingjs/core';
import { createElement, setAttribute, setText } from './create-element.js';
import type { DockController } from './dock-controller.js';
import { confirmationItems, handoffItems, messageItems, operationItems } from './dock-items.js';
import { KeyedNodes } from './keyed-nodes.js';
import { syncChildren } from './sync-children.js';

export interface DockView {
  /** The dock's root element (`data-pling="dock"`), not yet attached anywhere. */
  readonly root: HTMLElement;
  /**
   * The panel under the header for the dock's model settings (`data-pling="settings"`, hidden while empty):
   * append a settings component here.
   */
  readonly settings: HTMLElement;
  render(state: DockState): void;
}

export function createDockView(
  document: Document,
  controller: DockController,
  placement: DockPlacement = 'fixed',
): DockView {
  let texts: DockTexts = controller.getSnapshot().texts;
  const currentTexts = () => texts;
  const text = (value = '') => document.createTextNode(value);
  const button = (attributes: Record<string, string>, label: Text) =>
    createElement(document, 'button', { type: 'button', ...attributes }, [label]);
  const floating = placement === 'fixed';

  const launcherLabel = text();
  const launcher = button({ 'data-pling': 'launcher', 'aria-expanded': 'false' }, launcherLabel);
  const titleText = text();
  const clearLabel = text();
  const clearButton = button({ 'data-pling': 'clear' }, clearLabel);
  const closeLabel = text();
  const closeButton = button({ 'data-pling': 'close', 'aria-expanded': 'true' }, closeLabel);
  const header = createElement(document, 'header', { class: 'pling-header' }, [
    createElement(document, 'h2', { class: 'pling-title' }, [titleText]),
    createElement(
      document,
      'div',
      { class: 'pling-header-actions' },
      floating ? [clearButton, closeButton] : [clearButton],
    ),
  ]);
  const settings = createElement(document, 'div', { 'data-pling': 'settings', class: 'pling-settings' });

  const notConfiguredTitle = text();
  const notConfiguredHint = text();
  const notConfiguredDetailsLabel = text();
  const notConfiguredDetail = text();
  const notConfigured = createElement(document, 'div', { 'data-pling': 'not-configured', role: 'status' }, [
    createElement(document, 'strong', {}, [notConfiguredTitle]),
    createElement(document, 'p', {}, [notConfiguredHint]),
    createElement(document, 'details', { 'data-pling': 'error-details' }, [
      createElement(document, 'summary', {}, [notConfiguredDetailsLabel]),
      createElement(document, 'p', {}, [
        createElement(document, 'code', { 'data-pling': 'error-code', class: 'pling-error-code' }, ['NOT_CONFIGURED']),
        createElement(document, 'span', {}, [notConfiguredDetail]),
      ]),
    ]),
  ]);

  const emptyText = text();
  const empty = createElement(document, 'p', { class: 'pling-muted' }, [emptyText]);
  const thinkingText = text();
  const thinking = createElement(document, 'p', { 'data-pling': 'thinking', role: 'status' }, [thinkingText]);
  const messages = createElement(document, 'div', { 'data-pling': 'messages', 'aria-live': 'polite' });
  const messageNodes = new KeyedNodes(messageItems(document, currentTexts));
  const follower = new ChatFollower();
  follower.attach(messages);

  const noticeText = text();
  const notice = createElement(document, 'p', { 'data-pling': 'notice', role: 'status' }, [noticeText]);
  const errorSummary = text();
  const errorDetailsLabel = text();
  const errorCode = text();
  const errorMessage = text();
  const retryLabel = text();
  const retryButton = button({ 'data-pling': 'retry' }, retryLabel);
  const errorDetails = createElement(document, 'details', { 'data-pling': 'error-details' }, [
    createElement(document, 'summary', {}, [errorDetailsLabel]),
    createElement(document, 'p', {}, [
      createElement(document, 'code', { 'data-pling': 'error-code', class: 'pling-error-code' }, [errorCode]),
      createElement(document, 'span', {}, [errorMessage]),
    ]),
  ]);
  const errorSummaryElement = createElement(document, 'p', { 'data-pling': 'error-summary' }, [errorSummary]);
  const error = createElement(document, 'div', { 'data-pling': 'error', role: 'alert' });

  const confirmationNodes = new KeyedNodes(confirmationItems(document, currentTexts, controller));
  const confirmationFocus = new ConfirmationFocus();
  const handoffNodes = new KeyedNodes(handoffItems(document, currentTexts, controller));

  const operationsTitle = text();
  const noOperationsText = text();
  const noOperations = createElement(document, 'li', { class: 'pling-muted' }, [noOperationsText]);
  const operationList = createElement(document, 'ul', { class: 'pling-list' });
  const operations = createElement(document, 'section', { 'data-pling': 'operations' }, [
    createElement(document, 'h3', { class: 'pling-subheading' }, [operationsTitle]),
    operationList,
  ]);
  const operationNodes = new KeyedNodes(operationItems(document));

  const input = createElement(document, 'textarea', { 'data-pling': 'input', rows: '2' });
  const sendLabel = text();
  const sendButton = createElement(document, 'button', { type: 'submit', 'data-pling': 'send' }, [sendLabel]);
  const stopLabel = text();
  const stopButton = button({ 'data-pling': 'stop' }, stopLabel);
  const formActions = createElement(document, 'div', { class: 'pling-actions' });
  const form = createElement(document, 'form', { class: 'pling-form' }, [input, formActions]);
  const announcerText = text();
  const announcer = createElement(
    document,
    'p',
    { 'data-pling': 'announcer', class: 'pling-visually-hidden', 'aria-live': 'assertive', 'aria-atomic': 'true' },
    [announcerText],
  );

  const root = createElement(document, 'section', { 'data-pling': 'dock', 'data-placement': placement });

  const updateSendButton = () => {
    const blank = input.value.trim() === '';
    if (sendButton.disabled !== blank) sendButton.disabled = blank; // writing the same value still mutates the DOM
  };
  const submit = () => {
    const message = input.value;
    if (message.trim() === '') return;
    input.value = '';
    updateSendButton();
    follower.pin();
    controller.send(message).catch((reason: unknown) => console.error(reason));
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submit();
  });
  input.addEventListener('input', updateSendButton);
  input.addEventListener('keydown', (event) => {
    // Enter sends; Shift+Enter is a new line; Enter that confirms an IME composition (Chinese input) is neither.
    if (event.key !== 'Enter' || event.shiftKey || event.isComposing || event.keyCode === 229) return;
    event.preventDefault();
    submit();
  });
  clearButton.addEventListener('click', () => controller.clear());
  stopButton.addEventListener('click', () => controller.cancel());
  retryButton.addEventListener('click', () => {
    follower.pin();
    controller.retry().catch((reason: unknown) => console.error(reason));
  });
  launcher.addEventListener('click', () => {
    controller.setOpen(true);
    input.focus();
  });
  const fold = () => {
    controller.setOpen(false);
    launcher.focus();
  };
  closeButton.addEventListener('click', fold);
  // Escape folds a floating dock, as it closes a popup (not while an input method is composing).
  root.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || event.isComposing || !floating || root.dataset.open !== 'true') return;
    event.preventDefault();
    fold();
  });

  const render = (state: DockState) => {
    texts = state.texts;
    const open = !floating || state.open;
    setAttribute(root, 'aria-label', state.title);
    setAttribute(root, 'aria-busy', String(state.busy));
    setAttribute(root, 'data-open', String(open));
    setText(launcherLabel, texts.open);
    setText(titleText, state.title);
    setText(clearLabel, texts.clear);
    setText(closeLabel, texts.close);
    setAttribute(closeButton, 'aria-label', texts.closeLabel);

    setText(notConfiguredTitle, texts.notConfigured);
    setText(notConfiguredHint, texts.notConfiguredHint);
    setText(notConfiguredDetailsLabel, texts.errorDetails);
    setText(notConfiguredDetail, state.notConfigured ?? '');

    setText(emptyText, texts.empty);
    setText(thinkingText, texts.thinking);
    const chat: Node[] = state.messages.length === 0 && !state.thinking ? [empty] : messageNodes.sync(state.messages);
    if (state.thinking) chat.push(thinking);
    syncChildren(messages, chat);

    setText(noticeText, state.notice ?? '');
    setText(errorSummary, state.error?.summary ?? '');
    setText(errorDetailsLabel, texts.errorDetails);
    setText(errorCode, state.error?.code ?? '');
    setText(errorMessage, state.error?.message ?? '');
    setText(retryLabel, texts.retryButton);
    syncChildren(
      error,
      state.canRetry ? [errorSummaryElement, errorDetails, retryButton] : [errorSummaryElement, errorDetails],
    );

    setText(operationsTitle, texts.recentOperations);
    setText(noOperationsText, texts.noOperations);
    syncChildren(operationList, state.operations.length === 0 ? [noOperations] : operationNodes.sync(state.operations));

    setAttribute(input, 'placeholder', texts.placeholder);
    setAttribute(input, 'aria-label', texts.placeholder);
    setText(sendLabel, texts.send);
    setText(stopLabel, texts.stop);
    updateSendButton();
    syncChildren(formActions, state.busy ? [stopButton, sendButton] : [sendButton]);
    setText(announcerText, state.announcement);

    const parts: Node[] = floating ? [launcher, header, settings] : [header, settings];
    if (state.notConfigured !== undefined) parts.push(notConfigured);
    parts.push(messages);
    if (state.notice !== undefined) parts.push(notice);
    if (state.error !== undefined) parts.push(error);
    parts.push(
      ...confirmationNodes.sync(state.confirmations),
      ...handoffNodes.sync(state.handoffs),
      operations,
      form,
      announcer,
    );
    syncChildren(root, parts);
    // After the other parts are in: they decide how tall the chat is.
    follower.update();
    if (open) {
      confirmationFocus.update(
        root,
        state.confirmations.map((request) => request.id),
      );
    }
  };

  render(controller.getSnapshot());
  return { root, settings, render };
}
