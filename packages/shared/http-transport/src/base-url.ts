// The provider's API root: checked (an http(s) URL with a host and a usable port), with any credentials written into
// it (`https://user:password@host/v1`) taken out. The credentials become a Basic Authorization header and a list of
// secrets to redact; the URL without them is what requests use and what errors and logs show.

export interface EndpointUrl {
  /** The API root without credentials and without trailing slashes: requests are `root + path`. */
  root: string;
  /** Basic credentials from the URL, as the Authorization header value, when it carried any. */
  basicAuthorization?: string;
  /** Values never to be shown: the password (as written and decoded) and the Basic token. */
  secrets: string[];
}

export type BaseUrlProblem = 'not-a-url' | 'scheme' | 'port';

/** Parses and checks a baseUrl; a problem names what is wrong with it. */
export function parseBaseUrl(
  text: string,
): { ok: true; endpoint: EndpointUrl } | { ok: false; problem: BaseUrlProblem } {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    // The WHATWG parser also refuses a port above 65535 or one that is not a number.
    return { ok: false, problem: /^\s*https?:\/\/[^/]*:[^/@]*(?:[/?#]|$)/i.test(text) ? 'port' : 'not-a-url' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, problem: 'scheme' };
  if (url.hostname === '') return { ok: false, problem: 'not-a-url' };
  if (url.port === '0') return { ok: false, problem: 'port' };
  const secrets: string[] = [];
  let basicAuthorization: string | undefined;
  if (url.username !== '' || url.password !== '') {
    const user = decode(url.username);
    const password = decode(url.password);
    const token = Buffer.from(`${user}:${password}`).toString('base64');
    basicAuthorization = `Basic ${token}`;
    secrets.push(token, `${url.username}:${url.password}`);
    if (url.password !== '') secrets.push(url.password, password);
    url.username = '';
    url.password = '';
  }
  return {
    ok: true,
    endpoint: { root: url.href.replace(/\/+$/, ''), basicAuthorization, secrets: [...new Set(secrets)] },
  };
}

/** The text with the credentials of any URL in it replaced (`https://***@host/v1`): for a value that failed its check. */
export function maskUrlCredentials(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/\s]*@/gi, '$1***@');
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
