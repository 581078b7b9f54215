// Rooms that behave, the same case for every platform driver (the nine adapters): through the platform's own
// protocol server and the product, a flooded group is cooled down by its own settings layer (one answer, one
// notice), an owner's /mute stops her running turn (its reply never sent) and silences her while she keeps reading,
// /unmute lets her answer, and a chat over its budget gets the notice instead of a model call. One product per
// platform, one `it`. The fair queue, the rate limit and the friend request run over OneBot (room-flow.onebot.test.ts).
import { memory } from '@aalis/api-memory';
import { sessionFields } from '@aalis/api-session-settings';
import { textReply } from '@aalis/testing';
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

const DRIVERS = [onebot, telegram, discord, slack, lark, dingtalk, qq, wecom, satori] as PlatformConformanceDriver[];

/** Every platform's server, and ONE product serving them all (one boot for the file, not one per platform). */
let servers: ConformanceServer[] = [];
let host: ProductHost | undefined;
const shared: Cleanup[] = [];

beforeAll(async () => {
  servers = await Promise.all(DRIVERS.map((driver) => driver.start()));
  shared.push(() => Promise.all(servers.map((server) => server.close())));
  const config = `${conformanceConfig(servers, fixture.model.url)}  flow-control: { noticeWindowSeconds: 60 }
  budget: { roomPerDay: 30 }
`;
  const before = servers.map((server) => server.connections());
  host = await startProduct(
    { model: fixture.model, cleanups: shared },
    productWorkspace({ model: fixture.model, cleanups: shared }, config, 'aalis-room-flow-platforms-'),
  );
  await waitFor(() => servers.every((server, index) => server.connections() > before[index]!), {
    what: () =>
      `every platform connecting: ${DRIVERS.filter((_, index) => servers[index]!.connections() <= before[index]!)
        .map((driver) => driver.name)
        .join(', ')} not yet`,
    timeoutMs: 20_000,
  });
}, 60_000);

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

describe('rooms that behave, on every platform', () => {
  DRIVERS.forEach(roomFlowCase);
});
