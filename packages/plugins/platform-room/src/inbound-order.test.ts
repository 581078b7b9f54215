import { describe, expect, it } from 'vitest';
import { InboundOrder } from './inbound-order.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('InboundOrder', () => {
  it('hands a chat’s messages over in the order they came, however long each takes to read; other chats do not wait', async () => {
    const order = new InboundOrder();
    const handed: string[] = [];
    const read = (name: string, ms: number) => async () => {
      await pause(ms);
      handed.push(name);
    };
    await Promise.all([
      order.run('a', read('a1 (slow image)', 60)),
      order.run('a', read('a2', 0)),
      order.run('b', read('b1', 10)),
      order.run('a', async () => {
        throw new Error('unreadable');
      }),
      order.run('a', read('a4', 0)),
    ]).catch(() => {});
    await pause(100);
    expect(handed).toEqual(['b1', 'a1 (slow image)', 'a2', 'a4']);
  });
});
