// The AgentDock's markup for one DockState, following the DOM contract all four Pling docks share (data-pling
// names, roles and states, and @plingjs/core's stylesheet), so they look, behave and test the same. Stateless apart
// from the input's text: AgentDock gives it a DockModel's state and the model itself as the actions.
import { type DockModel, type DockPlacement, type DockState, ensureDockStyles } from '@plingjs/core';
import { useLayoutEffect, useRef } from 'react';
import { DockComposer } from './dock-composer.js';
import { DockRequests } from './dock-requests.js';

/** What the dock's buttons and input call: a DockModel is one. */
export type DockActions = Pick<DockModel, 'send' | 'cancel' | 'clear' | 'approve' | 'reject' | 'resolveHandoff'>;

export interface DockViewProps {
  state: DockState;
  actions: DockActions;
  /** Added to the root's class list. */
  className?: string;
  /** 'fixed': a panel at the bottom right of the viewport (default); 'inline': fills the element it is placed in. */
  placement?: DockPlacement;
}

export function DockView({ state, actions, className, placement = 'fixed' }: DockViewProps) {
  const { texts } = state;
  const rootRef = useRef<HTMLElement>(null);
  const messagesRef = useRef<HTMLDivElement>(null);
  // The shared <style data-pling-style>, once per document (the one the dock is in, a portal's iframe included),
  // before the first paint. Every Pling adapter injects the same sheet, so docks of several adapters share it.
  useLayoutEffect(() => ensureDockStyles(rootRef.current?.ownerDocument), []);
  // Keep the newest message (and the streamed reply as it grows) in view.
  useLayoutEffect(() => {
    const list = messagesRef.current;
    if (list && state.messages.length > 0) list.scrollTop = list.scrollHeight;
  }, [state.messages]);
  return (
    <section data-pling="dock" data-placement={placement} aria-label={state.title} className={className} ref={rootRef}>
      <header className="pling-header">
        <h2 className="pling-title">{state.title}</h2>
        <button type="button" data-pling="clear" onClick={() => actions.clear()}>
          {texts.clear}
        </button>
      </header>
      {state.notConfigured !== undefined && (
        <div data-pling="not-configured" role="alert">
          <strong>{texts.notConfigured}</strong>
          <div>{state.notConfigured}</div>
        </div>
      )}
      <div data-pling="messages" aria-live="polite" ref={messagesRef}>
        {state.messages.length === 0 && (
          <p data-pling="empty" className="pling-muted">
            {texts.empty}
          </p>
        )}
        {state.messages.map((message) => (
          <div
            key={message.key}
            data-pling="message"
            data-role={message.role}
            data-streaming={message.streaming ? 'true' : undefined}
          >
            <span data-pling="speaker" className="pling-speaker">
              {message.role === 'user' ? texts.you : texts.assistant}
            </span>
            <span data-pling="text">{message.text}</span>
          </div>
        ))}
      </div>
      {state.notice !== undefined && (
        <p data-pling="notice" role="status">
          {state.notice}
        </p>
      )}
      {state.error !== undefined && (
        <p data-pling="error" role="alert">
          <code data-pling="error-code" className="pling-error-code">
            {state.error.code}
          </code>{' '}
          {state.error.message}
        </p>
      )}
      <DockRequests
        texts={texts}
        confirmations={state.confirmations}
        handoffs={state.handoffs}
        onApprove={(id) => actions.approve(id)}
        onReject={(id) => actions.reject(id)}
        onResolveHandoff={(id) => actions.resolveHandoff(id)}
      />
      <section data-pling="operations" aria-label={texts.recentOperations}>
        <h3 className="pling-subheading">{texts.recentOperations}</h3>
        {state.operations.length === 0 ? (
          <p data-pling="no-operations" className="pling-muted">
            {texts.noOperations}
          </p>
        ) : (
          <ol className="pling-list">
            {state.operations.map((operation) => (
              <li key={operation.key} data-pling="operation" data-status={operation.status}>
                {operation.text}
              </li>
            ))}
          </ol>
        )}
      </section>
      <DockComposer
        texts={texts}
        busy={state.busy}
        onSend={(text) => void actions.send(text)}
        onStop={() => actions.cancel()}
      />
    </section>
  );
}
