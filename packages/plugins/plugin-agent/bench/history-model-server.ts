// The history bench's model server, in a process of its own so that neither the agent's CPU figure nor the floor's
// includes it and the request bodies it records do not sit in the measured process's heap: the scripted OpenAI
// test server of @aalis/testing (it rejects what real providers reject). IPC, each answered once done:
// { enqueue } queues replies → 'queued'; 'bodies' → { bodies, rejected } (the chat bodies since the last ask, as
// JSON text, and the rejections among them), then forgets them; 'cpu' → { cpuMs } of this process since the last ask.
import { type ScriptedReply, startOpenAiTestServer, textReply, toolCallReply } from '@aalis/testing';

const server = await startOpenAiTestServer({
  models: ['test-model'],
  // The floor's replays are answered like the agent's calls: a tool call, then (after the result) a short answer.
  respond: (body) => {
    const messages = body.messages as Array<{ role: string }>;
    return messages[messages.length - 1]?.role === 'tool'
      ? textReply('done')
      : toolCallReply([{ id: 'r0', name: 'lookup', arguments: { q: 'x' } }]);
  },
});

let since = process.cpuUsage();
process.on('message', (message: 'bodies' | 'cpu' | { enqueue: ScriptedReply[] }) => {
  if (message === 'bodies') {
    const chats = server.requests.filter((request) => request.path === '/v1/chat/completions');
    server.requests.length = 0;
    process.send!({
      bodies: chats.map((request) => JSON.stringify(request.body)),
      rejected: chats.flatMap((request) => (request.rejected === undefined ? [] : [request.rejected])),
    });
  } else if (message === 'cpu') {
    const used = process.cpuUsage(since);
    since = process.cpuUsage();
    process.send!({ cpuMs: (used.user + used.system) / 1000 });
  } else {
    server.enqueue(...message.enqueue);
    process.send!('queued');
  }
});
// The parent going away ends the server, so a failed bench leaves nothing running.
process.on('disconnect', () => void server.close().then(() => process.exit(0)));
process.send!({ url: server.url });
