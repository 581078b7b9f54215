// @aalis/api-gateway: the gateway contract: inbound phases (command → flow → trigger → dispatch) with arrival
// numbers, the outbound:dispatch chain, and the outbound:message / outbound:stream / outbound:failed events.
export { deliveryFailureNote, deliveryFailureReason } from './delivery-failure-note.js';
export { gatewayErrors } from './gateway-errors.js';
export {
  type DeliveryFailure,
  type GatewayService,
  gateway,
  INBOUND_PHASES,
  type InboundContext,
  type InboundOutcome,
  type InboundPhase,
  type InboundReport,
  type OutboundContext,
  type OutboundReport,
  type OutboundStreamFragment,
  type TriggerJudgement,
} from './gateway-service.js';
export { type Receipt, receiveStored, StoredReceipts, type StoredReceiptsOptions } from './stored-receipts.js';
