// `npm run bench relay`: what relaying live session events between processes costs (live-relay.ts). Two relays on one
// throwaway PostgreSQL (as two processes' session servers); RELAY_SESSIONS turns (default 100), each of a realistic
// shape (turn.started, input, RELAY_DELTAS text deltas, usage, message, turn.ended), from A to B. Burst: every turn's
// events published at once (a loaded process). Paced: each turn streams a delta every 5 ms. Baseline in the same run:
// one NOTIFY per event, awaited one after another (no batching), the naive relay. Printed: events per second reaching
// B, NOTIFY frames per event, and B's delay after the publish (p50/p95/p99).
import { performance } from 'node:perf_hooks';
import type { Logger } from '@aalis/core';
import { PostgresDatabase } from '@aalis/postgres';
import { startThrowawayPostgres } from '@aalis/postgres/throwaway';
import type { SessionEvent } from '@aalis/session-client';
import { LIVE_CHANNEL, LiveRelay, relayHeartbeatMs } from '../src/live-relay.js';
import type { RelayNote } from '../src/live-session.js';

const SESSIONS = Number(process.env.RELAY_SESSIONS ?? 100);
const DELTAS = Number(process.env.RELAY_DELTAS ?? 20);
const RUNS = 3;
/** The default lease time's heartbeat, as a deployment's session server has. */
const heartbeatMs = relayHeartbeatMs(4000);

