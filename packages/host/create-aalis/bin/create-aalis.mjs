#!/usr/bin/env node
// `npm create aalis@latest [directory] -- [options]`: see `create-aalis --help`. Runs the built package (dist/); in a
// checkout of the Aalis repository, `npm run build` first.
import { main } from '../dist/index.js';

process.exitCode = await main(process.argv.slice(2));
