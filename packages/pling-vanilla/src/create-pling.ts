// createPling for plain JavaScript pages: the shared Pling core (one page, one lazily created runtime) plus the
// page helpers, `onSessionEvent` for hosts that render their own UI, and `dock()`, the framework-free AgentDock.
import type { AgentConfig, AgentRuntime, AgentSession, Locale, RuntimeEvent } from '@plingjs/agent';
import {
  type ActionDefinition,
  createPlingCore,
  DockModel,
  type DockPlacement,
  type Page,
  type PlingOptions,
  type StateGetter,
} from '@plingjs/core';
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
}

export interface DockHandle {
  /** The dock's root element (`data-pling="dock"`). */
  readonly element: HTMLElement;
  /** The dock's state and actions (send, cancel, clear, approve …), e.g. for a host's own buttons. */
  readonly model: DockModel;
  /** Removes the dock and stops listening; calling it again does nothing. */
  unmount(): void;
}

export interface Pling {
  /** Actions, state, confirmation and handoff queues. */
  readonly page: Page;
  /** The configuration locale, shared by the page, the runtime and the dock's texts. */
  readonly locale: Locale;
  /**
   * The runtime, created on first use (by this call, `session()` or the first `dock()`), with `overrides` merged
   * into createPling's config; throws INVALID_CONFIG when later overrides differ from the resolved configuration.
   */
  runtime(overrides?: AgentConfig): AgentRuntime;
  /** The session with this id (default 'default'). */
  session(id?: string): AgentSession;
  /** Declares a page action (a definition or a `defineAction` result); returns its remover. */
  register<Args extends Record<string, unknown> = Record<string, unknown>>(action: ActionDefinition<Args>): () => void;
  unregister(id: string): boolean;
  /** Names a piece of state the model sees every turn; returns its remover. */
  state(name: string, getter: StateGetter): () => void;
  /** Every runtime event (session events and text deltas of every session): the host's own rendering hook. */
  onSessionEvent(listener: (event: RuntimeEvent) => void): () => void;
  /** Mounts the AgentDock. */
  dock(options?: DockOptions): DockHandle;
  /** What the dock's clear button does: session reset, confirmation and handoff queues cleared, telemetry reset. */
  clear(sessionId?: string): void;
  /** Unmounts every dock, cancels every run and clears the queues. */
  dispose(): void;
}

export function createPling(options: PlingOptions = {}): Pling {
  const core = createPlingCore(options);
  const docks = new Set<DockHandle>();
  return {
    page: core.page,
    locale: core.locale,
    runtime: (overrides) => core.runtime(overrides),
    session: (id) => core.session(id),
    register: (action) => core.page.register(action),
    unregister: (id) => core.page.unregister(id),
    state: (name, getter) => core.page.state(name, getter),
    onSessionEvent(listener) {
      const remove = core.onEvent(listener);
      return () => void remove();
    },
    dock({ title, target, placement, sessionId, config } = {}) {
      const model = new DockModel({ core, title, sessionId, config });
      let mounted: ReturnType<typeof mountDock>;
      try {
        mounted = mountDock({ controller: model, target, placement });
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
    clear: (sessionId) => core.clear(sessionId),
    dispose() {
      for (const dock of [...docks]) dock.unmount();
      core.dispose();
    },
  };
}
