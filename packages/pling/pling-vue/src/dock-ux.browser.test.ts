// The dock UX suite run against the vue dock in Chromium; the suite is shared by the four adapters so their docks
// behave the same.
import { describeDockUx } from '../../../tooling/pling-browser-testing/src/dock-ux/dock-ux-suite.case.js';

describeDockUx('vue', new URL('./fixtures/dock-ux.case.ts', import.meta.url));
