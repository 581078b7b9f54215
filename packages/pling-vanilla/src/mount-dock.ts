// Puts a dock view on the page and keeps it in step with its model: the stylesheet injected once per document,
// the root appended to `target` (or to <body> as a fixed panel at the bottom right), re-rendered on every model
// change, and on unmount unsubscribed and removed.
import type { DockController } from './dock-controller.js';
import { injectDockStyles } from './dock-styles.js';
import { createDockView } from './dock-view.js';

export interface MountDockOptions {
  controller: DockController;
  /** Where the dock goes; default a fixed panel appended to `document.body`. */
  target?: HTMLElement;
  /** Default `target`'s document, else the global `document`. */
  document?: Document;
}

export interface MountedDock {
  /** The dock's root element (`data-pling="dock"`). */
  readonly element: HTMLElement;
  /** Stops rendering and removes the element; calling it again does nothing. */
  unmount(): void;
}

export function mountDock({
  controller,
  target,
  document = target?.ownerDocument ?? globalThis.document,
}: MountDockOptions): MountedDock {
  injectDockStyles(document);
  const view = createDockView(document, controller);
  if (!target) view.root.classList.add('pling-floating');
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
    unmount() {
      if (!mounted) return;
      mounted = false;
      unsubscribe();
      view.root.remove();
    },
  };
}
