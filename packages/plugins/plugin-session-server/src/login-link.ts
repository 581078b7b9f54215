// One-time login links (docs/session-protocol.md 「Login and safety」): a secret kept in <dataDir>/webui/login-secret
// signs `v1.<account>.<issued>.<nonce>.<HMAC-SHA256>`; the server accepts a link once, within linkTtlMinutes. A
// second process (`aalis webui-link`) mints links from the same secret and finds the running server's address in
// <dataDir>/webui/server.json.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const ACCOUNT_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

export function webuiDir(dataDir: string): string {
  return join(dataDir, 'webui');
}

/** The login secret (32 random bytes), created with mode 0600 on first use. */
export function loadOrCreateSecret(dataDir: string): Buffer {
  const file = join(webuiDir(dataDir), 'login-secret');
  if (existsSync(file)) {
    const text = readFileSync(file, 'utf8').trim();
    if (/^[0-9a-f]{64}$/.test(text)) return Buffer.from(text, 'hex');
  }
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const secret = randomBytes(32);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${secret.toString('hex')}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
  return secret;
}

function sign(secret: Buffer, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url');
}

export function mintLinkToken({
  secret,
  userId,
  now = Date.now(),
}: {
  secret: Buffer;
  userId: string;
  now?: number;
}): string {
  const payload = `v1.${Buffer.from(userId, 'utf8').toString('base64url')}.${now.toString(36)}.${randomBytes(16).toString('base64url')}`;
  return `${payload}.${sign(secret, payload)}`;
}

export type LinkCheck =
  | { ok: true; userId: string; nonce: string; issuedAt: number }
  | { ok: false; reason: 'malformed' | 'signature' | 'expired' };

export function verifyLinkToken({
  secret,
  token,
  ttlMs,
  now = Date.now(),
}: {
  secret: Buffer;
  token: string;
  ttlMs: number;
  now?: number;
}): LinkCheck {
  const parts = token.split('.');
  if (parts.length !== 5 || parts[0] !== 'v1' || token.length > 512) return { ok: false, reason: 'malformed' };
  const [, account, issued, nonce, signature] = parts as [string, string, string, string, string];
  const expected = Buffer.from(sign(secret, parts.slice(0, 4).join('.')));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: 'signature' };
  const issuedAt = Number.parseInt(issued, 36);
  const userId = Buffer.from(account, 'base64url').toString('utf8');
  if (!Number.isFinite(issuedAt) || !ACCOUNT_ID_PATTERN.test(userId)) return { ok: false, reason: 'malformed' };
  if (now - issuedAt > ttlMs || issuedAt - now > 60_000) return { ok: false, reason: 'expired' };
  return { ok: true, userId, nonce, issuedAt };
}

export function loginLink(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/$/, '')}/?token=${encodeURIComponent(token)}`;
}

export interface ServerAddress {
  /** The origin the server answers at, e.g. http://127.0.0.1:8420. */
  url: string;
  pid: number;
  startedAt: number;
}

export function writeServerAddress(dataDir: string, address: ServerAddress): void {
  const file = join(webuiDir(dataDir), 'server.json');
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(address)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
}

/** Removes server.json when it still names this process. */
export function removeServerAddress(dataDir: string, pid = process.pid): void {
  const file = join(webuiDir(dataDir), 'server.json');
  if (readServerAddress(dataDir)?.pid !== pid) return;
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
}

export function readServerAddress(dataDir: string): ServerAddress | undefined {
  try {
    const parsed = JSON.parse(readFileSync(join(webuiDir(dataDir), 'server.json'), 'utf8')) as ServerAddress;
    return typeof parsed.url === 'string' && typeof parsed.pid === 'number' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a process with this id runs (the server that wrote server.json may have died). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
