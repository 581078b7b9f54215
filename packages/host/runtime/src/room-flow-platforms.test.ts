// Rooms that behave, the same cases for every platform driver (the nine adapters): through the platform's own
// protocol server and the product, a flooded group is cooled down by its own settings layer (one answer, one
// notice), an owner's /mute stops her running turn (its reply never sent) and silences her while she keeps reading,
// /unmute lets her answer, a chat over its budget gets the notice instead of a model call, and under a cap of one
// model call a quiet group waiting is served before a busy group's next call. A request she may approve (a friend
// request; Telegram: being added to a group) is put to the owner; the product then restarts with a rate limit per
// person, the owner's answer settles the request kept across the restart, and a person over the rate limit is held
// back across groups (one notice) while another is answered. ONE product serves all nine platforms (one boot and
// one restart for the file).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import '@aalis/api-agent';
import { memory } from '@aalis/api-memory';
import { sessionFields } from '@aalis/api-session-settings';
import { textReply, toolCallReply } from '@aalis/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceDriver as dingtalk } from './platform-dingtalk-driver.case.js';
import { conformanceDriver as discord } from './platform-discord-driver.case.js';
import type { ConformanceChat, ConformanceServer, PlatformConformanceDriver } from './platform-driver.case.js';
import { conformanceConfig } from './platform-driver.case.js';
import { conformanceDriver as lark } from './platform-lark-driver.case.js';
import { conformanceDriver as onebot } from './platform-onebot-driver.case.js';
import { conformanceDriver as qq } from './platform-qq-driver.case.js';
import { conformanceDriver as satori } from './platform-satori-driver.case.js';
import { conformanceDriver as slack } from './platform-slack-driver.case.js';
import { conformanceDriver as telegram } from './platform-telegram-driver.case.js';
import { conformanceDriver as wecom } from './platform-wecom-driver.case.js';
import {
  type Cleanup,
  type ProductHost,
  productWorkspace,
  startProduct,
  useProductFixture,
} from './product-host.case.js';
import { waitFor } from './spawn-aalis.case.js';

const fixture = useProductFixture();

/** A model reply held until `release()` (its call stays open: a running turn). */
function heldReply(text: string) {
  let release!: () => void;
  const until = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    reply: {
      type: 'stream' as const,
      steps: [{ role: 'assistant' as const }, { until }, { text }, { finish: 'stop' }, { done: true as const }],
    },
    release,
  };
}

const GROUP: ConformanceChat = { kind: 'group', group: 'g1' };
const QUIET: ConformanceChat = { kind: 'group', group: 'g2' };
const OWNER_CHAT: ConformanceChat = { kind: 'private', user: 'alice' };
const sameChat = (a: ConformanceChat, b: ConformanceChat) =>
  a.kind === 'group' ? b.kind === 'group' && a.group === b.group : b.kind === 'private' && a.user === b.user;
const TINY = { usage: { promptTokens: 1, completionTokens: 1 } };

const DRIVERS = [onebot, telegram, discord, slack, lark, dingtalk, qq, wecom, satori] as PlatformConformanceDriver[];

/** Every platform's server, and ONE product serving them all (one boot for the file, not one per platform). */
let servers: ConformanceServer[] = [];
let host: ProductHost | undefined;
const shared: Cleanup[] = [];
/** The request ids she told the owners, by platform (asked before the restart, answered after it). */
const asked = new Map<string, string>();

/**
 * The configuration: the log file never rotated while the file runs (a case reads its debug lines); a cap of one
 * model call at a time throughout; after the restart also a rate limit per person
 * (two at once, then one a minute, across rooms) that owners are not exempt from (so alice is a second person).
 */
const configOf = (rateLimited: boolean) =>
  `${conformanceConfig(servers, fixture.model.url)}  flow-control: { noticeWindowSeconds: 60, maxConcurrentCalls: 1${
    rateLimited ? ', exemptOwners: false, rateLimit: { person: { perMinute: 1, burst: 2 } }' : ''
  } }
  budget: { roomPerDay: 30 }
log: { maxFileBytes: 268435456 }
`;

