// <AgentDock>: the chat panel of the provider's Pling. One DockModel per mounted dock, created in a layout effect
// and disposed in its cleanup, so StrictMode's mount–unmount–mount leaves exactly one live model (a model made
// during render would subscribe to the session and leak when React discards that render).
import type { AgentConfig, RuntimeEvent } from '@plingjs/agent';
import { DockModel, type DockPlacement } from '@plingjs/core';
import { type ReactNode, useEffect, useLayoutEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { DockView } from './dock-view.js';
import { ModelSettingsPanel } from './model-settings.js';
import { usePling } from './pling-provider.js';
import { useDockState } from './use-dock-state.js';
import { useLatest } from './use-latest.js';

export interface AgentDockProps {
  /** Header text and the dock's accessible name; default the locale's 「助手」 / "Assistant". */
  title?: string;
  /**
   * Merged into the runtime's configuration when the runtime is created (field by field, limits and retry item by
   * item, over createPling's config). A runtime resolves its configuration once: a dock mounted after the runtime
   * exists with a different `config` throws INVALID_CONFIG.
   */
  config?: AgentConfig;
  /** The session the dock shows; default 'default'. */
  sessionId?: string;
  /** Every runtime event of this dock's session: session events and streamed text deltas. */
  onSessionEvent?(event: RuntimeEvent): void;
  /** Added to the root element's class list. */
  className?: string;
  /** Renders the dock into this element through a portal (instead of where `<AgentDock>` stands). */
  container?: Element | null;
  /**
   * 'fixed': a panel at the bottom right of the viewport; 'inline': fills the element the dock is rendered into.
   * Default 'inline' with a `container`, else 'fixed'.
   */
  placement?: DockPlacement;
  /** The dock's model settings, shown in the panel under the header. */
  settings?: ReactNode;
  /** Show the model settings panel (in `settings`, unless given); default: when createPling was given `modelSettings`. */
  modelSettings?: boolean;
  /** A fixed dock's first state on a page where the person has not opened or closed it yet; default true. */
  defaultOpen?: boolean;
}

export function AgentDock({
  title,
  config,
  sessionId,
  onSessionEvent,
  className,
  container,
  placement = container ? 'inline' : 'fixed',
  settings,
  modelSettings,
  defaultOpen,
}: AgentDockProps) {
  const pling = usePling();
  const [model, setModel] = useState<DockModel | null>(null);
  // `config={{ … }}` is a new object every render; only a different configuration makes a new model.
  const configKey = config === undefined ? '' : JSON.stringify(config);
  const latestConfig = useLatest(config);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the config is followed by its content (configKey).
  useLayoutEffect(() => {
    // No title: it is only shown, so MountedDock applies it and a new title needs no new model.
    const created = new DockModel({ core: pling, sessionId, config: latestConfig.current, modelSettings, defaultOpen });
    setModel(created);
    return () => {
      created.dispose();
      setModel((current) => (current === created ? null : current));
    };
  }, [pling, sessionId, configKey, modelSettings, defaultOpen]);

  const listener = useLatest(onSessionEvent);
  useEffect(() => {
    if (!model) return;
    const id = model.session.id;
    return pling.onSessionEvent((event) => {
      if (event.sessionId === id) listener.current?.(event);
    });
  }, [pling, model, listener]);

  if (!model) return null;
  const dock = (
    <MountedDock
      model={model}
      title={title}
      className={className}
      placement={placement}
      settings={settings ?? (model.modelSettings && <ModelSettingsPanel settings={model.modelSettings} />)}
    />
  );
  return container ? createPortal(dock, container) : dock;
}

interface MountedDockProps {
  model: DockModel;
  title: string | undefined;
  className: string | undefined;
  placement: DockPlacement;
  settings: ReactNode;
}

function MountedDock({ model, title, className, placement, settings }: MountedDockProps) {
  const state = useDockState(model);
  const shown = title === undefined ? state : { ...state, title };
  return (
    <DockView
      state={shown}
      actions={model}
      placement={placement}
      settings={settings}
      {...(className !== undefined && { className })}
    />
  );
}
