// The conformance driver for plugin-platform-wecom over WeCom's side of an intelligent bot (@aalis/testing): WeCom
// calls her (encrypted callbacks), so a "connection" is a start of her callback server, seen by the server watching
// the callback URL and passing WeCom's URL check. Groups are WeCom group chats (the message starts with her @), a
// private chat is a single chat; people are their userid. Her reply is the stream answering a message (collected
// when WeCom asks for it again) or that message's response_url: in a group it reads as a reply to the message.
import { createServer } from 'node:net';
import { startWecomBotServer, type WecomBotServer } from '@aalis/testing';
import type {
  ConformanceChat,
  ConformanceServer,
  ConformanceUser,
  PlatformConformanceDriver,
} from './platform-driver.case.js';

const CALLBACK_PATH = '/wecom/callback';

export interface WecomConformanceServer extends ConformanceServer {
  readonly wecom: WecomBotServer;
  /** The WeCom chat id of a group key. */
  chatIdOf(group: string): string;
}

/** A port free on 127.0.0.1 now (her callback keeps it across a restart, as a deployment's configured port does). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export const conformanceDriver: PlatformConformanceDriver<WecomConformanceServer> = {
  name: 'wecom',
  cannot: {
    'owner-request': 'WeCom intelligent bots have no friends; members add her to chats, no request she answers',
    'reply-addresses':
      'WeCom hands an intelligent bot a group message only when it @-mentions her, and a quote carries the quoted text without a message id',
    'failed-send':
      'her reply is collected by WeCom from the stream it asks for (no send request of hers that WeCom could refuse); a late reply’s refused response_url is covered in platform-wecom.test.ts',
    reconnect:
      'WeCom calls her callback URL: there is no connection of hers to drop or refuse (a restart of her callback server is covered by the restart case)',
    voice:
      'an intelligent bot answers with stream, Markdown and template-card messages only: WeCom gives it no voice message (docs/decisions/voice-replies-platforms.md)',
  },
  async start() {
    const wecom = await startWecomBotServer({ pollMs: 10 });
    const port = await freePort();
    wecom.setCallback(`http://127.0.0.1:${port}${CALLBACK_PATH}`);
    wecom.watchCallback(20);
    const chatIdOf = (group: string) => `wrk${group}`;
    const chatOf = (chat: string): ConformanceChat =>
      chat.startsWith('user:')
        ? { kind: 'private', user: chat.slice('user:'.length) as ConformanceUser }
        : { kind: 'group', group: chat.replace(/^wrk/, '') };
    const unsupported = (what: string) => () => {
      throw new Error(`WeCom has no ${what}: the suite skips this case (conformanceDriver.cannot)`);
    };
    return {
      wecom,
      chatIdOf,
      section: 'platform-wecom',
      settings: () => ({
        token: wecom.token,
        encodingAESKey: wecom.encodingAESKey,
        host: '127.0.0.1',
        port,
        path: CALLBACK_PATH,
      }),
      owner: () => ({ platform: 'wecom', userId: 'alice' }),
      account: (user) => user,
      // A callback names the sender by userid only (names need the corp's contact API, not the bot's).
      senderLabel: (user) => user,
      sessionId: (chat) =>
        chat.kind === 'group' ? `wecom:group:${chatIdOf(chat.group)}` : `wecom:private:${chat.user}`,
      connections: () => wecom.callbackStarts(),
      inbound: 'http',
      // WeCom asks for her stream again and again (every 10 ms here, about every second on WeCom).
      outbound: 'polled',
      replaysMissedEvents: false,
      async deliver(message) {
        const { msgId, status, postedAt } = await wecom.message({
          ...(message.chat.kind === 'group' ? { chatId: chatIdOf(message.chat.group) } : {}),
          userId: message.from,
          text: message.text,
          mention: message.mention === true,
        });
        if (status !== 200) throw new Error(`WeCom: her callback answered ${status}`);
        return { id: msgId, at: postedAt };
      },
      sent: () =>
        wecom.sent.map((sent, index) => {
          const chat = chatOf(sent.chat);
          return {
            id: `${sent.via}-${index}-${sent.answering}`,
            chat,
            text: sent.text,
            ...(chat.kind === 'group' ? { quote: sent.answering } : {}),
            at: sent.at,
          };
        }),
      dropConnection: unsupported('connection of hers to drop'),
      refuseConnections: unsupported('connection of hers to refuse'),
      failNextSend: unsupported('send request of hers'),
      async sendMalformed() {
        const missing = wecom.seal(JSON.stringify({ msgid: 'bad-1', msgtype: 'text', from: { userid: 'bob' } }));
        await wecom.post('not json at all', missing.query);
        await wecom.post(missing.body, missing.query);
        const unknown = wecom.seal(JSON.stringify({ msgid: 'bad-2', msgtype: 'hologram', from: { userid: 'bob' } }));
        await wecom.post(unknown.body, unknown.query);
        await wecom.post(missing.body, { ...missing.query, msg_signature: '0'.repeat(40) });
        await wecom.post('x'.repeat(2 * 1024 * 1024), missing.query);
      },
      malformedCode: 'AALIS_WECOM_EVENT_MALFORMED',
      badInputCodes: [
        'AALIS_WECOM_EVENT_MALFORMED',
        'AALIS_WECOM_EVENT_UNKNOWN',
        'AALIS_WECOM_SIGNATURE_INVALID',
        'AALIS_WECOM_BODY_TOO_LARGE',
      ],
      secrets: [wecom.token, wecom.encodingAESKey],
      close: () => wecom.close(),
    };
  },
};
