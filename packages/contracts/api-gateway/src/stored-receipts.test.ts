// Receipts for platform deliveries: resolved at `agent:accepted` (not when the turn ends), `failed` when the gateway
// reports a failed phase or throws, and a redelivery by message id runs again only after a failure.
import '@aalis/api-agent';
import { App } from '@aalis/core';
import type { IncomingMessage } from '@aalis/schema-message';
import { describe, expect, it } from 'vitest';
import type { GatewayService, InboundReport } from './gateway-service.js';
import { type Receipt, receiveStored, StoredReceipts } from './stored-receipts.js';

const { events } = new App({ logSinks: [] });
const message = (messageId: string): IncomingMessage => ({
  sessionId: 'qq:private:alice',
  platform: 'qq',
  sender: { userId: 'alice' },
  content: 'hi',
  messageId,
});
const report = (outcome: InboundReport['outcome']): InboundReport => ({
  arrival: 1,
  outcome,
  phase: 'inbound:dispatch',
});

/** A gateway whose receive resolves only when told (as a dispatched input's does when its turn ends). */
function gatewayHolding(onReceive: (message: IncomingMessage) => void) {
  let finish: (report: InboundReport) => void = () => {};
  const gateway: Pick<GatewayService, 'receive'> = {
    receive: (incoming) =>
      new Promise((resolve) => {
        finish = resolve;
        onReceive(incoming);
      }),
  };
  return { gateway, finish: (outcome: InboundReport['outcome']) => finish(report(outcome)) };
}

describe('receiveStored', () => {
  it('is stored at agent:accepted of the same input, before its turn ends; other inputs do not count', async () => {
    const held = gatewayHolding((incoming) => {
      events.emit('agent:accepted', { message: message('other'), durable: true });
      events.emit('agent:accepted', { message: { ...incoming }, durable: true });
    });
    await expect(receiveStored(held.gateway, events, message('m1'))).resolves.toBe('stored');
    held.finish('dispatched');
  });

  it('is failed when a phase failed or the gateway threw, handled when the gateway dropped it', async () => {
    const failing = { receive: async () => report('failed') };
    expect(await receiveStored(failing, events, message('m2'))).toBe('failed');
    const heard: unknown[] = [];
    const throwing = { receive: () => Promise.reject(new Error('invalid')) };
    expect(await receiveStored(throwing, events, message('m3'), (error) => heard.push(error))).toBe('failed');
    expect(heard).toHaveLength(1);
    expect(await receiveStored({ receive: async () => report('dropped') }, events, message('m4'))).toBe('handled');
    expect(await receiveStored({ receive: async () => report('command') }, events, message('m5'))).toBe('handled');
  });
});

describe('StoredReceipts', () => {
  it('runs a redelivery again only after a failure; a stored one is answered from memory', async () => {
    const receipts = new StoredReceipts();
    const outcomes: Receipt[] = ['failed', 'stored'];
    let runs = 0;
    const receive = async () => {
      runs++;
      return outcomes.shift() ?? 'stored';
    };
    expect(await receipts.once('m1', receive)).toBe('failed');
    expect(await receipts.once('m1', receive)).toBe('stored');
    expect(await receipts.once('m1', receive)).toBe('stored');
    expect(runs).toBe(2);
    // Without an id every delivery runs; a throw is a failed receipt.
    const errors: unknown[] = [];
    expect(
      await receipts.once(
        undefined,
        () => Promise.reject(new Error('boom')),
        (error) => errors.push(error),
      ),
    ).toBe('failed');
    expect(errors).toHaveLength(1);
  });

  it('a redelivery while the first is still being stored waits for the same receipt', async () => {
    const receipts = new StoredReceipts();
    let release: (receipt: Receipt) => void = () => {};
    let runs = 0;
    const first = receipts.once('m2', () => {
      runs++;
      return new Promise<Receipt>((resolve) => {
        release = resolve;
      });
    });
    const again = receipts.once('m2', async () => {
      runs++;
      return 'stored';
    });
    release('stored');
    expect(await Promise.all([first, again])).toEqual(['stored', 'stored']);
    expect(runs).toBe(1);
  });

  it('remembers at most `limit` ids and each for `ttlMs`', async () => {
    const receipts = new StoredReceipts({ limit: 2, ttlMs: 60_000 });
    for (const id of ['a', 'b', 'c']) await receipts.once(id, async () => 'stored');
    expect(['a', 'b', 'c'].map((id) => receipts.has(id))).toEqual([false, true, true]);
    const brief = new StoredReceipts({ ttlMs: 0 });
    await brief.once('a', async () => 'stored');
    expect(brief.has('a')).toBe(false);
  });
});
