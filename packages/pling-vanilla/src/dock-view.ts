// The framework-free AgentDock: builds the dock's elements once and `render(state)` brings them up to date in
// place — lists keyed by their items' key/id, optional parts attached and detached without moving their
// neighbours, so the textarea keeps its value and focus and a streamed delta rewrites a single text node.
import type { DockPlacement, DockState, DockTexts } from '@plingjs/core';
import { createElement, setAttribute, setText } from './create-element.js';
import type { DockController } from './dock-controller.js';
import { confirmationItems, handoffItems, messageItems, operationItems } from './dock-items.js';
import { KeyedNodes } from './keyed-nodes.js';
import { syncChildren } from './sync-children.js';

export interface DockView {
  /** The dock's root element (`data-pling="dock"`), not yet attached anywhere. */
  readonly root: HTMLElement;
  render(state: DockState): void;
}

/** Distance from the bottom (px) within which the chat follows new messages. */
const FOLLOW_THRESHOLD = 32;

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

  const titleText = text();
  const clearLabel = text();
  const clearButton = button({ 'data-pling': 'clear' }, clearLabel);
  const header = createElement(document, 'header', { class: 'pling-header' }, [
    createElement(document, 'h2', { class: 'pling-title' }, [titleText]),
    clearButton,
  ]);

  const notConfiguredTitle = text();
  const notConfiguredDetail = text();
  const notConfigured = createElement(document, 'div', { 'data-pling': 'not-configured', role: 'status' }, [
    createElement(document, 'strong', {}, [notConfiguredTitle]),
    createElement(document, 'p', {}, [notConfiguredDetail]),
  ]);

  const emptyText = text();
  const empty = createElement(document, 'p', { class: 'pling-muted' }, [emptyText]);
  const messages = createElement(document, 'div', { 'data-pling': 'messages', 'aria-live': 'polite' });
  const messageNodes = new KeyedNodes(messageItems(document, currentTexts));

  const noticeText = text();
  const notice = createElement(document, 'p', { 'data-pling': 'notice', role: 'status' }, [noticeText]);
  const errorCode = text();
  const errorMessage = text();
  const error = createElement(document, 'p', { 'data-pling': 'error', role: 'alert' }, [
    createElement(document, 'span', { class: 'pling-error-code' }, [errorCode]),
    createElement(document, 'span', {}, [errorMessage]),
  ]);

  const confirmationNodes = new KeyedNodes(confirmationItems(document, currentTexts, controller));
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
    messages.scrollTop = messages.scrollHeight;
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

  const render = (state: DockState) => {
    texts = state.texts;
    setAttribute(root, 'aria-label', state.title);
    setAttribute(root, 'aria-busy', String(state.busy));
    setText(titleText, state.title);
    setText(clearLabel, texts.clear);

    setText(notConfiguredTitle, texts.notConfigured);
    setText(notConfiguredDetail, state.notConfigured ?? '');

    const follow = messages.scrollHeight - messages.scrollTop - messages.clientHeight <= FOLLOW_THRESHOLD;
    setText(emptyText, texts.empty);
    syncChildren(messages, state.messages.length === 0 ? [empty] : messageNodes.sync(state.messages));

    setText(noticeText, state.notice ?? '');
    setText(errorCode, state.error?.code ?? '');
    setText(errorMessage, state.error?.message ?? '');

    setText(operationsTitle, texts.recentOperations);
    setText(noOperationsText, texts.noOperations);
    syncChildren(operationList, state.operations.length === 0 ? [noOperations] : operationNodes.sync(state.operations));

    setAttribute(input, 'placeholder', texts.placeholder);
    setAttribute(input, 'aria-label', texts.placeholder);
    setText(sendLabel, texts.send);
    setText(stopLabel, texts.stop);
    updateSendButton();
    syncChildren(formActions, state.busy ? [stopButton, sendButton] : [sendButton]);

    const parts: Node[] = [header];
    if (state.notConfigured !== undefined) parts.push(notConfigured);
    parts.push(messages);
    if (state.notice !== undefined) parts.push(notice);
    if (state.error !== undefined) parts.push(error);
    parts.push(...confirmationNodes.sync(state.confirmations), ...handoffNodes.sync(state.handoffs), operations, form);
    syncChildren(root, parts);
    // After the other parts are in: they decide how tall the chat is.
    if (follow) messages.scrollTop = messages.scrollHeight;
  };

  render(controller.getSnapshot());
  return { root, render };
}
