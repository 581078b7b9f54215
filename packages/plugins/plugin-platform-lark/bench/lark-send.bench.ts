// npm run bench lark-send — the CPU one Lark send costs through the SDK (client.im.message.create: the SDK's payload
// work, the tenant token from its cache, the HTTP call, a local server's answer, all in this process), with the
// SDK's own axios instance and with the adapter's larkHttpInstance (the shared exchange). Variants take turns in
// blocks of 100, so load on the machine hits them alike; µs of CPU (user + system) per send and their ratio.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as lark from '@larksuiteoapi/node-sdk';
import { larkHttpInstance } from '../src/lark-http-instance.js';

const SENDS = Number(process.env.SENDS) || 3_000;
const WARMUP = 300;
const BLOCK = 100;

const server = createServer((incoming, response) => {
  incoming.resume();
  incoming.on('end', () => {
    response.writeHead(200, { 'content-type': 'application/json' });
    if (incoming.url?.includes('tenant_access_token')) {
      response.end(JSON.stringify({ code: 0, tenant_access_token: 't-bench', expire: 7200 }));
    } else response.end(JSON.stringify({ code: 0, msg: 'success', data: { message_id: 'om_1' } }));
  });
});
server.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const domain = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const quiet = () => {};
const logger = { error: quiet, warn: quiet, info: quiet, debug: quiet, trace: quiet };
const clients: Record<string, lark.Client> = {
  'SDK axios instance': new lark.Client({ appId: 'a', appSecret: 's', domain, logger }),
  larkHttpInstance: new lark.Client({
    appId: 'a',
    appSecret: 's',
    domain,
    logger,
    httpInstance: larkHttpInstance(lark.defaultHttpInstance),
  }),
};
const content = JSON.stringify({ text: 'reply 123 '.repeat(8) });
const send = async (client: lark.Client) => {
  const answer = await client.im.message.create({
    params: { receive_id_type: 'chat_id' },
    data: { receive_id: 'oc_bench', msg_type: 'text', content },
  });
  if (answer.data?.message_id !== 'om_1') throw new Error(`unexpected answer ${JSON.stringify(answer)}`);
};

const cpu: Record<string, number> = {};
for (const [name, client] of Object.entries(clients)) {
  cpu[name] = 0;
  for (let index = 0; index < WARMUP; index++) await send(client);
}
for (let done = 0; done < SENDS; done += BLOCK) {
  for (const [name, client] of Object.entries(clients)) {
    const before = process.cpuUsage();
    for (let index = 0; index < BLOCK; index++) await send(client);
    const used = process.cpuUsage(before);
    cpu[name]! += used.user + used.system;
  }
}
server.closeAllConnections();
server.close();

console.log(
  `${SENDS} sends per variant after ${WARMUP} unmeasured, blocks of ${BLOCK} taking turns; CPU of this process per send`,
);
const base = cpu['SDK axios instance']! / SENDS;
for (const name of Object.keys(clients)) {
  const perSend = cpu[name]! / SENDS;
  console.log(
    `${name.padEnd(20)} ${perSend.toFixed(1).padStart(8)} µs   ${(perSend / base).toFixed(2)}× the SDK's own`,
  );
}