/** Starts the product in `dir` and waits until every platform connected. */
async function serve(dir: string): Promise<ProductHost> {
  const before = servers.map((server) => server.connections());
  const started = await startProduct({ model: fixture.model, cleanups: shared }, dir);
  await waitFor(() => servers.every((server, index) => server.connections() > before[index]!), {
    what: () =>
      `every platform connecting: ${DRIVERS.filter((_, index) => servers[index]!.connections() <= before[index]!)
        .map((driver) => driver.name)
        .join(', ')} not yet`,
    timeoutMs: 20_000,
  });
  return started;
}

beforeAll(async () => {
  servers = await Promise.all(DRIVERS.map((driver) => driver.start()));
  shared.push(() => Promise.all(servers.map((server) => server.close())));
  host = await serve(
    productWorkspace({ model: fixture.model, cleanups: shared }, configOf(false), 'aalis-room-flow-platforms-'),
  );
}, 60_000);

/** The debug lines of the product's log file written since the last call (read on from where it stopped). */
function logFileReader() {
  let read = 0;
  let text = '';
  return () => {
    try {
      const all = readFileSync(join(host!.dir, 'data', 'logs', 'aalis.log'));
      if (all.length > read) {
        text += all.subarray(read).toString('utf8');
        read = all.length;
      }
    } catch {}
    return text;
  };
}

/** What each case uses: the platform's server, its messages in a chat, a chat's history, what a failed wait says. */
function caseTools(index: number) {
  const server = servers[index]!;
  const product = host!;
  return {
    server,
    product,
    sentIn: (chat: ConformanceChat) => server.sent().filter((message) => sameChat(message.chat, chat)),
    history: async (chat: ConformanceChat) =>
      (await product.aalis.app.services.selected(memory)!.impl.readAll(server.sessionId(chat))).map((m) => m.content),
    seen: () =>
      `sent: ${JSON.stringify(server.sent().map(({ chat, text }) => ({ chat, text })))}\nthe log ends with:\n${product
        .logs()
        .split('\n')
        .slice(-25)
        .join('\n')}`,
  };
}

afterAll(async () => {
  for (const cleanup of shared.splice(0).reverse()) await cleanup();
});

