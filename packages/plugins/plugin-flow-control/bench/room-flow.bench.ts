// npm run bench room-flow — a busy group replayed through the real App (gateway, agent, SQLite history, the scripted
// model server): 1,000 messages from 50 people over 10 minutes of simulated time, 40 % of them addressing her.
// Printed for the run with mute + flow control and for a baseline without them, in the same process: model calls,
// notices sent, inputs archived (every one must be), and the flow phase's time per message (p50/p99; goal: the added
// p99 ≤ 1 ms).
import { gateway } from '@aalis/api-gateway';
import { hooks } from '@aalis/api-hooks';
import { memory } from '@aalis/api-memory';
import { sessionManager } from '@aalis/api-session-manager';
import { definePlugin } from '@aalis/core';
import { ensureRoomSession } from '@aalis/platform-room';
import { type Harness, startHarness } from '@aalis/plugin-agent/testing';
import mutePlugin from '@aalis/plugin-mute';
import type { IncomingMessage } from '@aalis/schema-message';
import { createFlowControlPlugin } from '../src/index.js';

const MESSAGES = 1_000;
const PEOPLE = 50;
const SPAN_MS = 10 * 60_000;
const ADDRESSED = 0.4;
const START = Date.parse('2026-12-07T12:00:00Z');

/** A seeded PRNG (mulberry32): both runs replay the very same messages. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface Replayed {
  at: number;
  userId: string;
  text: string;
}

function script(): Replayed[] {
  const next = random(30);
  const times = Array.from({ length: MESSAGES }, () => Math.floor(next() * SPAN_MS)).sort((a, b) => a - b);
  return times.map((at, index) => {
    // A few people talk much more than the rest (a busy group has its regulars).
    const userId = String(1000 + Math.floor(next() ** 2 * PEOPLE));
    const text = next() < ADDRESSED ? `Aalis, question ${index}?` : `chatter ${index}`;
    return { at, userId, text };
  });
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

async function replay(withFlow: boolean) {
  const clock = { now: START };
  const flowMs: number[] = [];

  // Registered before mute and flow control: its middleware wraps the rest of the flow phase.
  const probe = definePlugin({
    name: '@bench/flow-timer',
    uses: { hooks },
    apply(handles) {
      handles.hooks.use.middleware('inbound:flow', async (context, next) => {
        // The trigger verdict is asked for first, in both runs (flow control asks for it; without it the trigger
        // phase would): what is timed is what mute and flow control add to the way of an input.
        await context.judgeTrigger();
        const started = performance.now();
        await next();
        flowMs.push(performance.now() - started);
      });
    },
  });
  const harness: Harness = await startHarness({
    agentConfig: {},
    extra: [
      probe,
      ...(withFlow
        ? [
            [mutePlugin, {}] as [typeof mutePlugin, unknown],
            [
              createFlowControlPlugin({ now: () => clock.now }),
              {
                cooldown: { roomSeconds: 15, personSeconds: 60 },
                rateLimit: { person: { perMinute: 2, burst: 2 }, room: { perMinute: 6, burst: 3 } },
                maxConcurrentCalls: 2,
                noticeWindowSeconds: 120,
                notices: process.env.NOTICES !== '0',
              },
            ] as [ReturnType<typeof createFlowControlPlugin>, unknown],
          ]
        : []),
    ],
  });
  try {
    const app = harness.booted.app;
    const sessions = app.services.selected(sessionManager)!.impl;
    const sessionId = await ensureRoomSession({
      sessionManager: sessions,
      platform: 'onebot',
      chatType: 'group',
      chatId: '777',
      logger: harness.booted.app.log,
    });
    const gw = app.services.selected(gateway)!.impl;
    // The gateway's trigger rule needs her name; set through the session field the gateway registers.
    const { sessionFields } = await import('@aalis/api-session-settings');
    await app.services.selected(sessionFields)!.impl.set({
      layer: 'global',
      target: '',
      key: 'triggerNames',
      value: ['Aalis'],
      caller: { via: 'host' },
    });
    const sent = harness.booted.capture('outbound:message');
    for (const [index, message] of script().entries()) {
      clock.now = START + message.at;
      const incoming: IncomingMessage = {
        sessionId,
        platform: 'onebot',
        venue: '777',
        sender: { userId: message.userId },
        actor: { platform: 'onebot', userId: message.userId },
        content: message.text,
        messageId: `m${index}`,
        timestamp: clock.now,
      };
      await gw.receive(incoming);
    }
    await app.settled();
    const history = await app.services.selected(memory)!.impl.readAll(sessionId);
    const archived = new Set(
      history
        .filter((entry) => entry.role === 'user')
        .flatMap((entry) => [...entry.content.matchAll(/(?:question|chatter) (\d+)/g)].map((match) => match[1])),
    ).size;
    return {
      modelCalls: harness.requests().length,
      notices: sent.filter((message) => message.kind === 'system').length,
      replies: sent.filter((message) => message.kind !== 'system').length,
      archived,
      flowP50: quantile(flowMs, 0.5),
      flowP99: quantile(flowMs, 0.99),
      top: [...flowMs]
        .sort((a, b) => b - a)
        .slice(0, 15)
        .map((ms) => ms.toFixed(1))
        .join(' '),
    };
  } finally {
    await harness.close();
  }
}

const base = await replay(false);
const flow = await replay(true);
const row = (name: string, r: typeof base) =>
  `${name.padEnd(26)} model calls ${String(r.modelCalls).padStart(4)}   notices ${String(r.notices).padStart(3)}   replies ${String(r.replies).padStart(4)}   inputs archived ${r.archived}/${MESSAGES}   flow phase p50 ${r.flowP50.toFixed(3)} ms, p99 ${r.flowP99.toFixed(3)} ms`;
console.log(
  `${MESSAGES} messages from ${PEOPLE} people over ${SPAN_MS / 60_000} simulated minutes, ${ADDRESSED * 100}% addressing her`,
);
console.log(row('baseline (no flow control)', base));
console.log(row('mute + flow control', flow));
console.log(
  `model calls ${flow.modelCalls} vs ${base.modelCalls} (${(flow.modelCalls / base.modelCalls).toFixed(2)}×); flow phase added p99 ${(flow.flowP99 - base.flowP99).toFixed(3)} ms (goal ≤ 1 ms); every input archived: ${flow.archived === MESSAGES && base.archived === MESSAGES ? 'yes' : 'NO'}`,
);
console.log(`slowest flow phases with flow control (ms): ${flow.top}`);
if (flow.archived !== MESSAGES) process.exitCode = 1;
