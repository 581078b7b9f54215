// @aalis/plugin-contributions: provides the contributions service.
import { contributions } from '@aalis/api-contributions';
import { definePlugin, provide } from '@aalis/core';
import { ContributionRegistry } from './contribution-registry.js';

export { ContributionRegistry } from './contribution-registry.js';

export default definePlugin({
  name: '@aalis/plugin-contributions',
  provides: [contributions],
  uses: { provide },
  apply({ provide }) {
    provide.use.service(contributions, new ContributionRegistry());
  },
});
