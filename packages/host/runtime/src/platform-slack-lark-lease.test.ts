// Slack's socket, Feishu/Lark's long connection and Discord's gateway across two hosts on one PostgreSQL: one host
// holds each (the database lease), the other shows standby in its live state, and takes over when the first stops.
// One test for the three: the first boot on a fresh database is most of its time.
import { platform } from '@aalis/api-platform';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import { textReply } from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { conformanceDriver as discordDriver } from './platform-discord-driver.case.js';
import { conformanceDriver as larkDriver } from './platform-lark-driver.case.js';
import { conformanceDriver as slackDriver } from './platform-slack-driver.case.js';
import { type ProductHost, startLeaseHost, useProductFixture } from './product-host.case.js';
import { waitFor } from './spawn-aalis.case.js';

const fixture = useProductFixture();
const { cleanups } = fixture;

const until = (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000) =>
  waitFor(check, { what, timeoutMs });

const statusOf = (host: ProductHost, id: string) =>
  host.aalis.app.services
    .selected(platform)
    ?.impl.states()
    .find((state) => state.id === id)?.status;

describe('Slack, Feishu/Lark and Discord across two hosts on one PostgreSQL', () => {
  it('each connection is held by one host at a time, the other on standby, and taken over when that host stops', async () => {
    const database = await throwawayDatabase();
    const slack = await slackDriver.start();
    const lark = await larkDriver.start();
    const discord = await discordDriver.start();
    cleanups.push(
      () => slack.close(),
      () => lark.close(),
      () => discord.close(),
    );
    const host = () =>
      startLeaseHost(fixture, {
        database,
        platforms: `  ${slack.section}: ${JSON.stringify(slack.settings())}
  ${lark.section}: ${JSON.stringify(lark.settings())}
  ${discord.section}: ${JSON.stringify(discord.settings())}`,
        prefix: 'aalis-slack-lark-lease-',
      });
    const first = await host();
    await until(
      () => slack.connections() === 1 && lark.connections() === 1 && discord.connections() === 1,
      'the first host connecting',
    );
    const second = await host();
    await until(
      () =>
        statusOf(second, 'slack') === 'standby' &&
        statusOf(second, 'lark') === 'standby' &&
        statusOf(second, 'discord') === 'standby',
      'the second host on standby',
    );
    expect(statusOf(first, 'slack')).toBe('connected');
    expect(statusOf(first, 'lark')).toBe('connected');
    expect(statusOf(first, 'discord')).toBe('connected');
    // Longer than the lease's time to live: the second host still has not connected.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect([slack.connections(), lark.connections(), discord.connections()]).toEqual([1, 1, 1]);

    await first.stop();
    await until(
      () => slack.connections() === 2 && lark.connections() === 2 && discord.connections() === 2,
      'the takeover',
    );
    fixture.model.enqueue(
      textReply('From the second host.'),
      textReply('Also from the second host.'),
      textReply('And on Discord.'),
    );
    await slack.deliver({ chat: { kind: 'private', user: 'alice' }, from: 'alice', text: 'hi' });
    await lark.deliver({ chat: { kind: 'private', user: 'alice' }, from: 'alice', text: 'hi' });
    await discord.deliver({ chat: { kind: 'private', user: 'alice' }, from: 'alice', text: 'hi' });
    await until(
      () => slack.sent().length === 1 && lark.sent().length === 1 && discord.sent().length === 1,
      'the three replies',
    );
    expect(statusOf(second, 'slack')).toBe('connected');
    expect(statusOf(second, 'lark')).toBe('connected');
    expect(statusOf(second, 'discord')).toBe('connected');
    await second.stop();
  }, 60_000);
});
