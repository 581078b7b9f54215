// Helpers of the multi-process tests and benchmark (issue #16): several real `aalis chat` processes on one database,
// each writing tagged lines into sessions, and the scripted model server's request log read back as turn intervals
// per session, so overlapping turns of one session are seen from the outside.
import type { OpenAiTestServer, RecordedRequest, ScriptedReply } from '@aalis/testing';
import { type AalisProcess, spawnAalis } from './spawn-aalis.case.js';

/** A slow streamed answer: the turn stays open long enough for other processes to try the same session. */
export function slowReply(delayMs: number): ScriptedReply {
  return {
    type: 'stream',
    steps: [
      { role: 'assistant' },
      { text: 'ok' },
      { delayMs },
      { text: ' done' },
      { finish: 'stop' },
      { usage: { promptTokens: 10, completionTokens: 2 } },
      { done: true },
    ],
  };
}

export interface Interval {
  session: string;
  /** The tag of the last user message (the input that opened or last joined the turn). */
  tag: string;
  start: number;
  end: number | undefined;
  request: RecordedRequest;
}

const TAG = /\[(s\d+) (p\d+) (m\d+)\]/g;

type Body = { messages?: Array<{ role: string; content: unknown }> };

/** The tags in a request's user messages, in order. */
export function tagsOf(body: unknown): string[] {
  const tags: string[] = [];
  for (const message of (body as Body).messages ?? []) {
    if (message.role !== 'user' || typeof message.content !== 'string') continue;
    for (const match of message.content.matchAll(TAG)) tags.push(match[0]);
  }
  return tags;
}

/**
 * Watches the server's request log (1 ms polling in this process, where the server runs) and stamps each chat
 * request with when it arrived and when its response ended or its connection closed.
 */
export function watchRequests(server: OpenAiTestServer, onRequest?: (interval: Interval) => void) {
  const intervals: Interval[] = [];
  let seen = 0;
  const timer = setInterval(() => {
    while (seen < server.requests.length) {
      const request = server.requests[seen++]!;
      if (!request.path.endsWith('/chat/completions')) continue;
      const tags = tagsOf(request.body);
      const last = tags.at(-1) ?? '';
      const interval: Interval = {
        session: last.slice(1).split(' ')[0] ?? '',
        tag: last,
        start: Date.now(),
        end: undefined,
        request,
      };
      void request.closed.then(() => {
        interval.end = Date.now();
      });
      intervals.push(interval);
      onRequest?.(interval);
    }
  }, 1);
  return {
    intervals,
    stop: () => clearInterval(timer),
  };
}

/** Pairs of requests of one session whose intervals overlap (two turns of a session at the same time). */
export function overlaps(intervals: readonly Interval[]): Array<[Interval, Interval]> {
  const found: Array<[Interval, Interval]> = [];
  const bySession = new Map<string, Interval[]>();
  for (const interval of intervals)
    bySession.set(interval.session, [...(bySession.get(interval.session) ?? []), interval]);
  for (const list of bySession.values()) {
    const sorted = [...list].sort((a, b) => a.start - b.start);
    for (let i = 1; i < sorted.length; i++) {
      const previous = sorted[i - 1]!;
      if ((previous.end ?? Number.POSITIVE_INFINITY) > sorted[i]!.start) found.push([previous, sorted[i]!]);
    }
  }
  return found;
}

export interface Writer {
  process: AalisProcess;
  name: string;
  session: string;
  /** The lines written so far (their tags). */
  sent: string[];
}

/** Starts `aalis chat --session <session>` and writes `count` tagged lines, one every `gapMs`, then ends its input. */
export function startWriter(options: {
  cwd: string;
  env: Record<string, string>;
  name: string;
  session: string;
  count: number;
  gapMs: number;
}): Writer & { done: Promise<void> } {
  const process = spawnAalis({ cwd: options.cwd, args: ['chat', '--session', options.session], env: options.env });
  const writer: Writer = { process, name: options.name, session: options.session, sent: [] };
  const done = (async () => {
    for (let index = 1; index <= options.count; index++) {
      if (process.child.exitCode !== null || process.child.signalCode !== null) return;
      const tag = `[${options.session} ${options.name} m${index}]`;
      writer.sent.push(tag);
      process.child.stdin!.write(`hello ${tag}\n`);
      await new Promise((resolve) => setTimeout(resolve, options.gapMs));
    }
    process.child.stdin!.end();
  })();
  return { ...writer, done, sent: writer.sent };
}