function roomFlowCase(driver: PlatformConformanceDriver, index: number) {
  it(`${driver.name}: cooldown, mute with a running turn and budget through the platform`, async () => {
    const server = servers[index]!;
    const product = host!;
    const sentIn = (chat: ConformanceChat) =>
      server
        .sent()
        .filter(
          (message) => message.chat.kind === 'group' && chat.kind === 'group' && message.chat.group === chat.group,
        );
    // What a failed wait says: what she sent, and the end of the product's log.
    const seen = () =>
      `sent: ${JSON.stringify(server.sent())}\nthe log ends with:\n${product.logs().split('\n').slice(-25).join('\n')}`;
    const history = async (chat: ConformanceChat) =>
      (await product.aalis.app.services.selected(memory)!.impl.readAll(server.sessionId(chat))).map((m) => m.content);

    // Cooldown on this group's own settings layer (the configuration has none): set as /session or the WebUI would.
    await product.aalis.app.services.selected(sessionFields)!.impl.set({
      layer: 'session',
      target: server.sessionId(GROUP),
      key: 'flowRoomCooldownSeconds',
      value: 600,
      caller: { via: 'host' },
    });
    // Cooldown: the first addressed message is answered; the next, within the cooldown, gets one notice and is kept.
    fixture.model.enqueue(textReply('First answer.', { usage: { promptTokens: 10, completionTokens: 5 } }));
    await server.deliver({ chat: GROUP, from: 'bob', text: 'hello there', mention: true });
    await waitFor(() => sentIn(GROUP).some((message) => message.text.includes('First answer.')), {
      what: () => `the first answer; ${seen()}`,
    });
    await server.deliver({ chat: GROUP, from: 'bob', text: 'again please', mention: true });
    await waitFor(() => sentIn(GROUP).some((message) => message.text.includes('I just answered')), {
      what: () => `the cooldown notice; ${seen()}`,
    });
    await waitFor(async () => (await history(GROUP)).some((text) => text.includes('again please')), {
      what: 'the held message kept as context',
    });
    expect(fixture.model.requests.length).toBe(1);

    // Mute by the owner while her turn runs: the turn is stopped (its reply never sent), she reads but does not
    // speak; /unmute lets her answer.
    const stoppedByMute = () =>
      product
        .logs()
        .split('\n')
        .some(
          (line) =>
            line.includes('回合结束') &&
            line.includes(`session=${server.sessionId(QUIET)} `) &&
            line.includes('结局=aborted') &&
            line.includes('原因=mute'),
        );
    const running = heldReply('This must not be sent.');
    fixture.cleanups.push(() => running.release());
    fixture.model.enqueue(running.reply);
    await server.deliver({ chat: QUIET, from: 'bob', text: 'tell me a long story', mention: true });
    await waitFor(() => fixture.model.requests.length === 2, { what: 'the running call' });
    await server.deliver({ chat: QUIET, from: 'alice', text: '/mute' });
    await waitFor(() => sentIn(QUIET).some((message) => message.text.includes("All right, I'll keep quiet")), {
      what: () => `the mute reply; ${seen()}`,
    });
    await waitFor(() => stoppedByMute(), { what: 'the stopped turn' });
    running.release();
    const afterMute = sentIn(QUIET).length;
    await server.deliver({ chat: QUIET, from: 'bob', text: 'are you there', mention: true });
    await waitFor(async () => (await history(QUIET)).some((text) => text.includes('are you there')), {
      what: 'the muted room still reading',
    });
    await server.deliver({ chat: QUIET, from: 'alice', text: '/unmute' });
    await waitFor(
      () => sentIn(QUIET).some((message) => message.text.includes('The mute is lifted; I can speak again.')),
      {
        what: () => `the unmute reply; ${seen()}`,
      },
    );
    // Between the mute's reply and the unmute's: nothing (the stopped turn's reply, an answer to the muted room).
    expect(sentIn(QUIET).slice(afterMute, -1)).toEqual([]);
    expect(JSON.stringify(server.sent())).not.toContain('This must not be sent.');
    expect(fixture.model.requests.length).toBe(2);

    // Budget: the quiet room's first turn spends 40 tokens of 30; the next message gets the notice, no model call.
    fixture.model.enqueue(textReply('Second answer.', { usage: { promptTokens: 30, completionTokens: 10 } }));
    await server.deliver({ chat: QUIET, from: 'bob', text: 'now?', mention: true });
    await waitFor(() => sentIn(QUIET).some((message) => message.text.includes('Second answer.')), {
      what: () => `the second answer; ${seen()}`,
    });
    // What she read while muted reached her next turn as context.
    expect(JSON.stringify(fixture.model.chatBodies().at(-1))).toContain('are you there');
    const calls = fixture.model.requests.length;
    await server.deliver({ chat: { kind: 'group', group: 'g3' }, from: 'bob', text: 'elsewhere', mention: true });
    await server.deliver({ chat: QUIET, from: 'bob', text: 'and now?', mention: true });
    await waitFor(() => sentIn(QUIET).some((message) => message.text.includes('budget is used up')), {
      what: () => `the budget notice; ${seen()}`,
    });
    // The other room (its own budget) was answered — its call may come after the notice, the rooms run side by
    // side — and the room over its budget made no call.
    await waitFor(() => fixture.model.requests.length >= calls + 1, { what: 'the other room’s model call' });
    expect(fixture.model.requests.length).toBe(calls + 1);
  }, 60_000);
}

