// The AgentDock's markup for one DockState, following the DOM contract all four Pling docks share (data-pling
// names, roles and states, the layout and stylesheet of @plingjs/core), so they look, behave and test the same.
// Stateless apart from the input's text: AgentDock gives it a DockModel's state and the model itself as the actions.
import {
  ChatFollower,
  ConfirmationFocus,
  type DockModel,
  type DockPlacement,
  type DockState,
  type DockTexts,
  ensureDockStyles,
} from '@plingjs/core';
import { type ReactNode, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { DockComposer } from './dock-composer.js';
import { DockRequests } from './dock-requests.js';
import { MessageText } from './message-text.js';

/** What the dock's buttons and input call: a DockModel is one. */
export type DockActions = Pick<
  DockModel,
  'send' | 'cancel' | 'clear' | 'approve' | 'reject' | 'resolveHandoff' | 'retry' | 'setOpen'
>;

export interface DockViewProps {
  state: DockState;
  actions: DockActions;
  /** Added to the root's class list. */
  className?: string;
  /** 'fixed': a panel at the bottom right of the viewport (default); 'inline': fills the element it is placed in. */
  placement?: DockPlacement;
  /** The dock's model settings, shown in the `settings` panel under the header. */
  settings?: ReactNode;
}

export function DockView({ state, actions, className, placement = 'fixed', settings }: DockViewProps) {
  const { texts } = state;
  const floating = placement === 'fixed';
  const open = !floating || state.open;
  const rootRef = useRef<HTMLElement>(null);
  const messagesRef = useRef<HTMLDivElement>(null);
  const [follower] = useState(() => new ChatFollower());
  const [confirmationFocus] = useState(() => new ConfirmationFocus());
  // The shared <style data-pling-style>, once per document (the one the dock is in, a portal's iframe included),
  // before the first paint. Every Pling adapter injects the same sheet, so docks of several adapters share it.
  useLayoutEffect(() => ensureDockStyles(rootRef.current?.ownerDocument), []);
  useEffect(() => () => follower.detach(), [follower]);
  // Keep the newest message (and the streamed reply as it grows) in view while the person is at the bottom of the
  // chat, not once they scrolled up to reread something.
  useLayoutEffect(() => {
    follower.attach(messagesRef.current);
    follower.update();
  });
  useLayoutEffect(() => {
    if (open)
      confirmationFocus.update(
        rootRef.current,
        state.confirmations.map((request) => request.id),
      );
  }, [open, state.confirmations, confirmationFocus]);
  const setOpen = (next: boolean) => {
    actions.setOpen(next);
    // Focus follows: into the opened panel's input, or back to the launcher.
    requestAnimationFrame(() =>
      rootRef.current?.querySelector<HTMLElement>(next ? '[data-pling="input"]' : '[data-pling="launcher"]')?.focus(),
    );
  };
  return (
    <section
      data-pling="dock"
      data-placement={placement}
      data-open={String(open)}
      aria-label={state.title}
      aria-busy={state.busy ? 'true' : 'false'}
      className={className}
      ref={rootRef}
      onKeyDown={(event) => {
        // Escape folds a floating dock, as it closes a popup (not while an input method is composing).
        if (event.key !== 'Escape' || event.nativeEvent.isComposing || !floating || !open) return;
        event.preventDefault();
        setOpen(false);
      }}
    >
      {floating && (
        <button type="button" data-pling="launcher" aria-expanded="false" onClick={() => setOpen(true)}>
          {texts.open}
        </button>
      )}
      <header className="pling-header">
        <h2 className="pling-title">{state.title}</h2>
        <div className="pling-header-actions">
          <button type="button" data-pling="clear" onClick={() => actions.clear()}>
            {texts.clear}
          </button>
          {floating && (
            <button
              type="button"
              data-pling="close"
              aria-expanded="true"
              aria-label={texts.closeLabel}
              onClick={() => setOpen(false)}
            >
              {texts.close}
            </button>
          )}
        </div>
      </header>
      <div data-pling="settings" className="pling-settings">
        {settings}
      </div>
      {state.notConfigured !== undefined && (
        <div data-pling="not-configured" role="status">
          <strong>{texts.notConfigured}</strong>
          <p>{texts.notConfiguredHint}</p>
          <ErrorDetails texts={texts}>
            <code data-pling="error-code" className="pling-error-code">
              NOT_CONFIGURED
            </code>{' '}
            {state.notConfigured}
          </ErrorDetails>
        </div>
      )}
      <div data-pling="messages" aria-live="polite" ref={messagesRef}>
        {state.messages.length === 0 && !state.thinking && (
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
            data-interrupted={message.interrupted ? 'true' : undefined}
          >
            <span data-pling="speaker" className="pling-speaker">
              {message.role === 'user' ? texts.you : texts.assistant}
            </span>
            <MessageText role={message.role} text={message.text} />
            {/* A reply cut off mid-stream keeps its text and says so. */}
            {message.interrupted && (
              <span data-pling="interrupted" className="pling-muted">
                {texts.interrupted}
              </span>
            )}
          </div>
        ))}
        {state.thinking && (
          <p data-pling="thinking" role="status">
            {texts.thinking}
          </p>
        )}
      </div>
      {state.notice !== undefined && (
        <p data-pling="notice" role="status">
          {state.notice}
        </p>
      )}
      {state.error !== undefined && (
        <div data-pling="error" role="alert">
          <p data-pling="error-summary">{state.error.summary}</p>
          <ErrorDetails texts={texts}>
            <code data-pling="error-code" className="pling-error-code">
              {state.error.code}
            </code>{' '}
            {state.error.message}
          </ErrorDetails>
          {state.canRetry && (
            <button
              type="button"
              data-pling="retry"
              onClick={() => {
                follower.pin();
                void actions.retry();
              }}
            >
              {texts.retryButton}
            </button>
          )}
        </div>
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
        onSend={(text) => {
          follower.pin();
          void actions.send(text);
        }}
        onStop={() => actions.cancel()}
      />
      <p data-pling="announcer" className="pling-visually-hidden" aria-live="assertive" aria-atomic="true">
        {state.announcement}
      </p>
    </section>
  );
}

/** The developer's part of an error: its code and technical message, behind a disclosure. */
function ErrorDetails({ texts, children }: { texts: DockTexts; children: ReactNode }) {
  return (
    <details data-pling="error-details">
      <summary>{texts.errorDetails}</summary>
      <p>{children}</p>
    </details>
  );
}
