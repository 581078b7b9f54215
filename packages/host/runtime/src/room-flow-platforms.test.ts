// Rooms that behave, the same case for every platform driver given here (OneBot and Telegram today; a later platform
// adds its driver to the list): through the platform's own protocol server and the product, a flooded group is
// cooled down by its own settings layer (one answer, one notice), an owner's /mute silences her while she keeps reading and /unmute lets her
// answer, and a chat over its budget gets the notice instead of a model call. One product per platform, one `it`.
import { memory } from '@aalis/api-memory';
import { sessionFields } from '@aalis/api-session-settings';
import { textReply } from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import type { ConformanceChat, ConformanceServer, PlatformConformanceDriver } from './platform-driver.case.js';
import { conformanceConfig } from './platform-driver.case.js';
import { conformanceDriver as onebot } from './platform-onebot-driver.case.js';
import { conformanceDriver as telegram } from './platform-telegram-driver.case.js';
import { productWorkspace, startProduct, useProductFixture } from './product-host.case.js';
import { waitFor } from './spawn-aalis.case.js';

const fixture = useProductFixture();
const GROUP: ConformanceChat = { kind: 'group', group: 'g1' };
const QUIET: ConformanceChat = { kind: 'group', group: 'g2' };

function roomFlowCase(driver: PlatformConformanceDriver) {
  it(`${driver.name}: cooldown, mute and budget through the platform`, async () => {
    const server: ConformanceServer = await driver.start();
    fixture.cleanups.push(() => server.close());
    const config = `${conformanceConfig(server, fixture.model.url)}  flow-control: { noticeWindowSeconds: 60 }
  budget: { roomPerDay: 30 }
`;
    const before = server.connections();
    const host = await startProduct(fixture, productWorkspace(fixture, config, `aalis-room-flow-${driver.name}-`));
    await waitFor(() => server.connections() > before, { what: `${driver.name} connecting`, timeoutMs: 10_000 });
    const sentIn = (chat: ConformanceChat) =>
      server
        .sent()
        .filter(
          (message) => message.chat.kind === 'group' && chat.kind === 'group' && message.chat.group === chat.group,
        );
    const history = async (chat: ConformanceChat) =>
      (await host.aalis.app.services.selected(memory)!.impl.readAll(server.sessionId(chat))).map((m) => m.content);

    // Cooldown on this group's own settings layer (the configuration has none): set as /session or the WebUI would.
    await host.aalis.app.services.selected(sessionFields)!.impl.set({
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
      what: () => `the first answer; sent: ${JSON.stringify(server.sent())}`,
    });
    await server.deliver({ chat: GROUP, from: 'bob', text: 'again please', mention: true });
    await waitFor(() => sentIn(GROUP).some((message) => message.text.includes('I just answered')), {
      what: () => `the cooldown notice; sent: ${JSON.stringify(server.sent())}`,
    });
    await waitFor(async () => (await history(GROUP)).some((text) => text.includes('again please')), {
      what: 'the held message kept as context',
    });
    expect(fixture.model.requests.length).toBe(1);

    // Mute by the owner: she reads but does not speak; /unmute lets her answer.
    await server.deliver({ chat: QUIET, from: 'alice', text: '/mute' });
    await waitFor(() => sentIn(QUIET).length >= 1, {
      what: () => `the mute reply; sent: ${JSON.stringify(server.sent())}`,
    });
    const afterMute = sentIn(QUIET).length;
    await server.deliver({ chat: QUIET, from: 'bob', text: 'are you there', mention: true });
    await waitFor(async () => (await history(QUIET)).some((text) => text.includes('are you there')), {
      what: 'the muted room still reading',
    });
    expect(sentIn(QUIET).length).toBe(afterMute);
    expect(fixture.model.requests.length).toBe(1);
    await server.deliver({ chat: QUIET, from: 'alice', text: '/unmute' });
    await waitFor(() => sentIn(QUIET).length > afterMute, { what: 'the unmute reply' });

    // Budget: the quiet room's first turn spends 40 tokens of 30; the next message gets the notice, no model call.
    fixture.model.enqueue(textReply('Second answer.', { usage: { promptTokens: 30, completionTokens: 10 } }));
    await server.deliver({ chat: QUIET, from: 'bob', text: 'now?', mention: true });
    await waitFor(() => sentIn(QUIET).some((message) => message.text.includes('Second answer.')), {
      what: () => `the second answer; sent: ${JSON.stringify(server.sent())}`,
    });
    const calls = fixture.model.requests.length;
    await server.deliver({ chat: { kind: 'group', group: 'g3' }, from: 'bob', text: 'elsewhere', mention: true });
    await server.deliver({ chat: QUIET, from: 'bob', text: 'and now?', mention: true });
    await waitFor(() => sentIn(QUIET).some((message) => message.text.includes('budget is used up')), {
      what: () => `the budget notice; sent: ${JSON.stringify(server.sent())}`,
    });
    // The other room (its own budget) was answered — its call may come after the notice, the rooms run side by
    // side — and the room over its budget made no call.
    await waitFor(() => fixture.model.requests.length >= calls + 1, { what: 'the other room’s model call' });
    expect(fixture.model.requests.length).toBe(calls + 1);
  }, 60_000);
}

describe('rooms that behave, on every platform', () => {
  for (const driver of [onebot, telegram] as PlatformConformanceDriver[]) roomFlowCase(driver);
});
