// The DOM behaviour every dock view shares, so the four adapters render the same way: a reply rendered as
// sanitised Markdown and morphed in place while it streams, the chat following new text only while the person is
// at its bottom, and a new confirmation focused (its safe button) when the person is not busy elsewhere on the page.
import { renderMarkdownInto } from '@aalis/render-markdown';
import type { DockMessage } from './dock-derive.js';

/** Distance from the bottom (px) within which the chat counts as "at the bottom" and follows new messages. */
export const FOLLOW_THRESHOLD = 32;

/**
 * Shows a message's text in `element`: an assistant's reply as sanitised Markdown (morphed, so a streamed delta
 * rewrites only what changed), the person's own words as plain text.
 */
export function renderDockMessageText(element: HTMLElement, message: Pick<DockMessage, 'role' | 'text'>): void {
  const mode = message.role === 'assistant' ? 'markdown' : 'text';
  if (element.dataset.format !== mode) {
    element.dataset.format = mode;
    element.textContent = '';
  }
  if (mode === 'markdown') renderMarkdownInto(element, message.text);
  else if (element.textContent !== message.text) element.textContent = message.text;
}

/**
 * A reply as escaped plain text, for HTML rendered where the Markdown cannot be (server-side rendering has no DOM
 * to sanitise with): the Vue and React docks start a reply's element from it, then renderDockMessageText takes over.
 */
export function replyPlaceholderHtml(text: string): string {
  return text.replace(/[&<>]/g, (character) => (character === '&' ? '&amp;' : character === '<' ? '&lt;' : '&gt;'));
}

/**
 * Keeps a scrolling chat at its bottom while the person is there: it stops following as soon as they scroll up
 * (to reread something) and follows again when they scroll back down or send a message.
 */
export class ChatFollower {
  private element: HTMLElement | null = null;
  private pinned = true;
  private readonly onScroll = () => {
    const element = this.element;
    if (element) this.pinned = element.scrollHeight - element.scrollTop - element.clientHeight <= FOLLOW_THRESHOLD;
  };

  /** Follows `element` (null: none); switching elements starts pinned to the bottom again. */
  attach(element: HTMLElement | null): void {
    // Only a real element scrolls (a renderer without a DOM hands over something else).
    if (element && typeof element.addEventListener !== 'function') element = null;
    if (element === this.element) return;
    this.element?.removeEventListener('scroll', this.onScroll);
    this.element = element;
    this.pinned = true;
    element?.addEventListener('scroll', this.onScroll, { passive: true });
  }

  /** Whether the chat follows new content now. */
  get following(): boolean {
    return this.pinned;
  }

  /** After the content changed: back to the bottom if the person was there. */
  update(): void {
    if (this.element && this.pinned) this.element.scrollTop = this.element.scrollHeight;
  }

  /** The person sent a message: show the bottom whatever they were reading. */
  pin(): void {
    this.pinned = true;
    this.update();
  }

  detach(): void {
    this.attach(null);
  }
}

/**
 * Moves focus to a confirmation card the first time it is shown — to its reject button, the safe one, so that an
 * Enter pressed by habit never runs a destructive action — when focus is nowhere in particular or in the dock, but
 * never away from a draft being typed (in the dock's input or anywhere else on the page).
 */
export class ConfirmationFocus {
  private readonly seen = new Set<string>();

  update(root: HTMLElement | null, ids: readonly string[]): void {
    const fresh = ids.filter((id) => !this.seen.has(id));
    for (const id of fresh) this.seen.add(id);
    const newest = fresh.at(-1);
    if (!root?.ownerDocument || newest === undefined) return;
    const active = root.ownerDocument.activeElement;
    if (active && active !== root.ownerDocument.body && !root.contains(active)) return;
    if (active instanceof HTMLTextAreaElement && active.value.trim() !== '') return;
    const card = [...root.querySelectorAll<HTMLElement>('[data-pling="confirmation"]')].find(
      (element) => element.dataset.id === newest,
    );
    card?.querySelector<HTMLElement>('[data-pling="reject"]')?.focus();
  }
}
