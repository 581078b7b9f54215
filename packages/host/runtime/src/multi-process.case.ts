// Helpers of the multi-process tests and benchmarks: real `aalis chat` processes on one database, each writing tagged
// lines into sessions; the scripted model server scripted for many sessions at once; and its calls, stamped as they
// arrive and end, read back as turns per session, so overlapping turns are seen from the outside.
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

type ChatBody = { messages?: Array<{ role: string }> };

/** Whether a request opens a tool turn: its last message is an input whose message number is odd. */
export function opensToolTurn(body: Record<string, unknown>): boolean {
  const last = (body as ChatBody).messages?.at(-1);
  return last?.role === 'user' && /m\d*[13579]\]$/.test(tagsOf(body).at(-1) ?? '');
}

/** A streamed `current_time` call with the given id, taking `delayMs`. */
export function slowToolCall(delayMs: number, id: string): ScriptedReply {
  return {
    type: 'stream',
    steps: [
      { role: 'assistant' },
      { toolCall: { index: 0, id, name: 'current_time', arguments: '' } },
      { delayMs },
      { toolCall: { index: 0, arguments: '{}' } },
      { finish: 'tool_calls' },
      { usage: { promptTokens: 10, completionTokens: 2 } },
      { done: true },
    ],
  };
}

/**
 * Scripts the model for many concurrent sessions, whatever order their calls arrive in: an input with an odd message
 * number opens a tool turn (a `current_time` call with a unique id, then the answer), an even one is answered at
 * once; every model response streams for `delayMs`. Enough replies for `turns` turns.
 */
export function scriptTurns(server: OpenAiTestServer, { delayMs, turns }: { delayMs: number; turns: number }): void {
  server.enqueueWhen(
    opensToolTurn,
    ...Array.from({ length: turns }, (_, index) => slowToolCall(delayMs, `call_${index + 1}`)),
  );
  server.enqueueWhen((body) => !opensToolTurn(body), ...Array.from({ length: turns * 2 }, () => slowReply(delayMs)));
}

/** A chat call with the times the model server's process saw it arrive and end. */
export interface StampedCall {
  request: RecordedRequest;
  receivedAt: number;
  /** Undefined while the response is open. */
  endedAt?: number;
}

/**
 * Stamps every chat call the server routes from now on, in the server's process: a route checked before any other
 * that never matches (so it never answers) notes the call as it is routed (its body just read) and when its
 * response ends. Register it before the replies. Calls the server rejects as invalid are not routed, so not stamped
 * (their `rejected` is in `server.requests`).
 */
export function stampCalls(server: OpenAiTestServer, onCall?: (call: StampedCall) => void): StampedCall[] {
  const calls: StampedCall[] = [];
  server.enqueueWhen((body) => {
    const request = server.requests.at(-1);
    if (request && request.body === body) {
      const call: StampedCall = { request, receivedAt: Date.now() };
      void request.closed.then(() => {
        call.endedAt = Date.now();
      });
      calls.push(call);
      onCall?.(call);
    }
    return false;
  }, slowReply(0));
  return calls;
}

/** The session and the last input's tag of a call (`[s1 p2 m3]` → s1). */
export function sessionOf(call: StampedCall): { session: string; tag: string } {
  const tag = tagsOf(call.request.body).at(-1) ?? '';
  return { session: tag.slice(1).split(' ')[0] ?? '', tag };
}

/** A turn as the model server saw it: one process's consecutive calls for one session and one last input. */
export interface TurnSpan {
  session: string;
  tag: string;
  /** Which process sent it (its API key). */
  sender: string;
  start: number;
  end: number;
  calls: StampedCall[];
}

/**
 * The turns in the stamped calls. A call whose response is still open counts as open until now (a turn that never
 * ended overlaps everything after it).
 */
export function turnSpans(calls: readonly StampedCall[], now = Date.now()): TurnSpan[] {
  const spans: TurnSpan[] = [];
  const open = new Map<string, TurnSpan>();
  for (const call of [...calls].sort((a, b) => a.receivedAt - b.receivedAt)) {
    const body = call.request.body as ChatBody;
    const { session, tag } = sessionOf(call);
    const sender = String(call.request.headers.authorization ?? '').replace(/^Bearer /, '');
    const end = call.endedAt ?? now;
    const key = `${session}\u0000${sender}\u0000${tag}`;
    const current = open.get(key);
    // A tool turn's next call (its last message a tool result): the same process's turn for the same last input,
    // even when another turn of the session ran in between (that one is then reported as overlapping). Two calls at
    // once are two turns.
    const continues = body.messages?.at(-1)?.role === 'tool';
    if (continues && current && current.end <= call.receivedAt) {
      current.end = Math.max(current.end, end);
      current.calls.push(call);
      continue;
    }
    const span: TurnSpan = { session, tag, sender, start: call.receivedAt, end, calls: [call] };
    open.set(key, span);
    spans.push(span);
  }
  return spans;
}

/** Pairs of turns of one session that ran at the same time. */
export function overlappingTurns(spans: readonly TurnSpan[]): Array<[TurnSpan, TurnSpan]> {
  const found: Array<[TurnSpan, TurnSpan]> = [];
  const bySession = new Map<string, TurnSpan[]>();
  for (const span of spans) bySession.set(span.session, [...(bySession.get(span.session) ?? []), span]);
  for (const list of bySession.values()) {
    const sorted = [...list].sort((a, b) => a.start - b.start);
    let latest = sorted[0];
    for (const span of sorted.slice(1)) {
      if (latest && latest.end > span.start) found.push([latest, span]);
      if (!latest || span.end > latest.end) latest = span;
    }
  }
  return found;
}

/** The first overlapping pairs, one a line, for an assertion's message. */
export function describeOverlaps(found: ReadonlyArray<[TurnSpan, TurnSpan]>): string {
  return found
    .slice(0, 10)
    .map(
      ([a, b]) =>
        `${a.tag} on ${a.sender} [${a.start}–${a.end}] overlaps ${b.tag} on ${b.sender} [${b.start}–${b.end}]`,
    )
    .join('\n');
}
