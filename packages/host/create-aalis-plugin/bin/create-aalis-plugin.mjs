#!/usr/bin/env node
// `npm create aalis-plugin@latest <directory>`: see `create-aalis-plugin --help`. Runs the built package (dist/).
import { main } from '../dist/index.js';

process.exitCode = await main(process.argv.slice(2));
