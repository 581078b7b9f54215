// The password of a connection URL (postgres://user:password@host/db), decoded — a secret every log line redacts.

/** The URL's password, or undefined when it has none or is not a URL. */
export function passwordOf(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  try {
    const password = decodeURIComponent(new URL(url).password);
    return password === '' ? undefined : password;
  } catch {
    return undefined;
  }
}
