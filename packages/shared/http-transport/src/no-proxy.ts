// NO_PROXY as curl reads it: comma- (or space-) separated entries, `*` for every host, a domain that also matches
// its subdomains (a leading `.` or `*.` changes nothing), an IP address only exactly, and an optional `:port`.
// CIDR ranges are not supported. Loopback hosts are exempt separately (isLoopbackHost, see proxy-settings.ts).
import { isIP } from 'node:net';

export function isNoProxyHost({ host, port, noProxy }: { host: string; port: number; noProxy: string }): boolean {
  const name = normalizeHost(host);
  for (const entry of noProxy.toLowerCase().split(/[\s,]+/)) {
    if (entry === '') continue;
    if (entry === '*') return true;
    const pattern = splitPort(entry);
    if (pattern.port !== undefined && pattern.port !== port) continue;
    const domain = normalizeHost(pattern.host).replace(/^\*?\./, '');
    if (domain === '') continue;
    if (name === domain || (isIP(name) === 0 && name.endsWith(`.${domain}`))) return true;
  }
  return false;
}

function splitPort(entry: string): { host: string; port?: number } {
  const bracketed = /^\[([^\]]*)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { host: bracketed[1]!, port: bracketed[2] === undefined ? undefined : Number(bracketed[2]) };
  const colon = entry.indexOf(':');
  // More than one colon without brackets is a bare IPv6 address.
  if (colon === -1 || entry.indexOf(':', colon + 1) !== -1) return { host: entry };
  const port = entry.slice(colon + 1);
  return /^\d+$/.test(port) ? { host: entry.slice(0, colon), port: Number(port) } : { host: entry };
}

function normalizeHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}

/** `localhost`, `*.localhost`, `127.0.0.0/8` and `::1` (as URL.hostname gives them, IPv6 in brackets). */
export function isLoopbackHost(host: string): boolean {
  const name = normalizeHost(host);
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  return name === '::1' || name === '0:0:0:0:0:0:0:1';
}
