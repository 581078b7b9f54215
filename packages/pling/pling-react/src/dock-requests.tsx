// What waits for the person at the dock: actions to approve or reject (with the arguments as the person knows
// them) and requests to take over by hand. The same card in every dock: title, description, arguments, then the
// reject and approve buttons in that order.
import { confirmationArgumentsText, type DockConfirmation, type DockTexts, type HandoffRequest } from '@plingjs/core';

export interface DockRequestsProps {
  texts: DockTexts;
  confirmations: readonly DockConfirmation[];
  handoffs: readonly HandoffRequest[];
  onApprove(id: string): void;
  onReject(id: string): void;
  onResolveHandoff(id: string): void;
}

export function DockRequests({
  texts,
  confirmations,
  handoffs,
  onApprove,
  onReject,
  onResolveHandoff,
}: DockRequestsProps) {
  return (
    <>
      {confirmations.map((request) => {
        const title = texts.confirm(request.actionId) + (request.danger ? texts.dangerMark : '');
        return (
          // biome-ignore lint/a11y/useSemanticElements: one DOM contract for the four docks (a div group, no fieldset styling).
          <div
            key={request.id}
            data-pling="confirmation"
            data-danger={String(request.danger)}
            data-id={request.id}
            role="group"
            aria-label={title}
          >
            <p className="pling-confirmation-title">{title}</p>
            <p data-pling="description" className="pling-muted">
              {request.description}
            </p>
            <pre data-pling="arguments" className="pling-arguments">
              {confirmationArgumentsText(request.shownArguments)}
            </pre>
            <div data-pling="actions" className="pling-actions">
              <button type="button" data-pling="reject" onClick={() => onReject(request.id)}>
                {texts.reject}
              </button>
              <button type="button" data-pling="approve" onClick={() => onApprove(request.id)}>
                {texts.approve}
              </button>
            </div>
          </div>
        );
      })}
      {handoffs.map((request) => (
        <div key={request.id} data-pling="handoff">
          <p>{texts.handoff(request.reason)}</p>
          <div data-pling="actions" className="pling-actions">
            <button type="button" data-pling="resolve-handoff" onClick={() => onResolveHandoff(request.id)}>
              {texts.resolveHandoff}
            </button>
          </div>
        </div>
      ))}
    </>
  );
}
