// The continuity suite run against the Vue 3 AgentDock in Chromium; the suite is shared by the four adapters so their
// docks carry a conversation across pages the same way. Replies are scripted as this package's other browser tests
// script them (one SSE chunk per text, one chunk per tool call).
import { describeContinuity } from '../../../tooling/pling-browser-testing/src/continuity/continuity-suite.case.js';
import { streamedText, streamedToolCall } from './fixtures/replies.case.js';

describeContinuity('the Vue 3 AgentDock (Vue 3, Chromium)', new URL('./fixtures/two-pages.case.ts', import.meta.url), {
  text: (text) => streamedText([text]),
  toolCall: (name, args) => streamedToolCall(name, args),
});
