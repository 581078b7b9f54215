// createPling for plain JavaScript pages: the shared Pling core (one page, one lazily created runtime) plus the
// page helpers, `onSessionEvent` for hosts that render their own UI, and `dock()`, the framework-free AgentDock.
import type { AgentConfig } from '@plingjs/agent';
import { createPlingCore, DockModel, type DockPlacement, type PlingCore, type PlingOptions } from '@plingjs/core';
import { mountModelSettings } from './model-settings-view.js';
import { mountDock } from './mount-dock.js';

export interface DockOptions {
  /** Header text and the dock's aria-label; default the locale's 「助手」 / "Assistant". */
  title?: string;
  /** The element to mount the dock in; default `document.body`. */
  target?: HTMLElement;
  /**
   * 'fixed': a panel at the bottom right of the viewport; 'inline': fills `target`. Default 'inline' when a
   * `target` is given, else 'fixed'.
   */
  placement?: DockPlacement;
  /** The session the dock talks to (default 'default'). */
  sessionId?: string;
  /** Merged into createPling's config when the runtime is created (the first dock or runtime() call does it). */
  config?: AgentConfig;
  /** Show the model settings panel; default: when createPling was given `modelSettings`. */
  modelSettings?: boolean;
  /** A fixed dock's first state on a page where the person has not opened or closed it yet; default true. */
  defaultOpen?: boolean;
}

export interface DockHandle {
  /** The dock's root element (`data-pling="dock"`). */
  readonly element: HTMLElement;
  /** The dock's state and actions (send, cancel, clear, approve …), e.g. for a host's own buttons. */
  readonly model: DockModel;
  /** Removes the dock and stops listening; calling it again does nothing. */
  unmount(): void;
}

/** The shared Pling core (page, runtime, session, register/state, onSessionEvent, clear) plus the native dock. */
export interface Pling extends PlingCore {
  /** Mounts the AgentDock. */
  dock(options?: DockOptions): DockHandle;
  /** Unmounts every dock, cancels every run and clears the queues. */
  dispose(): void;
}

export function createPling(options: PlingOptions = {}): Pling {
  const core = createPlingCore(options);
  const disposeCore = core.dispose;
  const docks = new Set<DockHandle>();
  // Object.assign keeps the core's own properties (the `started` getter among them) on the same object.
  return Object.assign(core, {
    dock({ title, target, placement, sessionId, config, modelSettings, defaultOpen }: DockOptions = {}): DockHandle {
      const model = new DockModel({ core, title, sessionId, config, modelSettings, defaultOpen });
      let mounted: ReturnType<typeof mountDock>;
      try {
        mounted = mountDock({ controller: model, target, placement });
        const settings = model.modelSettings;
        if (settings) {
          const unmountSettings = mountModelSettings(mounted.settings, settings);
          const unmountDock = mounted.unmount;
          mounted = {
            ...mounted,
            unmount() {
              unmountSettings();
              unmountDock();
            },
          };
        }
      } catch (error) {
        model.dispose();
        throw error;
      }
      const handle: DockHandle = {
        element: mounted.element,
        model,
        unmount() {
          if (!docks.delete(handle)) return;
          mounted.unmount();
          model.dispose();
        },
      };
      docks.add(handle);
      return handle;
    },
    dispose() {
      for (const dock of [...docks]) dock.unmount();
      disposeCore();
    },
  });
}