function turnEvents(session: number): SessionEvent[] {
  const turnId = `turn-${session}`;
  const events: SessionEvent[] = [{ type: 'turn.started', turnId, at: Date.now() }];
  events.push({
    type: 'input',
    turnId,
    input: {
      id: `m-${session}`,
      text: `hello from session ${session}`,
      sender: { platform: 'webui', userId: 'owner' },
      at: Date.now(),
      attachments: [],
    },
  });
  for (let index = 0; index < DELTAS; index++) {
    events.push({ type: 'text.delta', turnId, segment: 0, delta: `word${index} ` });
  }
  events.push({
    type: 'usage',
    usage: {
      turnId,
      used: 1200,
      contextWindow: 128_000,
      usageRatio: 0.01,
      maxTokens: 4096,
      tokenBudget: 120_000,
      trimmed: false,
      historyMessages: 4,
      historyLimit: 400,
      parts: [{ label: 'history', tokens: 900 }],
    },
  });
  events.push({ type: 'message', turnId, kind: 'reply', text: 'word '.repeat(DELTAS) });
  events.push({ type: 'turn.ended', turnId, outcome: 'replied', unsentSegments: [] });
  return events;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

interface Figures {
  eventsPerSecond: number;
  framesPerEvent: number;
  p50: number;
  p95: number;
  p99: number;
}

const server = await startThrowawayPostgres();
/** Warnings are printed (a relay that fails says so); the rest is quiet. */
const log: Logger = {
  name: 'relay-bench',
  trace() {},
  debug() {},
  info() {},
  warn: (message, fields) => console.warn(message, fields ?? ''),
  error: (message, fields) => console.error(message, fields ?? ''),
  enabled: (level) => level === 'warn' || level === 'error',
  child: () => log,
};

async function relayRun(paced: boolean): Promise<Figures> {
  const url = server.createDatabase(`relay_${paced ? 'p' : 'b'}_${Math.random().toString(36).slice(2, 8)}`);
  const [dbA, dbB] = [new PostgresDatabase(url), new PostgresDatabase(url)];
  let frames = 0;
  const notify = dbA.notify.bind(dbA);
  dbA.notify = (channel, payload) => {
    frames++;
    return notify(channel, payload);
  };
  const sentAt = new Map<string, number>();
  const delays: number[] = [];
  let received = 0;
  let done!: () => void;
  const all = new Promise<void>((resolve) => {
    done = resolve;
  });
  const total = SESSIONS * (DELTAS + 5);
  const key = (sessionId: string, note: RelayNote, index: number) => `${sessionId}:${note.t}:${index}`;
  const perSession = new Map<string, number>();
  const b = await LiveRelay.open({
    database: dbB,
    origin: 'b',
    log,
    heartbeatMs,
    listener: {
      apply(_origin, sessionId, note) {
        // Joined deltas count as the events they joined (their text says how many).
        const count =
          note.t === 'event' && note.event.type === 'text.delta' ? note.event.delta.split(' ').length - 1 : 1;
        for (let index = 0; index < count; index++) {
          const seen = perSession.get(sessionId) ?? 0;
          perSession.set(sessionId, seen + 1);
          const at = sentAt.get(key(sessionId, note, seen));
          if (at !== undefined) delays.push(performance.now() - at);
          received++;
        }
        if (received >= total) done();
      },
      gone() {},
    },
  });
  const a = await LiveRelay.open({ database: dbA, origin: 'a', log, heartbeatMs, listener: { apply() {}, gone() {} } });
  const turns = Array.from({ length: SESSIONS }, (_, session) => turnEvents(session));
  const started = performance.now();
  const publish = (session: number, index: number) => {
    const sessionId = `s${session}`;
    const note: RelayNote = { t: 'event', event: turns[session]![index]! };
    sentAt.set(key(sessionId, note, index), performance.now());
    a.publish(sessionId, note);
  };
  if (paced) {
    await Promise.all(
      turns.map(async (events, session) => {
        for (let index = 0; index < events.length; index++) {
          publish(session, index);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }),
    );
  } else {
    for (let index = 0; index < DELTAS + 5; index++)
      for (let session = 0; session < SESSIONS; session++) publish(session, index);
  }
  await all;
  const seconds = (performance.now() - started) / 1000;
  await a.close();
  await b.close();
  await dbA.close();
  await dbB.close();
  return {
    eventsPerSecond: total / seconds,
    framesPerEvent: frames / total,
    p50: percentile(delays, 50),
    p95: percentile(delays, 95),
    p99: percentile(delays, 99),
  };
}

/** The naive relay: one NOTIFY per event, each awaited before the next (the order kept the simple way). */
async function naiveRun(): Promise<Figures> {
  const url = server.createDatabase(`relay_n_${Math.random().toString(36).slice(2, 8)}`);
  const [dbA, dbB] = [new PostgresDatabase(url), new PostgresDatabase(url)];
  const total = SESSIONS * (DELTAS + 5);
  const delays: number[] = [];
  let received = 0;
  let done!: () => void;
  const all = new Promise<void>((resolve) => {
    done = resolve;
  });
  await dbB.listen(LIVE_CHANNEL, (payload) => {
    const { at } = JSON.parse(payload) as { at: number };
    delays.push(performance.now() - at);
    if (++received >= total) done();
  });
  const turns = Array.from({ length: SESSIONS }, (_, session) => turnEvents(session));
  const started = performance.now();
  for (let index = 0; index < DELTAS + 5; index++) {
    for (let session = 0; session < SESSIONS; session++) {
      await dbA.notify(
        LIVE_CHANNEL,
        JSON.stringify({ s: `s${session}`, event: turns[session]![index], at: performance.now() }),
      );
    }
  }
  await all;
  const seconds = (performance.now() - started) / 1000;
  await dbA.close();
  await dbB.close();
  return {
    eventsPerSecond: total / seconds,
    framesPerEvent: 1,
    p50: percentile(delays, 50),
    p95: percentile(delays, 95),
    p99: percentile(delays, 99),
  };
}

const median = (runs: Figures[], field: keyof Figures) =>
  percentile(
    runs.map((run) => run[field]),
    50,
  );
const rows: [string, Figures[]][] = [
  ['naive (1 NOTIFY per event)', []],
  ['relay, burst', []],
  ['relay, paced 5 ms', []],
];
try {
  for (let run = 0; run < RUNS; run++) {
    rows[0]![1].push(await naiveRun());
    rows[1]![1].push(await relayRun(false));
    rows[2]![1].push(await relayRun(true));
  }
} finally {
  server.stop();
}
console.log(`relay: ${SESSIONS} turns of ${DELTAS + 5} events each, A → B on one PostgreSQL, medians of ${RUNS} runs`);
console.log('scenario                      events/s   NOTIFY/event   delay p50 / p95 / p99 (ms)');
for (const [name, runs] of rows) {
  console.log(
    `${name.padEnd(28)} ${median(runs, 'eventsPerSecond').toFixed(0).padStart(9)}   ${median(runs, 'framesPerEvent').toFixed(3).padStart(12)}   ${median(runs, 'p50').toFixed(1)} / ${median(runs, 'p95').toFixed(1)} / ${median(runs, 'p99').toFixed(1)}`,
  );
}
console.log(
  `burst throughput, relay : naive = ${(median(rows[1]![1], 'eventsPerSecond') / median(rows[0]![1], 'eventsPerSecond')).toFixed(1)}×`,
);
