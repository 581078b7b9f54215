// plugin-platform-slack through the product (startAalis, the default plugin set) against a Slack server of our own
// (@aalis/testing: Socket Mode over a real WebSocket, the Web API over real HTTP) and the scripted model server: the
// platform conformance suite, then what is Slack's own on the same product.
import { textReply } from '@aalis/testing';
import { expect, it } from 'vitest';
import { describePlatformConformance } from './platform-conformance.case.js';
import { conformanceDriver } from './platform-slack-driver.case.js';

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
});
