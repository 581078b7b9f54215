// The out baseline of `npm run bench platforms`: the least an adapter can be, loaded into the same product beside the
// measured one. A message handed straight to the gateway (a private chat of its own) gets a full turn like the
// platform's; her reply, heard on outbound:message as every adapter hears it, leaves as one plain HTTP POST of it
// (node:http over a keep-alive agent, the least Node does for a request: fetch costs several times its CPU) to a
// local server. Its rounds take turns with the platform's, so the baseline's send
// starts at the same point of a turn as the platform's — with the turn's garbage just made and a collection as likely
// to fall on it — rather than between turns, when the process is quiet.
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gateway } from '@aalis/api-gateway';
import { sessionManager } from '@aalis/api-session-manager';
import { definePlugin, events } from '@aalis/core';

export const FLOOR_PLATFORM = 'bench-floor';
const CHAT = 'floor';

export interface FloorPlatform {
  plugin: ReturnType<typeof definePlugin>;
  /** Hands one message to the gateway (its turn starts); resolves once it is handed over. */
  deliver(text: string, messageId: string): Promise<void>;
  /** performance.now() when the floor server had read the POST carrying a reply, by the reply's text. */
  arrivals: Map<string, number>;
  close(): Promise<void>;
}

const agent = new Agent({ keepAlive: true });

/** One POST, resolved when its answer has been read. */
function post(url: string, body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const sent = request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        response.resume();
        response.once('end', resolve);
        response.once('error', reject);
      },
    );
    sent.once('error', reject);
    sent.end(body);
  });
}

export async function startFloorPlatform(): Promise<FloorPlatform> {
  const arrivals = new Map<string, number>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = performance.now();
      const { text } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { text: string };
      arrivals.set(text, at);
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/send`;
  let receive: ((text: string, messageId: string) => Promise<void>) | undefined;
  const plugin = definePlugin({
    name: '@bench/floor-platform',
    uses: { events, gateway, sessionManager },
    apply({ events, gateway, sessionManager }) {
      const sessionId = `${FLOOR_PLATFORM}:private:${CHAT}`;
      const ready = sessionManager.use.ensure({ id: sessionId, kind: 'room', platform: FLOOR_PLATFORM, venue: CHAT });
      receive = async (text, messageId) => {
        await ready;
        await gateway.use.receive({
          sessionId,
          platform: FLOOR_PLATFORM,
          venue: CHAT,
          sender: { userId: 'alice', displayName: 'Alice' },
          actor: { platform: FLOOR_PLATFORM, userId: 'alice' },
          content: text,
          messageId,
          triggerType: 'direct',
          timestamp: Date.now(),
        });
      };
      events.use.on('outbound:message', async (message) => {
        if (message.platform !== FLOOR_PLATFORM) return;
        await post(url, JSON.stringify({ chat_id: CHAT, text: message.content }));
      });
    },
  });
  return {
    plugin,
    arrivals,
    deliver: (text, messageId) => {
      if (!receive) throw new Error('the floor platform is not loaded');
      return receive(text, messageId);
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
