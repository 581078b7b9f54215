// @aalis/plugin-cli: the terminal platform — interactive chat with streamed replies, dimmed collapsible reasoning,
// one line per tool call, notices, the join/queue fate of inputs typed during a turn, Ctrl-C to stop; and
// line-by-line chat for scripts.
export { type CliConfig, cliConfigSchema, cliSessionId } from './cli-config.js';
export { CLI_PLATFORM, type CliPlatform, type CliPlatformOptions, createCliPlatform } from './cli-platform.js';
export { charWidth, displayWidth, endPosition, rowsOf, stripAnsi, truncateToWidth } from './display-width.js';
export {
  excerpt,
  formatNotice,
  formatToolLine,
  formatUsageLine,
  type ToolCallState,
  type ToolCallView,
  usageTag,
} from './format.js';
export type { CliExit, Frontend } from './frontend.js';
export { type InputFate, type InputNotice, InputTracker } from './input-tracker.js';
export { DOUBLE_CTRL_C_MS, InteractiveChat, type InteractiveChatOptions } from './interactive-chat.js';
export { LineChat, type LineChatOptions } from './line-chat.js';
export { cliMessage, type LocalUser, nextMessageId } from './send-input.js';
export { colourStyle, plainStyle, type Style, styleFor } from './style.js';
export { PlainScreen, type Screen, TerminalScreen } from './terminal-screen.js';
export { isBlankInput, neutraliseControls } from './terminal-text.js';
export { type ReasoningDisplay, type ScreenUpdate, TurnView } from './turn-view.js';
