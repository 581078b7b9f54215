// The continuity suite run against the native dock in Chromium; the suite is shared by the four adapters so their docks
// carry a conversation across pages the same way.
import { describeContinuity } from '../../../tooling/pling-browser-testing/src/continuity/continuity-suite.case.js';

describeContinuity('the native dock (Chromium)', new URL('./fixtures/two-pages.case.ts', import.meta.url));
