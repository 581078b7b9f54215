// The platforms bench's model server, in a process of its own: a deployment's model endpoint is elsewhere, and in the
// product's process the scripted server's work (reading and parsing each request, whose body holds the whole
// history, and keeping it alive while it answers) was ~15 % of what a round allocated and part of what every
// scavenge had to copy. It answers the last `<tag> <n>` of the request's latest user message (`message 12` →
// `reply 12`, `floor 12` → `floor reply 12`), so no reply has to be queued per round. Sends { url } to its parent
// once listening; ends when the parent goes away.
import { startOpenAiTestServer, textReply } from '@aalis/testing';

const ROUND = /(message|floor) (\d+)/g;

function replyFor(body: Record<string, unknown>): string {
  const messages = Array.isArray(body.messages) ? (body.messages as { role?: string }[]) : [];
  let latest: unknown;
  for (const message of messages) if (message.role === 'user') latest = message;
  let reply = 'ok';
  for (const [, tag, round] of JSON.stringify(latest ?? '').matchAll(ROUND)) {
    reply = tag === 'floor' ? `floor reply ${round}` : `reply ${round}`;
  }
  return reply;
}

const server = await startOpenAiTestServer({ models: ['test-model'], respond: (body) => textReply(replyFor(body)) });
setInterval(() => {
  // Nothing of a round is kept here either.
  server.requests.length = 0;
}, 1_000).unref();
process.on('disconnect', () => {
  void server.close().then(() => process.exit(0));
});
process.send!({ url: server.url });
