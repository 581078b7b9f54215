// @aalis/plugin-hooks: provides the hooks service.
import { hooks } from '@aalis/api-hooks';
import { definePlugin, provide } from '@aalis/core';
import { HookRegistry } from './hook-registry.js';

export { compose } from './compose.js';
export { HookRegistry } from './hook-registry.js';

export default definePlugin({
  name: '@aalis/plugin-hooks',
  provides: [hooks],
  uses: { provide },
  apply({ provide }) {
    provide.use.service(hooks, new HookRegistry());
  },
});
