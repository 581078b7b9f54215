// The durable acknowledgement case of `npm run bench webui`: what storing an input before `send` answers costs per
// input. Measured two ways in the same run on the host's SQLite: `send` answered (session protocol round trip, the
// input put into its session's hand-over queue) while no turn runs, against `ping` on the same socket (the round trip
// without the input); and the hand-over queue's own writes per input (put, take, note, finish) against the archive
// write every input has always cost (archiveIncoming).
import { performance } from 'node:perf_hooks';
import { messageArchive } from '@aalis/api-message-archive';
import { storage } from '@aalis/api-storage';
import { clientFor, type Host } from '../src/session-protocol/harness.case.js';

const INPUTS = 300;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function durableAckCase(host: Host, cookie: string): Promise<void> {
  const client = clientFor(host, cookie);
  await client.connect();
  const { session } = await client.request('session.create', { title: 'durable ack' });
  const pings: number[] = [];
  const sends: number[] = [];
  for (let index = 0; index < 60; index++) {
    let started = performance.now();
    await client.request('ping', {});
    pings.push(performance.now() - started);
    started = performance.now();
    await client.send({ sessionId: session.id, text: `input ${index}` });
    sends.push(performance.now() - started);
    // Let its turn end, so every send meets an idle session.
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  client.close();

  const app = host.aalis.app;
  const queue = app.services.selected(storage)!.impl.handOver();
  const archive = app.services.selected(messageArchive)!.impl;
  let started = performance.now();
  for (let index = 0; index < INPUTS; index++) {
    const { id } = await queue.put('bench:durable-ack', JSON.stringify({ content: `input ${index}` }));
    const [item] = await queue.take('bench:durable-ack');
    await queue.note(item?.id ?? id, '{"turnId":"bench"}');
    await queue.finish(item?.id ?? id, 'settled');
  }
  const queueMs = (performance.now() - started) / INPUTS;
  started = performance.now();
  for (let index = 0; index < INPUTS; index++) {
    await archive.archiveIncoming({
      sessionId: 'bench:archive',
      platform: 'bench',
      sender: { userId: 'bench' },
      content: `input ${index}`,
    });
  }
  const archiveMs = (performance.now() - started) / INPUTS;
  console.log('\ndurable acknowledgement (SQLite):');
  console.log(
    `  send answered: median ${median(sends).toFixed(2)} ms; ping on the same socket: median ${median(pings).toFixed(2)} ms (difference ${(median(sends) - median(pings)).toFixed(2)} ms per input, the whole send path)`,
  );
  console.log(
    `  hand-over writes per input (put, take, note, finish): ${(queueMs * 1000).toFixed(0)} µs; archive write per input: ${(archiveMs * 1000).toFixed(0)} µs (ratio ${(queueMs / archiveMs).toFixed(2)})`,
  );
}