/** A quiet group waiting for the one call slot is served before the busy group's next call. */
function fairQueueCase(driver: PlatformConformanceDriver, index: number) {
  it(`${driver.name}: the fair queue under a cap of one model call`, async () => {
    const { server, product, sentIn, seen } = caseTools(index);
    // What the agent took in (a message for a running turn is taken in, not yet stored, until the turn takes it).
    const accepted: string[] = [];
    const off = product.aalis.app.events.on('agent:accepted', ({ message }) => void accepted.push(message.content));
    fixture.cleanups.push(off);
    const busyRoom: ConformanceChat = { kind: 'group', group: 'g4' };
    const quietRoom: ConformanceChat = { kind: 'group', group: 'g5' };
    const log = logFileReader();
    const said = (body: Record<string, unknown>, text: string) => JSON.stringify(body.messages).includes(text);
    const busy = heldReply('Busy one answered.');
    fixture.cleanups.push(() => busy.release());
    fixture.model.enqueueWhen((body) => said(body, 'busy one') && !said(body, 'busy two'), busy.reply);
    fixture.model.enqueueWhen((body) => said(body, 'quiet one'), textReply('Quiet one answered.', TINY));
    fixture.model.enqueueWhen((body) => said(body, 'busy two'), textReply('Busy two answered.', TINY));
    await server.deliver({ chat: busyRoom, from: 'bob', text: 'busy one', mention: true });
    await waitFor(() => fixture.model.requests.length === 1, { what: () => `the busy call; ${seen()}` });
    await server.deliver({ chat: quietRoom, from: 'alice', text: 'quiet one', mention: true });
    // The quiet group's call waits for the slot the busy group's running call holds.
    const quietSession = server.sessionId(quietRoom);
    await waitFor(() => log().includes(`session=${quietSession} waits for a slot`), {
      what: () => `the quiet call waiting for a slot; ${seen()}`,
    });
    await server.deliver({ chat: busyRoom, from: 'bob', text: 'busy two', mention: true });
    await waitFor(() => accepted.some((text) => text.includes('busy two')), {
      what: 'the busy group’s second message taken in',
    });
    // The cap holds: nothing else reached the model while the busy group's call runs.
    expect(fixture.model.requests.length).toBe(1);
    busy.release();
    await waitFor(() => sentIn(busyRoom).some((message) => message.text.includes('Busy two answered.')), {
      what: () => `the busy group’s second answer; ${seen()}`,
    });
    expect(sentIn(quietRoom).map((message) => message.text)).toEqual([expect.stringContaining('Quiet one answered.')]);
    expect(
      fixture.model
        .chatBodies()
        .map((body) => (said(body, 'quiet one') ? 'quiet' : said(body, 'busy two') ? 'busy two' : 'busy one')),
    ).toEqual(['busy one', 'quiet', 'busy two']);
  }, 60_000);
}

/** A request case, or its skip with the reason where the platform has no request a bot answers. */
function requestCase(driver: PlatformConformanceDriver, title: string, body: () => Promise<void>) {
  const reason = driver.cannot?.['owner-request'];
  if (reason === undefined) it(title, body, 60_000);
  else it.skip(`${title} — not on ${driver.name}: ${reason}`, body);
}

/** bob's request (a friend request; Telegram: being added to a group) is put to the owner in her private chat. */
function requestAskedCase(driver: PlatformConformanceDriver, index: number) {
  requestCase(driver, `${driver.name}: a request from bob is put to the owner`, async () => {
    const { server, sentIn, seen } = caseTools(index);
    const ownerRequest = server.ownerRequest!;
    fixture.model.enqueue(textReply(`Bob asks on ${driver.name}. Accept?`, TINY));
    await ownerRequest.send(driver.name);
    await waitFor(() => sentIn(OWNER_CHAT).some((message) => message.text.includes(`Bob asks on ${driver.name}.`)), {
      what: () => `the question to the owner; ${seen()}`,
    });
    const notice = JSON.stringify(fixture.model.chatBodies().at(-1));
    const id = /request id (r[0-9a-f]+)/.exec(notice)?.[1];
    expect(id).toBeDefined();
    asked.set(driver.name, id!);
    expect(ownerRequest.settled(driver.name)).toBe(false);
  });
}

