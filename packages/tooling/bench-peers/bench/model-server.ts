// The peers bench's model server, in a process of its own so that no framework's CPU figure includes it: the
// scripted OpenAI-compatible server of @aalis/testing answering from scriptedAnswer. Sends { url } to its parent
// once listening; on 'take' sends { bodies } (the chat request bodies since the last take, parsed) and forgets them.
import { startOpenAiTestServer } from '@aalis/testing';
import { scriptedAnswer } from '../src/model-script.js';

const server = await startOpenAiTestServer({ respond: scriptedAnswer });
process.on('message', (message) => {
  if (message !== 'take') return;
  const bodies = server.chatBodies();
  const rejected = server.requests.filter((request) => request.rejected !== undefined).map((r) => r.rejected);
  server.reset();
  process.send!({ bodies, rejected });
});
// The parent going away ends the server, so a failed bench leaves nothing running.
process.on('disconnect', () => {
  void server.close().then(() => process.exit(0));
});
process.send!({ url: server.url });
