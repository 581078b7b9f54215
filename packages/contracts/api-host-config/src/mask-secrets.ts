// Secrets replaced by SECRET_MASK before a configuration value leaves the host (the console's pages, audit records).
import { SECRET_MASK } from './host-config-service.js';

/**
 * A copy of `value` with the value at each dotted path of `secrets` ('' = `value` itself) replaced by SECRET_MASK;
 * paths that are absent stay absent.
 */
export function maskSecrets(value: unknown, secrets: readonly string[]): unknown {
  if (secrets.includes('')) return value === undefined ? undefined : SECRET_MASK;
  const copy = structuredClone(value);
  for (const path of secrets) {
    const segments = path.split('.');
    let node: unknown = copy;
    for (const segment of segments.slice(0, -1)) {
      node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[segment] : undefined;
    }
    const last = segments.at(-1)!;
    if (typeof node === 'object' && node !== null && (node as Record<string, unknown>)[last] !== undefined) {
      (node as Record<string, unknown>)[last] = SECRET_MASK;
    }
  }
  return copy;
}
