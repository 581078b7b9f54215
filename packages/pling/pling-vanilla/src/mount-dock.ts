// Puts a dock view on the page and keeps it in step with its model: the shared stylesheet injected once per
// document, the root appended to `target` (or to <body>) with its placement, re-rendered on every model change, and
// on unmount unsubscribed and removed.
import { type DockPlacement, ensureDockStyles } from '@plingjs/core';
import type { DockController } from './dock-controller.js';
import { createDockView } from './dock-view.js';

export interface MountDockOptions {
  controller: DockController;
  /** The element the dock is appended to; default `document.body`. */
  target?: HTMLElement;
  /**
   * 'fixed': a panel at the bottom right of the viewport; 'inline': fills `target`. Default 'inline' when a
   * `target` is given, else 'fixed'.
   */
  placement?: DockPlacement;
  /** Default `target`'s document, else the global `document`. */
  document?: Document;
}

export interface MountedDock {
  /** The dock's root element (`data-pling="dock"`). */
  readonly element: HTMLElement;
  /** The panel under the header for model settings (`data-pling="settings"`, hidden while empty). */
  readonly settings: HTMLElement;
  /** Stops rendering and removes the element; calling it again does nothing. */
  unmount(): void;
}

export function mountDock({
  controller,
  target,
  placement = target ? 'inline' : 'fixed',
  document = target?.ownerDocument ?? globalThis.document,
}: MountDockOptions): MountedDock {
  ensureDockStyles(document);
  const view = createDockView(document, controller, placement);
  (target ?? document.body).append(view.root);
  let rendered = controller.getSnapshot();
  const unsubscribe = controller.subscribe(() => {
    const state = controller.getSnapshot();
    if (state === rendered) return;
    rendered = state;
    view.render(state);
  });
  let mounted = true;
  return {
    element: view.root,
    settings: view.settings,
    unmount() {
      if (!mounted) return;
      mounted = false;
      unsubscribe();
      view.root.remove();
    },
  };
}
