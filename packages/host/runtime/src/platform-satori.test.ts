// plugin-platform-satori through the product (startAalis, the default plugin set) against a Satori server of our
// own (@aalis/testing: a real event socket and HTTP API) and the scripted model server: the platform conformance
// suite, then what is Satori's own on the same product.
import { textReply } from '@aalis/testing';
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
});