/** After the restart: the owner's answer settles the request the product kept. */
function requestSettledCase(driver: PlatformConformanceDriver, index: number) {
  requestCase(driver, `${driver.name}: the owner's answer after a restart settles it`, async () => {
    const { server, sentIn, seen } = caseTools(index);
    const ownerRequest = server.ownerRequest!;
    const id = asked.get(driver.name);
    expect(id).toBeDefined();
    fixture.model.enqueue(
      toolCallReply(
        [{ id: 'c1', name: ownerRequest.tool, arguments: JSON.stringify({ id, approve: ownerRequest.approve }) }],
        TINY,
      ),
      textReply(`Done on ${driver.name}.`, TINY),
    );
    await server.deliver({ chat: OWNER_CHAT, from: 'alice', text: ownerRequest.approve ? 'yes, accept' : 'no' });
    await waitFor(() => ownerRequest.settled(driver.name), { what: () => `the request settled; ${seen()}` });
    // Her turn ends with her reply to the owner (its last model call must not take the next case's reply).
    await waitFor(() => sentIn(OWNER_CHAT).some((message) => message.text.includes(`Done on ${driver.name}.`)), {
      what: () => `her reply to the owner; ${seen()}`,
    });
  });
}

/** bob over his rate limit (two, then one a minute, across rooms) is held back with one notice; alice is answered. */
function rateLimitCase(driver: PlatformConformanceDriver, index: number) {
  it(`${driver.name}: a rate limit per person across groups, others answered`, async () => {
    const { server, product, sentIn, history, seen } = caseTools(index);
    const first: ConformanceChat = { kind: 'group', group: 'g6' };
    const second: ConformanceChat = { kind: 'group', group: 'g7' };
    fixture.model.enqueue(
      textReply('For Bob, one.', TINY),
      textReply('For Bob, two.', TINY),
      textReply('For Alice.', TINY),
    );
    await server.deliver({ chat: first, from: 'bob', text: 'one', mention: true });
    await waitFor(() => sentIn(first).some((message) => message.text.includes('For Bob, one.')), {
      what: () => `bob's first answer; ${seen()}`,
    });
    await server.deliver({ chat: first, from: 'bob', text: 'two', mention: true });
    await waitFor(() => sentIn(first).some((message) => message.text.includes('For Bob, two.')), {
      what: () => `bob's second answer; ${seen()}`,
    });
    // His third, in another group: over his limit there, one notice, kept as context.
    await server.deliver({ chat: second, from: 'bob', text: 'three, elsewhere', mention: true });
    await waitFor(() => sentIn(second).some((message) => message.text.includes("That's a lot of messages")), {
      what: () => `the rate notice; ${seen()}`,
    });
    await waitFor(async () => (await history(second)).some((text) => text.includes('three, elsewhere')), {
      what: 'the held message kept as context',
    });
    await server.deliver({ chat: second, from: 'alice', text: 'mine', mention: true });
    await waitFor(() => sentIn(second).some((message) => message.text.includes('For Alice.')), {
      what: () => `alice's answer; ${seen()}`,
    });
    expect(fixture.model.requests.length).toBe(3);
    expect(sentIn(second).map((message) => message.text)).toEqual([
      expect.stringContaining("That's a lot of messages"),
      expect.stringContaining('For Alice.'),
    ]);
    const held = new RegExp(`flow: held #\\d+ session=${server.sessionId(second)} rule=rate\\.person`, 'g');
    expect(product.logs().match(held)).toHaveLength(1);
  }, 60_000);
}

describe('rooms that behave, on every platform', () => {
  DRIVERS.forEach(roomFlowCase);
  DRIVERS.forEach(fairQueueCase);
  DRIVERS.forEach(requestAskedCase);
  it('restarts with a rate limit per person', async () => {
    writeFileSync(join(host!.dir, 'aalis.config.yaml'), configOf(true));
    await host!.stop();
    host = await serve(host!.dir);
  }, 60_000);
  DRIVERS.forEach(requestSettledCase);
  DRIVERS.forEach(rateLimitCase);
});
