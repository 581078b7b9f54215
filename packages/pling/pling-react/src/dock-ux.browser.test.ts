// The dock UX suite run against the react dock in Chromium; the suite is shared by the four adapters so their docks
// behave the same.
import { describeDockUx } from '../../../tooling/pling-browser-testing/src/dock-ux/dock-ux-suite.case.js';

describeDockUx('react', new URL('./fixtures/dock-ux.case.tsx', import.meta.url));
