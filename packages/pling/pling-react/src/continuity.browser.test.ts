// The continuity suite run against the React AgentDock in Chromium; the suite is shared by the four adapters so their
// docks carry a conversation across pages the same way.
import { describeContinuity } from '../../../tooling/pling-browser-testing/src/continuity/continuity-suite.case.js';

describeContinuity('the React AgentDock (React, Chromium)', new URL('./fixtures/two-pages.case.tsx', import.meta.url));
