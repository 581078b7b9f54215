// @aalis/plugin-preferences: keeps the service preferences (the global one per service and each plugin's own, e.g.
// plugin-agent's llm model) across restarts. On activation it restores what was stored; afterwards every change
// (the 'preferences:changed' event) is written back. Restored values win over the ones the host started with:
// they are the user's later choices.
import { storage } from '@aalis/api-storage';
import { definePlugin, events, logger, services } from '@aalis/core';
import { PreferenceStore } from './preference-store.js';

export { PREFERENCE_MIGRATIONS, PreferenceStore } from './preference-store.js';

export default definePlugin({
  name: '@aalis/plugin-preferences',
  uses: { storage, services, events, logger },
  apply({ storage, services, events, logger }) {
    const store = new PreferenceStore(storage.use.database());
    const stored = store.load();
    let restoring = true;
    for (const [service, value] of Object.entries(stored.global)) services.use.setGlobalPreference(service, value);
    for (const [plugin, entries] of Object.entries(stored.plugins)) {
      for (const [service, value] of Object.entries(entries)) services.use.setPluginPreference(plugin, service, value);
    }
    restoring = false;
    // Persist what the host started with too, so the table always holds the effective preferences.
    store.save(services.use.preferences());
    events.use.on('preferences:changed', (snapshot) => {
      if (restoring) return;
      try {
        store.save(snapshot);
      } catch (error) {
        logger.use.error('saving service preferences failed', {
          error: error instanceof Error ? error.message : String(error),
        });
      }
    });
  },
});
