// plugin-platform-discord through the product (startAalis, the default plugin set) against a Discord gateway and
// REST server of our own (@aalis/testing) and the scripted model server: the platform conformance suite, then what
// is Discord's own on the same product.
import { describePlatformConformance } from './platform-conformance.case.js';
import { conformanceDriver } from './platform-discord-driver.case.js';

describePlatformConformance(conformanceDriver);
