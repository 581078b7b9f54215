// plugin-platform-slack through the product (startAalis, the default plugin set) against a Slack server of our own
// (@aalis/testing: Socket Mode over a real WebSocket, the Web API over real HTTP) and the scripted model server: the
// platform conformance suite, then what is Slack's own on the same product.
import { platform } from '@aalis/api-platform';
import { startSlackServer, textReply } from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { describePlatformConformance } from './platform-conformance.case.js';
import { conformanceDriver, SLACK_APP_TOKEN, SLACK_BOT_TOKEN } from './platform-slack-driver.case.js';
import { productWorkspace, startProduct, useProductFixture } from './product-host.case.js';
import { waitFor } from './spawn-aalis.case.js';
import { failInputStores, storedInputs } from './storage-faults.case.js';

describePlatformConformance(conformanceDriver, (context) => {
  it('acknowledges every envelope, reads a mention once though Slack sends it twice, and answers in mrkdwn', async () => {
    const { server, model } = context;
    const { slack } = server;
    model.enqueue(textReply('**Done**: see [the docs](https://example.com/docs) & `npm test`.'));
    const sent = slack.message({
      channel: 'CSLACK1',
      user: 'U0BOB',
      text: `<@${slack.bot.userId}> check <#C123|general> &amp; <https://example.com|this>`,
      appMention: true,
    });
    const reply = await context.reply({ kind: 'group', group: 'slack1' }, 'Done');
    expect(reply.text).toBe('*Done*: see <https://example.com/docs|the docs> & `npm test`.');
    const posted = slack.posted.find((entry) => entry.ts === reply.id);
    expect(posted).toMatchObject({ channel: 'CSLACK1', threadTs: sent.ts, broadcast: true });
    await slack.waitFor(() => sent.envelopeIds.every((id) => slack.acks.includes(id)));
    const request = JSON.stringify(model.chatBodies().at(-1));
    expect(request).toContain('check #general & this (https://example.com)');
    expect(model.chatBodies().filter((body) => JSON.stringify(body).includes('check #general'))).toHaveLength(1);
  });

  it('acknowledges an envelope only once its input is stored; one left unacknowledged is stored once when redelivered', async () => {
    const { server, model } = context;
    const { slack } = server;
    const fault = failInputStores(context.aalis);
    model.enqueue(textReply('Kept in Slack.'));
    const sent = slack.message({
      channel: 'CSLACK3',
      user: 'U0BOB',
      text: `<@${slack.bot.userId}> the store fails once`,
    });
    await waitFor(() => context.logs().includes('Slack: an event could not be stored'), {
      what: 'the refused store',
      timeoutMs: 10_000,
    });
    fault.restore();
    expect(fault.failed()).toBe(1);
    expect(sent.envelopeIds.some((id) => slack.acks.includes(id))).toBe(false);
    expect(slack.redeliver()).toEqual(sent.envelopeIds);
    await context.reply({ kind: 'group', group: 'slack3' }, 'Kept in Slack.');
    await slack.waitFor(() => sent.envelopeIds.every((id) => slack.acks.includes(id)));
    expect(storedInputs(context.aalis, 'the store fails once')).toBe(1);
  });

  it('a thread is a session of its own, answered in the thread; a 429 is waited out (Retry-After)', async () => {
    const { server, model } = context;
    const { slack } = server;
    const root = slack.message({ channel: 'CSLACK2', user: 'U0ALICE', text: 'starting a thread' });
    slack.failNext('chat.postMessage', 429, 1, 1);
    model.enqueue(textReply('In the thread.'));
    slack.message({
      channel: 'CSLACK2',
      user: 'U0ALICE',
      text: `<@${slack.bot.userId}> in here`,
      threadTs: root.ts,
      parentUserId: 'U0ALICE',
    });
    const reply = await context.reply({ kind: 'group', group: 'slack2' }, 'In the thread.');
    expect(slack.posted.find((entry) => entry.ts === reply.id)).toMatchObject({ threadTs: root.ts });
    expect(slack.posted.find((entry) => entry.ts === reply.id)?.broadcast).toBeUndefined();
    expect(
      slack.calls.filter((call) => call.method === 'chat.postMessage' && call.body.text === 'In the thread.'),
    ).toHaveLength(2);
    // The thread's session is its own: the channel's message before it is not in its turn.
    const turn = JSON.stringify(model.chatBodies().at(-1));
    expect(turn).toContain('in here');
    expect(turn).not.toContain('starting a thread');
  });

  it('opens a new socket when Slack asks (disconnect: refresh_requested)', async () => {
    const { server, model } = context;
    const { slack } = server;
    const before = slack.connections();
    slack.requestRefresh();
    await slack.waitFor(() => slack.connections() > before);
    model.enqueue(textReply('Refreshed.'));
    slack.message({ channel: 'DU0ALICE', channelType: 'im', user: 'U0ALICE', text: 'still there?' });
    await context.reply({ kind: 'private', user: 'alice' }, 'Refreshed.');
  });
});

const fixture = useProductFixture();

describe('Slack with a refused token', () => {
  it('logs AALIS_SLACK_TOKEN_REJECTED naming the key, shows refused in its live state, and never logs the token', async () => {
    const slack = await startSlackServer({ botToken: SLACK_BOT_TOKEN, appToken: SLACK_APP_TOKEN });
    fixture.cleanups.push(() => slack.close());
    const wrong = 'xoxb-0000-1111-wrongBotSecret';
    const dir = productWorkspace(
      fixture,
      `locale: en
logLevel: debug
llm: { baseUrl: ${fixture.model.url}, model: test-model }
plugins:
  llm-openai: { fetchModels: false }
  platform-slack: { botToken: ${wrong}, appToken: ${SLACK_APP_TOKEN}, apiUrl: ${slack.apiUrl}, retryDelayMs: 20 }
`,
    );
    const host = await startProduct(fixture, dir);
    const state = () =>
      host.aalis.app.services
        .selected(platform)
        ?.impl.states()
        .find((entry) => entry.id === 'slack');
    await waitFor(() => state()?.status === 'refused', { what: 'the refused state', timeoutMs: 10_000 });
    expect(state()).toMatchObject({
      configKey: 'plugins.platform-slack.botToken',
      error: { code: 'AALIS_SLACK_TOKEN_REJECTED' },
    });
    expect(host.logs()).toContain('AALIS_SLACK_TOKEN_REJECTED');
    expect(host.logs()).not.toContain(wrong);
    expect(slack.connections()).toBe(0);
  });
});
