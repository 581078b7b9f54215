// Reading a request body or frame within bounds: its size is counted WHILE it streams (a chunked body never announces
// its length, so checking after reading it whole let one client hold gigabytes), and the nesting of its JSON is
// measured before JSON.parse (a deeply nested value overflowed the stack of whoever walked it later).
import type { IncomingMessage } from 'node:http';
import type { Locale } from '@aalis/core';
import { limitErrors } from './limit-errors.js';
import { frameMalformed, serverErrors } from './server-errors.js';

/** Collects a body of at most `limit` bytes; past the limit it stops reading and rejects with FRAME_TOO_LARGE. */
export function readBodyWithin(incoming: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('aborted', onAborted);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        discardThenClose(incoming);
        reject(serverErrors.AALIS_WEBUI_FRAME_TOO_LARGE({ size: `>${limit}`, limit }));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onAborted = () => onError(new Error('the client closed the connection'));
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('aborted', onAborted);
  });
}

/** How long the rest of a refused body is read (and dropped) so the client can read its answer, at most. */
export const LINGER_MS = 2000;

/**
 * The rest of a body past its limit is read and dropped (never kept) for LINGER_MS, then the connection is
 * destroyed: closing at once with unread data would reset it, and the client would lose the 413 it was sent.
 */
function discardThenClose(incoming: IncomingMessage): void {
  incoming.on('data', () => {});
  incoming.resume();
  const socket = incoming.socket;
  const timer = setTimeout(() => socket?.destroy(), LINGER_MS);
  timer.unref();
  socket?.once('close', () => clearTimeout(timer));
}

/** The same over a web stream (a request not served by Node's HTTP server, e.g. app.request in a test). */
export async function readStreamWithin(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Buffer> {
  if (!body) return Buffer.alloc(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw serverErrors.AALIS_WEBUI_FRAME_TOO_LARGE({ size: `>${limit}`, limit });
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

/**
 * The deepest nesting of objects and arrays in a JSON text (strings skipped), stopping as soon as it passes `limit`:
 * one pass over the text, no recursion.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c)
        index++; // backslash: the next character is escaped
      else if (code === 0x22) inString = false;
      continue;
    }
    if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      depth++;
      if (depth > limit) return true;
    } else if (code === 0x7d || code === 0x5d) depth--;
  }
  return false;
}

/** Parses a JSON text of a request: malformed → FRAME_MALFORMED; nested past `maxDepth` → JSON_TOO_DEEP (400). */
export function parseBoundedJson(
  text: string,
  maxDepth: number,
  locale: Locale,
  problem: 'not JSON' | 'the body is not JSON',
): unknown {
  if (jsonDepthExceeds(text, maxDepth)) throw limitErrors.AALIS_WEBUI_JSON_TOO_DEEP({ limit: maxDepth });
  try {
    return JSON.parse(text);
  } catch {
    throw frameMalformed(problem, locale);
  }
}
