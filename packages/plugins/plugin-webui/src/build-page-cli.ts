// `npm run build:page -w @aalis/plugin-webui` (run by scripts/build.mjs beside the TypeScript build): builds
// the page into dist/page.
import { buildWebuiPage } from './build-page.js';

const outDir = await buildWebuiPage();
process.stdout.write(`built the WebUI page into ${outDir}\n`);
