#!/usr/bin/env node
// Placeholder for the main job until @aalis/runtime exists (issue #7): says how to run the tests.
console.log('The Aalis CLI (the main job) is not built yet. Run the test suite with: npm test');
