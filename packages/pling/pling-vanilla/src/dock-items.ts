// The DOM of one item of each dock list (message, confirmation, handoff, operation): `create` builds the shell
// once per key, `update` writes only what changed, so a streamed reply changes one text node per delta.
import {
  confirmationArgumentsText,
  type DockConfirmation,
  type DockMessage,
  type DockOperation,
  type DockTexts,
  type HandoffRequest,
  renderDockMessageText,
} from '@plingjs/core';
import { createElement, setAttribute, setText } from './create-element.js';
import type { DockController } from './dock-controller.js';
import type { KeyedNodesOptions } from './keyed-nodes.js';

type Texts = () => DockTexts;

export function messageItems(document: Document, texts: Texts): KeyedNodesOptions<DockMessage, HTMLElement> {
  const parts = new WeakMap<HTMLElement, { speaker: Text; text: HTMLElement; interrupted: HTMLElement }>();
  return {
    key: (message) => message.key,
    create(message) {
      const speaker = document.createTextNode('');
      const text = createElement(document, 'div', { class: 'pling-text', 'data-pling': 'text' });
      const interrupted = createElement(document, 'span', { class: 'pling-muted', 'data-pling': 'interrupted' });
      const element = createElement(document, 'div', { 'data-pling': 'message' }, [
        createElement(document, 'span', { class: 'pling-speaker' }, [speaker]),
        text,
      ]);
      parts.set(element, { speaker, text, interrupted });
      setAttribute(element, 'data-role', message.role);
      return element;
    },
    update(element, message) {
      const { speaker, text, interrupted } = parts.get(element)!;
      setAttribute(element, 'data-role', message.role);
      setAttribute(element, 'data-streaming', message.streaming ? 'true' : undefined);
      // A reply cut off mid-stream keeps its text and says so.
      setAttribute(element, 'data-interrupted', message.interrupted ? 'true' : undefined);
      if (message.interrupted) {
        if (interrupted.textContent !== texts().interrupted) interrupted.textContent = texts().interrupted;
        if (!interrupted.isConnected) element.append(interrupted);
      } else {
        interrupted.remove();
      }
      setText(speaker, message.role === 'user' ? texts().you : texts().assistant);
      renderDockMessageText(text, message);
    },
  };
}

export function confirmationItems(
  document: Document,
  texts: Texts,
  controller: DockController,
): KeyedNodesOptions<DockConfirmation, HTMLElement> {
  // A request never changes while pending (its id names it), so everything is written once. The buttons are in the
  // same order in every dock: reject, then approve (the primary action last).
  return {
    key: (request) => request.id,
    create(request) {
      const { confirm, dangerMark, approve, reject } = texts();
      const title = confirm(request.actionId) + (request.danger ? dangerMark : '');
      const approveButton = createElement(document, 'button', { type: 'button', 'data-pling': 'approve' }, [approve]);
      const rejectButton = createElement(document, 'button', { type: 'button', 'data-pling': 'reject' }, [reject]);
      const settle = (decide: () => boolean) => {
        approveButton.disabled = true;
        rejectButton.disabled = true;
        decide();
      };
      approveButton.addEventListener('click', () => settle(() => controller.approve(request.id)));
      rejectButton.addEventListener('click', () => settle(() => controller.reject(request.id)));
      return createElement(
        document,
        'div',
        {
          'data-pling': 'confirmation',
          'data-danger': String(request.danger),
          'data-id': request.id,
          role: 'group',
          'aria-label': title,
        },
        [
          createElement(document, 'p', { class: 'pling-confirmation-title' }, [title]),
          createElement(document, 'p', { class: 'pling-muted' }, [request.description]),
          createElement(document, 'pre', { class: 'pling-arguments' }, [
            confirmationArgumentsText(request.shownArguments),
          ]),
          createElement(document, 'div', { class: 'pling-actions' }, [rejectButton, approveButton]),
        ],
      );
    },
    update() {},
  };
}

export function handoffItems(
  document: Document,
  texts: Texts,
  controller: DockController,
): KeyedNodesOptions<HandoffRequest, HTMLElement> {
  return {
    key: (request) => request.id,
    create(request) {
      const resolve = createElement(document, 'button', { type: 'button', 'data-pling': 'resolve-handoff' }, [
        texts().resolveHandoff,
      ]);
      resolve.addEventListener('click', () => {
        resolve.disabled = true;
        controller.resolveHandoff(request.id);
      });
      return createElement(document, 'div', { 'data-pling': 'handoff' }, [
        createElement(document, 'p', {}, [texts().handoff(request.reason)]),
        createElement(document, 'div', { class: 'pling-actions' }, [resolve]),
      ]);
    },
    update() {},
  };
}

export function operationItems(document: Document): KeyedNodesOptions<DockOperation, HTMLElement> {
  return {
    key: (operation) => operation.key,
    create: () => createElement(document, 'li', { 'data-pling': 'operation' }, [document.createTextNode('')]),
    update(element, operation) {
      setAttribute(element, 'data-status', operation.status);
      setText(element.firstChild as Text, operation.text);
    },
  };
}
