// The services every room adapter uses, declared once: an adapter spreads them into its plugin's `uses` and adds
// (or overrides) its own. The platform, session manager and storage are optional: without them an adapter still
// talks (no live state listed, no room sessions registered, no lease shared between processes).
import { gateway } from '@aalis/api-gateway';
import { hooks } from '@aalis/api-hooks';
import { platform } from '@aalis/api-platform';
import { sessionManager } from '@aalis/api-session-manager';
import { storage } from '@aalis/api-storage';
import { config, events, i18n, lifecycle, logger, optional } from '@aalis/core';

/** The services every adapter needs. */
const required = { config, logger, events, i18n, lifecycle, gateway, hooks };

export const roomAdapterUses = {
  ...required,
  sessionManager: optional(sessionManager),
  platform: optional(platform),
  storage: optional(storage),
};
