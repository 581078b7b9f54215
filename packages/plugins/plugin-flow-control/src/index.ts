// @aalis/plugin-flow-control: 冷却与限速 — cooldowns per room and person, token-bucket rate limits per person, room
// and platform, quiet hours, and a global cap on concurrent model calls with a fair queue across rooms.
export { CallGate } from './call-gate.js';
export { FlowControl, type FlowInput, type FlowRules, type FlowVerdict, type HoldRule } from './flow-control.js';
export {
  createFlowControlPlugin,
  default,
  FLOW_CONTROL_PLUGIN,
  type FlowControlConfig,
  flowControlConfigSchema,
} from './flow-plugin.js';
export { flowErrors, flowTexts } from './flow-texts.js';
export { inQuietHours, type QuietHours } from './quiet-hours.js';
export { type BucketRule, TokenBuckets } from './token-buckets.js';
