#!/usr/bin/env node
// `npm start`: the Aalis terminal chat (`aalis start`), as built JavaScript (bin/aalis.mjs rebuilds its bundle first
// when a source changed since the last build).
// Arguments after `npm start --` go to the command: `npm start -- --session work`, `npm start -- chat`.
await import('../packages/host/runtime/bin/aalis.mjs');
