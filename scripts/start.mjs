#!/usr/bin/env node
// `npm start`: the Aalis terminal chat (`aalis start`), run straight from the TypeScript sources — no build step.
// Arguments after `npm start --` go to the command: `npm start -- --session work`, `npm start -- chat`.
await import('../packages/runtime/bin/aalis.mjs');
