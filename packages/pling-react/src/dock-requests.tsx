// What waits for the person at the dock: actions to approve or reject (with their redacted arguments) and
// requests to take over by hand.
import type { ConfirmationRequest, DockTexts, HandoffRequest } from '@plingjs/core';

export interface DockRequestsProps {
  texts: DockTexts;
  confirmations: readonly ConfirmationRequest[];
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
      {confirmations.map((request) => (
        <div key={request.id} data-pling="confirmation" data-danger={request.danger}>
          <strong>
            {texts.confirm(request.actionId)}
            {request.danger && <span data-pling="danger">{texts.dangerMark}</span>}
          </strong>
          <span data-pling="description" className="pling-muted">
            {request.description}
          </span>
          <pre data-pling="arguments" className="pling-arguments">
            {JSON.stringify(request.arguments, null, 2)}
          </pre>
          <div data-pling="actions" className="pling-actions">
            <button type="button" data-pling="approve" onClick={() => onApprove(request.id)}>
              {texts.approve}
            </button>
            <button type="button" data-pling="reject" onClick={() => onReject(request.id)}>
              {texts.reject}
            </button>
          </div>
        </div>
      ))}
      {handoffs.map((request) => (
        <div key={request.id} data-pling="handoff">
          <strong>{texts.handoff(request.reason)}</strong>
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
