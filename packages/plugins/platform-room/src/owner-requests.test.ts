import type { Tool, ToolCallContext } from '@aalis/api-tools';
import type { IncomingMessage } from '@aalis/schema-message';
import { describe, expect, it } from 'vitest';
import { MAX_REQUEST_NOTE_CHARS, OwnerRequests, requestNote } from './owner-requests.js';
import { memoryPendingRequests } from './pending-requests.js';

function setup() {
  const store = memoryPendingRequests();
  const delivered: IncomingMessage[] = [];
  const requests = new OwnerRequests({
    platform: 'chat',
    owners: () => [
      { platform: 'chat', userId: 'alice' },
      { platform: 'other', userId: 'olga' },
    ],
    ownerSession: async (userId) => `chat:private:${userId}`,
    deliver: async (notice) => {
      delivered.push(notice);
    },
    store: async () => store,
  });
  return { store, delivered, requests };
}

const context: ToolCallContext = {
  sessionId: 'chat:private:alice',
  platform: 'chat',
  userId: 'alice',
  participants: [{ platform: 'chat', userId: 'alice' }],
  inbound: { source: undefined, fromTurn: undefined, messageId: undefined },
  signal: new AbortController().signal,
  turnId: 't1',
  callId: 'c1',
  acceptsImages: false,
};
const call = (tool: Tool<{ id: string; approve: boolean }>, args: { id: string; approve: boolean }) =>
  tool.handler(args, context);

describe('OwnerRequests', () => {
  it('trusts the platform’s owners and the allow-list; asks each owner of the platform in her private chat', async () => {
    const { store, delivered, requests } = setup();
    expect(requests.trusted('alice', [])).toBe(true);
    expect(requests.trusted('bob', ['bob'])).toBe(true);
    expect(requests.trusted('olga', [])).toBe(false);
    const told = await requests.ask(
      { id: 'r1', kind: 'friend', data: { flag: 'f' } },
      { content: 'Bob asks to be her friend', source: 'chat-request', hostNotice: { kind: 'chat-request', id: 'r1' } },
    );
    expect(told).toBe(1);
    expect(delivered).toMatchObject([
      { sessionId: 'chat:private:alice', venue: 'alice', content: 'Bob asks to be her friend', source: 'chat-request' },
    ]);
    expect((await store.list('chat')).map((request) => request.id)).toEqual(['r1']);
  });

  it('the answer tool settles a request once, and puts it back when settling fails', async () => {
    const { store, requests } = setup();
    await store.put({ id: 'r1', platform: 'chat', kind: 'friend', data: { flag: 'f' }, createdAt: Date.now() });
    let fail = true;
    const settled: string[] = [];
    const tool = requests.answerTool({
      name: 'chat_request_answer',
      description: 'settles',
      read: (taken) => taken.data.flag,
      settle: async (flag, approve) => {
        if (fail) throw new Error('platform down');
        settled.push(`${flag}:${approve}`);
        return 'done';
      },
      unknown: (id) => `unknown ${id}`,
      failed: (id, error) => `failed ${id}: ${(error as Error).message}`,
    });
    expect(tool.level).toBe('owner');
    expect(await call(tool, { id: 'r1', approve: true })).toBe('failed r1: platform down');
    expect((await store.list('chat')).map((request) => request.id)).toEqual(['r1']);
    fail = false;
    expect(await call(tool, { id: 'r1', approve: true })).toBe('done');
    expect(await call(tool, { id: 'r1', approve: true })).toBe('unknown r1');
    expect(settled).toEqual(['f:true']);
  });

  it('puts a requester note to the owner trimmed and cut at its bound', () => {
    expect(requestNote('  hello there \n')).toBe('hello there');
    const flood = 'x'.repeat(MAX_REQUEST_NOTE_CHARS * 40);
    expect(requestNote(flood)).toHaveLength(MAX_REQUEST_NOTE_CHARS);
  });
});
