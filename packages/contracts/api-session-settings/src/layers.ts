// The settings layers, lowest first, and the target each layer is keyed by.

/** Lowest precedence first: a value on a later layer overrides the earlier ones. */
export const LAYERS = ['global', 'platformType', 'platform', 'venue', 'session'] as const;

export type SettingsLayer = (typeof LAYERS)[number];

/** Where an effective value came from: a layer, the field's default, or nowhere. */
export type ValueOrigin = SettingsLayer | 'default' | 'unset';

export function isLayer(value: unknown): value is SettingsLayer {
  return typeof value === 'string' && (LAYERS as readonly string[]).includes(value);
}

/**
 * The target of a venue layer: venue ids are per platform, so the target is `<platform>/<venue>`. Other layers'
 * targets: global → '' (ignored), platformType → the type, platform → the platform id, session → the session id.
 */
export function venueTarget({ platform, venue }: { platform: string; venue: string }): string {
  return `${platform}/${venue}`;
}

/**
 * The (layer, target) pairs a scope reads, highest precedence first. Layers without a target (no platform, no
 * venue, no platform type) are skipped.
 */
export function layerTargetsOf({
  sessionId,
  platform,
  venue,
  platformType,
}: {
  sessionId: string;
  platform?: string;
  venue?: string;
  platformType?: string;
}): { layer: SettingsLayer; target: string }[] {
  const targets: { layer: SettingsLayer; target: string }[] = [{ layer: 'session', target: sessionId }];
  if (platform !== undefined && platform !== '') {
    if (venue !== undefined && venue !== '') targets.push({ layer: 'venue', target: venueTarget({ platform, venue }) });
    targets.push({ layer: 'platform', target: platform });
  }
  if (platformType !== undefined && platformType !== '') targets.push({ layer: 'platformType', target: platformType });
  targets.push({ layer: 'global', target: '' });
  return targets;
}
