// QQ's gateway, DingTalk's Stream socket and WeCom's callback server across two hosts on one PostgreSQL: one host
// holds each (the database lease), the other shows standby in its live state, and takes over when the first stops.
// One test for the three: the first boot on a fresh database is most of its time.
import { createServer } from 'node:net';
import { platform } from '@aalis/api-platform';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import { startWecomBotServer, textReply } from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { conformanceDriver as dingtalkDriver } from './platform-dingtalk-driver.case.js';
import { conformanceDriver as qqDriver } from './platform-qq-driver.case.js';
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

/** A port free right now (WeCom's callback port must be the same on both hosts). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

describe('QQ, DingTalk and WeCom across two hosts on one PostgreSQL', () => {
  it('each connection is held by one host at a time, the other on standby, and taken over when that host stops', async () => {
    const database = await throwawayDatabase();
    const qq = await qqDriver.start();
    const dingtalk = await dingtalkDriver.start();
    const wecom = await startWecomBotServer({ pollMs: 30 });
    cleanups.push(
      () => qq.close(),
      () => dingtalk.close(),
      () => wecom.close(),
    );
    const port = await freePort();
    wecom.setCallback(`http://127.0.0.1:${port}/wecom/callback`);
    const wecomSettings = { token: wecom.token, encodingAESKey: wecom.encodingAESKey, port };
    const host = () =>
      startLeaseHost(fixture, {
        database,
        platforms: `  ${qq.section}: ${JSON.stringify(qq.settings())}
  ${dingtalk.section}: ${JSON.stringify(dingtalk.settings())}
  platform-wecom: ${JSON.stringify(wecomSettings)}`,
        prefix: 'aalis-qq-dingtalk-wecom-lease-',
      });
    const first = await host();
    await until(
      () => qq.connections() === 1 && dingtalk.connections() === 1 && statusOf(first, 'wecom') === 'connected',
      'the first host connecting',
    );
    const second = await host();
    await until(
      () => ['qq', 'dingtalk', 'wecom'].every((id) => statusOf(second, id) === 'standby'),
      'the second host on standby',
    );
    expect(['qq', 'dingtalk', 'wecom'].map((id) => statusOf(first, id))).toEqual([
      'connected',
      'connected',
      'connected',
    ]);
    // Longer than the lease's time to live: the second host still has not connected.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect([qq.connections(), dingtalk.connections()]).toEqual([1, 1]);

    await first.stop();
    await until(
      () => qq.connections() === 2 && dingtalk.connections() === 2 && statusOf(second, 'wecom') === 'connected',
      'the takeover',
    );
    fixture.model.enqueue(
      textReply('QQ from the second host.'),
      textReply('DingTalk from the second host.'),
      textReply('WeCom from the second host.'),
    );
    await qq.deliver({ chat: { kind: 'private', user: 'alice' }, from: 'alice', text: 'hi' });
    await dingtalk.deliver({ chat: { kind: 'private', user: 'alice' }, from: 'alice', text: 'hi' });
    await wecom.message({ userId: 'alice', text: 'hi' });
    await until(
      () => qq.sent().length === 1 && dingtalk.sent().length === 1 && wecom.sent.length === 1,
      'the three replies',
    );
    await second.stop();
  }, 60_000);
});
