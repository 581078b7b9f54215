// Passwords are kept only as argon2id hashes (@node-rs/argon2: a maintained binding, its binaries in the npm
// package). The parameters are OWASP's first argon2id choice (19 MiB, 2 passes, 1 lane): about 30 ms here. The
// binding is loaded on the first password, not at start (the start build keeps it external: a native module).
import type { Algorithm } from '@node-rs/argon2';
import { accountErrors } from './account-errors.js';

let binding: Promise<typeof import('@node-rs/argon2')> | undefined;
const argon2 = () => {
  binding ??= import('@node-rs/argon2');
  return binding;
};

export const PASSWORD_MIN_CHARS = 8;
export const PASSWORD_MAX_CHARS = 256;

// The binding's Algorithm is a const enum (not importable as a value here): Argon2id is 2.
const ARGON2ID: Algorithm.Argon2id = 2;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Code points, so a password of emoji counts as a person counts it. */
function lengthOf(password: string): number {
  return [...password].length;
}

/** Throws AALIS_WEBUI_PASSWORD_WEAK (with the length only, never the password) unless 8 to 256 characters. */
export function checkPasswordPolicy(password: string): void {
  const length = lengthOf(password);
  if (length < PASSWORD_MIN_CHARS || length > PASSWORD_MAX_CHARS) {
    throw accountErrors.AALIS_WEBUI_PASSWORD_WEAK({ length, min: PASSWORD_MIN_CHARS, max: PASSWORD_MAX_CHARS });
  }
}

export async function hashPassword(password: string): Promise<string> {
  return (await argon2()).hash(password, OPTIONS);
}

// A hash of nothing anyone knows: an unknown account costs the same verification as a known one, so the time of
// a refusal does not tell which accounts exist.
let decoy: Promise<string> | undefined;

/** Whether the password matches the stored hash; an absent hash (no password set) is checked against a decoy. */
export async function verifyPassword(stored: string | undefined, password: string): Promise<boolean> {
  if (password.length > PASSWORD_MAX_CHARS * 4) return false;
  if (stored === undefined) {
    decoy ??= hashPassword(`decoy-${Math.random()}`);
    const { verify } = await argon2();
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  const { verify } = await argon2();
  return verify(stored, password).catch(() => false);
}
