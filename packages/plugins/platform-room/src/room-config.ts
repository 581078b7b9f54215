// Whether an adapter's configuration section is filled in enough to start it: the runtime enables a platform adapter
// only when its section names what it connects with (a token, an app id and secret, an endpoint).
export function sectionHasText(section: unknown, ...keys: readonly string[]): boolean {
  if (typeof section !== 'object' || section === null) return false;
  const record = section as Record<string, unknown>;
  return keys.every((key) => typeof record[key] === 'string' && record[key] !== '');
}
