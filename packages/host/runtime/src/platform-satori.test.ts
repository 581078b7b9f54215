// plugin-platform-satori through the product (startAalis, the default plugin set) against a Satori server of our
// own (@aalis/testing: a real event socket and HTTP API) and the scripted model server: the platform conformance
// suite, then what is Satori's own on the same product.
import { textReply, toolCallReply } from '@aalis/testing';
import { expect, it } from 'vitest';
import { describePlatformConformance } from './platform-conformance.case.js';
import { conformanceDriver } from './platform-satori-driver.case.js';

describePlatformConformance(conformanceDriver, (context) => {
  it('sends with her login in the API headers, escaping the markup, and logs the logins it connected with', async () => {
    const { server, model } = context;
    const chat = { kind: 'private', user: 'alice' } as const;
    model.enqueue(textReply('Hello <there> & welcome.'));
    await server.deliver({ chat, from: 'alice', text: 'say hello' });
    await context.reply(chat, 'Hello <there> & welcome.');
    const call = server.satori.calls.filter((entry) => entry.method === 'message.create').at(-1);
    expect(call).toMatchObject({
      body: { channel_id: 'dm-alice', content: 'Hello &lt;there&gt; &amp; welcome.' },
      headers: { 'satori-platform': 'discord', 'satori-user-id': 'bot-1' },
    });
    expect(context.logs()).toContain('Satori: connected; logins discord:bot-1');
  });

  it('puts an invitation into a group to the owner and settles it with guild.approve; leaves a join request to the group admins', async () => {
    const { server, model } = context;
    const owner = { kind: 'private', user: 'alice' } as const;
    model.enqueue(textReply('Bob invites me to Book club. Join?'));
    const invitation = server.satori.request({
      type: 'guild-request',
      userId: 'bob',
      name: 'Bob',
      guildId: 'club',
      guildName: 'Book club',
      comment: 'we read',
    });
    await context.reply(owner, 'Bob invites me to Book club.');
    const notice = JSON.stringify(model.chatBodies().at(-1));
    expect(notice).toContain('invites her into the group \\"Book club\\" (group club) on discord: invited by Bob');
    // The owner was asked in the direct channel the Satori server opened with her.
    expect(
      server.satori.calls.some((call) => call.method === 'user.channel.create' && call.body.user_id === 'alice'),
    ).toBe(true);
    const id = /request id (r[0-9a-f]+)/.exec(notice)?.[1];
    model.enqueue(
      toolCallReply([{ id: 'c1', name: 'satori_request_answer', arguments: JSON.stringify({ id, approve: true }) }]),
      textReply('Joined Book club.'),
    );
    await server.deliver({ chat: owner, from: 'alice', text: 'yes, join' });
    await context.reply(owner, 'Joined Book club.');
    // Someone asking to join a group is the group's admins' business (requests.guildMember: ignore).
    server.satori.request({ type: 'guild-member-request', userId: 'carol', guildId: 'club', guildName: 'Book club' });
    await server.satori.waitFor(() =>
      /guildMember request r[0-9a-f]+ from discord:carol → ignore/.test(context.logs()),
    );
    expect(server.satori.approvals()).toEqual([{ method: 'guild.approve', messageId: invitation, approve: true }]);
  });
});
