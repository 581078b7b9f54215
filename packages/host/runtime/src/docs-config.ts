// `npm run docs:config`: regenerates the configuration reference in docs/configuration.md from the schemas.
import { readFileSync, writeFileSync } from 'node:fs';
import { configReference, withReference } from './config-reference.js';
import { pluginSlots } from './plugin-set.js';

const file = new URL('../../../../docs/configuration.md', import.meta.url);
const before = readFileSync(file, 'utf8');
const after = withReference(before, configReference(await pluginSlots()));
if (after === before) {
  console.log('docs/configuration.md is up to date.');
} else {
  writeFileSync(file, after);
  console.log('docs/configuration.md: configuration reference regenerated.');
}
