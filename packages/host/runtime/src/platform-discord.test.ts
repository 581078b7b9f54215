// plugin-platform-discord through the product (startAalis, the default plugin set) against a Discord gateway and
// REST server of our own (@aalis/testing) and the scripted model server: the platform conformance suite, then what
// is Discord's own on the same product.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { gateway } from '@aalis/api-gateway';
import { VOICE_REPLY_SETTING } from '@aalis/api-media';
import { platform } from '@aalis/api-platform';
import { sessionManager } from '@aalis/api-session-manager';
import { sessionFields } from '@aalis/api-session-settings';
import { textReply } from '@aalis/testing';
import { expect, it } from 'vitest';
import { describePlatformConformance } from './platform-conformance.case.js';
import { conformanceDriver, DISCORD_ROLE, DISCORD_USERS } from './platform-discord-driver.case.js';
import { waitFor } from './spawn-aalis.case.js';
import { startAalis } from './start-aalis.js';

const until = (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) =>
  waitFor(check, { what, timeoutMs });

describePlatformConformance(conformanceDriver, (context) => {
  it('sends a voice reply as a plain audio file where the channel refuses voice messages', async () => {
    const { discord, channelOf } = context.server;
    const group = { kind: 'group', group: 'no-voice-messages' } as const;
    discord.refuseVoiceMessages(channelOf(group.group));
    await context.aalis.app.services.selected(sessionFields)!.impl.set({
      layer: 'session',
      target: context.server.sessionId(group),
      key: VOICE_REPLY_SETTING,
      value: true,
      caller: { via: 'host' },
    });
    context.model.enqueue(textReply('Listen to this.'));
    await context.server.deliver({ chat: group, from: 'alice', text: 'talk to me', mention: true });
    await context.reply(group, 'Listen to this.');
    const channel = channelOf(group.group);
    const isFile = (sent: (typeof discord.sent)[number]) => sent.channelId === channel && sent.files?.length === 1;
    await until(() => discord.sent.some(isFile), 'the voice as a file');
    const file = discord.sent.find(isFile)!;
    expect(file.flags).toBeUndefined();
    expect(file.content).toBe('');
    expect(file.files![0]).toMatchObject({ name: 'voice.ogg', contentType: 'audio/ogg' });
    expect(file.files![0]!.bytes.subarray(0, 4).toString('latin1')).toBe('OggS');
  });

  it('resumed the gateway session after the drop: one IDENTIFY per start, nothing said meanwhile lost', async () => {
    const { discord } = context.server;
    expect(discord.resumed()).toBeGreaterThanOrEqual(1);
    // The first start and the restart identified; the drop (with its refused reconnects) resumed.
    expect(discord.identified()).toBe(2);
    // A client sends its first heartbeat after a random share of the interval (Discord's jitter), and every socket of
    // the suite may have been younger than that: wait for one rather than read the count at once.
    await until(() => discord.heartbeats() > 0, 'a heartbeat');
  });

  it('a reconnect under way when she stops goes no further: the next start alone connects', async () => {
    const { discord } = context.server;
    const before = { identified: discord.identified(), resumed: discord.resumed(), silent: discord.silentSockets() };
    // The gateway client pauses before it reconnects after a drop: she stops within that pause.
    discord.dropSockets();
    const status = () =>
      context.aalis.app.services
        .selected(platform)!
        .impl.states()
        .find((entry) => entry.id === 'discord')?.status;
    await until(() => status() === 'reconnecting', 'the drop noticed');
    await context.restart();
    // The stopped host's attempt still opens a socket after its pause, and closes it at HELLO without a word.
    await until(() => discord.silentSockets() > before.silent, 'the stopped host’s attempt closed, silent');
    expect(discord.identified()).toBe(before.identified + 1);
    expect(discord.resumed()).toBe(before.resumed);
  });

  it('registers the host’s commands as slash commands and answers one in place of the "thinking" placeholder', async () => {
    const { discord } = context.server;
    await until(() => discord.commands() !== undefined, 'the command registration');
    const registered = discord.commands()!;
    expect(registered.map((command) => command.name)).toEqual(expect.arrayContaining(['help', 'stop', 'model']));
    for (const command of registered) {
      expect(String(command.name)).toMatch(/^[-_a-z0-9]{1,32}$/);
      expect(command).toMatchObject({
        type: 1,
        options: [{ type: 3, name: 'arguments', required: false }],
        description_localizations: { 'zh-CN': expect.any(String) },
      });
    }
    const { token } = discord.command({
      channelId: discord.dmChannel(DISCORD_USERS.alice),
      user: DISCORD_USERS.alice,
      name: 'help',
    });
    await until(
      () => discord.interactionCalls.some((call) => call.token === token && call.kind === 'edit-original'),
      'the answer to /help',
    );
    const calls = discord.interactionCalls.filter((call) => call.token === token);
    expect(calls[0]).toMatchObject({ kind: 'callback', body: { type: 5 } });
    expect(String(calls.find((call) => call.kind === 'edit-original')?.body.content)).toContain('/clear');
    // A command never reaches the model.
    expect(JSON.stringify(context.model.chatBodies())).not.toContain('/help');
  });

  it('takes a thread as a session of its own, titled after guild, channel and thread', async () => {
    const { discord, channels, channelOf } = context.server;
    const parent = channelOf('g-forum');
    const thread = '1000000000000000999';
    channels.push({ id: thread, name: 'release plans', type: 11, parentId: parent });
    discord.dispatch('THREAD_CREATE', {
      id: thread,
      type: 11,
      guild_id: '1000000000000000100',
      parent_id: parent,
      name: 'release plans',
    });
    context.model.enqueue(textReply('In the thread.'));
    discord.message({
      channelId: thread,
      author: DISCORD_USERS.bob,
      content: `<@${discord.bot.id}> when do we ship?`,
      mentions: [discord.bot],
    });
    await until(() => discord.sent.some((sent) => sent.channelId === thread), 'the reply in the thread');
    // Typing was shown in the thread while she worked.
    expect(
      discord.requests.some((request) => request.method === 'POST' && request.path === `/channels/${thread}/typing`),
    ).toBe(true);
    const sessions = context.aalis.app.services.selected(sessionManager)!.impl;
    expect(await sessions.get(`discord:group:${thread}`)).toMatchObject({
      kind: 'room',
      title: `Test guild #g-forum › release plans`,
      originChat: { multiParty: true },
    });
  });

  it('takes a mention of her managed role as addressing her', async () => {
    const { discord, channelOf } = context.server;
    const channelId = channelOf('g-role');
    context.model.enqueue(textReply('Role call answered.'));
    const { id } = discord.message({
      channelId,
      author: DISCORD_USERS.bob,
      content: `<@&${DISCORD_ROLE}> are you there?`,
      mentionRoles: [DISCORD_ROLE],
    });
    const answer = await context.reply({ kind: 'group', group: 'g-role' }, 'Role call answered.');
    expect(answer.quote).toBe(id);
    expect(JSON.stringify(context.model.chatBodies().at(-1))).not.toContain(`<@&${DISCORD_ROLE}>`);
  });

  it('reads no other bot; splits a long reply at 2000 with tables as code blocks, pinging nobody', async () => {
    const { discord, channelOf } = context.server;
    const channelId = channelOf('g-long');
    const calls = context.model.chatBodies().length;
    discord.message({
      channelId,
      author: { id: '1100000000000000099', username: 'otherbot', bot: true },
      content: `<@${discord.bot.id}> answer me`,
      mentions: [discord.bot],
    });
    const table = '| name | points |\n|---|---|\n| Alice | 3 |';
    const long = Array.from({ length: 300 }, (_, index) => `word${index}`).join(' ');
    context.model.enqueue(textReply(`${table}\n\n${long} @everyone`));
    discord.message({
      channelId,
      author: DISCORD_USERS.alice,
      content: `<@${discord.bot.id}> a long one`,
      mentions: [discord.bot],
    });
    const contents = () =>
      discord.sent
        .filter((sent) => sent.channelId === channelId)
        .map((sent) => sent.content)
        .join(' ');
    await until(() => contents().includes('word299 @everyone'), 'the last piece');
    await until(() => context.model.pending() === 0, 'the turn');
    expect(context.model.chatBodies()).toHaveLength(calls + 1);
    expect(JSON.stringify(context.model.chatBodies().at(-1))).not.toContain('answer me');
    const pieces = discord.sent.filter((sent) => sent.channelId === channelId);
    for (const piece of pieces) {
      expect(piece.content.length).toBeLessThanOrEqual(2000);
      expect(piece.allowedMentions).toMatchObject({ parse: [] });
    }
    expect(pieces[0]!.content).toContain('```\nname  | points\n------+-------\nAlice | 3\n```');
    expect(pieces.length).toBeGreaterThanOrEqual(2);
  });

  it('reads an attached image as an image and an attached file by its name', async () => {
    const { discord } = context.server;
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const chat = { kind: 'private', user: 'alice' } as const;
    context.model.enqueue(textReply('A tiny picture.'));
    discord.message({
      channelId: discord.dmChannel(DISCORD_USERS.alice),
      author: DISCORD_USERS.alice,
      content: 'what is this?',
      attachments: [
        { url: discord.addAttachment('dot.png', png, 'image/png'), filename: 'dot.png', content_type: 'image/png' },
        {
          url: discord.addAttachment('gone.pdf', new Uint8Array(0), 'application/pdf').replace('gone', 'missing'),
          filename: 'gone.pdf',
          content_type: 'application/pdf',
        },
      ],
    });
    await context.reply(chat, 'A tiny picture.');
    const request = JSON.stringify(context.model.chatBodies().at(-1));
    expect(request).toContain('data:image/png;base64,');
    expect(request).toContain('gone.pdf');
  });

  it('sends attachments: an inline image uploaded as a file, an http(s) image as an embed, another file as a link', async () => {
    const { discord } = context.server;
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const channelId = discord.dmChannel(DISCORD_USERS.alice);
    const before = discord.sent.length;
    await context.aalis.app.services.selected(gateway)!.impl.dispatchOutbound({
      sessionId: context.server.sessionId({ kind: 'private', user: 'alice' }),
      platform: 'discord',
      content: 'Your chart.',
      kind: 'system',
      attachments: [
        { type: 'image', mimeType: 'image/png', data: png, name: 'chart.png' },
        { type: 'image', url: 'https://example.com/photo.jpg' },
        { type: 'file', url: 'https://example.com/report.pdf', name: 'report.pdf' },
      ],
    });
    await until(() => discord.sent.length >= before + 2, 'the messages with the attachments');
    const sent = discord.sent.slice(before);
    expect(sent.every((message) => message.channelId === channelId)).toBe(true);
    expect(sent[0]!.content).toBe('Your chart.');
    expect(sent.at(-1)).toMatchObject({
      content: 'https://example.com/report.pdf',
      files: [{ name: 'chart.png', contentType: 'image/png', size: 70 }],
      embeds: [{ image: { url: 'https://example.com/photo.jpg' } }],
    });
  });

  it('waits out a 429 by its retry_after and delivers', async () => {
    const { discord } = context.server;
    discord.failNext(/^POST \/channels\/\d+\/messages$/, { status: 429, retryAfter: 0.2 });
    const chat = { kind: 'private', user: 'bob' } as const;
    context.model.enqueue(textReply('After the rate limit.'));
    await context.server.deliver({ chat, from: 'bob', text: 'hurry' });
    await context.reply(chat, 'After the rate limit.');
    expect(context.logs()).toMatch(/Discord: rate limited on POST \/channels\/:id\/messages; waiting \d+ ms/);
  });

  it('connects to a configured gatewayUrl without asking GET /gateway/bot', async () => {
    const { discord } = context.server;
    const dir = mkdtempSync(join(tmpdir(), 'aalis-discord-gateway-url-'));
    writeFileSync(
      join(dir, 'aalis.config.yaml'),
      `locale: en\nplugins:\n  memory-summary: false\n  platform-discord: ${JSON.stringify({
        ...context.server.settings(),
        gatewayUrl: discord.gatewayUrl,
        registerCommands: false,
      })}\n`,
    );
    const identified = discord.identified();
    const requests = discord.requests.length;
    const output = new PassThrough();
    output.resume();
    const aalis = await startAalis({ env: {}, mode: 'none', cwd: dir, output, errorOutput: output });
    try {
      await until(() => discord.identified() === identified + 1, 'the IDENTIFY through the configured gateway');
      expect(discord.requests.slice(requests).some((request) => request.path === '/gateway/bot')).toBe(false);
    } finally {
      await aalis.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a refused token: logged once with its code and key, listed as refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aalis-discord-refused-'));
    const output = new PassThrough();
    let text = '';
    output.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    writeFileSync(
      join(dir, 'aalis.config.yaml'),
      `locale: en\nplugins:\n  memory-summary: false\n  platform-discord: ${JSON.stringify({
        token: 'not-the-token',
        apiBase: context.server.discord.apiUrl,
        retryDelayMs: 5_000,
      })}\n`,
    );
    const aalis = await startAalis({ env: {}, mode: 'none', cwd: dir, output, errorOutput: output });
    try {
      await until(() => text.includes('AALIS_DISCORD_TOKEN_REJECTED'), 'the refusal');
      const state = aalis.app.services
        .selected(platform)!
        .impl.states()
        .find((entry) => entry.id === 'discord');
      expect(state).toMatchObject({
        status: 'refused',
        configKey: 'plugins.platform-discord.token',
        error: { code: 'AALIS_DISCORD_TOKEN_REJECTED' },
      });
      expect(text).not.toContain('not-the-token');
      expect(text.split('AALIS_DISCORD_TOKEN_REJECTED').length - 1).toBe(1);
    } finally {
      await aalis.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
