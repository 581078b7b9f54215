// A friend request across two running products sharing PostgreSQL: host 1 runs the OneBot connection and receives the
// request, the owner's answer is heard by host 2 (which stands by without a connection), the holder settles it
// through the hand-over queue, and the same answer heard again by host 1 settles nothing: acted on exactly once.
import { gateway } from '@aalis/api-gateway';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import {
  type OneBotImplementation,
  onebotFriendRequest,
  onebotPrivateMessage,
  startOneBotImplementation,
  textReply,
  toolCallReply,
} from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { startLeaseHost, useProductFixture } from './product-host.case.js';
import { waitFor } from './spawn-aalis.case.js';

const TOKEN = 'onebot-requests-secret';
const OWNER = 42;
const fixture = useProductFixture();

const host = (database: string, url: string) =>
  startLeaseHost(fixture, {
    database,
    settings: `owners: [{ platform: onebot, userId: "${OWNER}" }]\n`,
    platforms: `  platform-onebot:
    accessToken: ${TOKEN}
    url: ${url}
    reconnect: { initialMs: 50, maxMs: 200 }`,
    prefix: 'aalis-onebot-requests-',
    consoleLogLevel: 'info',
  });

const until = (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000) =>
  waitFor(check, { what, timeoutMs });
const sends = (implementation: OneBotImplementation) =>
  implementation.calls.filter((call) => call.action === 'send_private_msg');
const approvals = (implementation: OneBotImplementation) =>
  implementation.calls.filter((call) => call.action === 'set_friend_add_request');
/** The text of the tool result the model was shown last. */
const lastToolResult = () => {
  const messages = (fixture.model.chatBodies().at(-1)?.messages ?? []) as { role: string; content: unknown }[];
  return String(messages.filter((message) => message.role === 'tool').at(-1)?.content ?? '');
};

describe('a friend request across two hosts on one PostgreSQL', () => {
  it('received by the holder, answered through the other host, approved exactly once', async () => {
    const database = await throwawayDatabase();
    const implementation = await startOneBotImplementation({ selfId: 10_000, accessToken: TOKEN });
    fixture.cleanups.push(() => implementation.close());
    await host(database, implementation.url);
    await implementation.connected(1);
    const second = await host(database, implementation.url);
    await until(() => second.logs().includes('standing by'), 'the second host standing by');

    // Host 1 hears the request and asks the owner in their private chat.
    fixture.model.enqueue(textReply('QQ 99 wants to be friends. Accept?'));
    implementation.push(onebotFriendRequest({ userId: 99, comment: 'hi, I am Ada', flag: 'f-99' }));
    await until(() => sends(implementation).length === 1, 'the question to the owner');
    expect(sends(implementation)[0]?.params.user_id).toBe(OWNER);
    const notice = JSON.stringify(fixture.model.chatBodies()[0]);
    const id = /request id (r[0-9a-f]+)/.exec(notice)?.[1];
    expect(id).toBeDefined();
    // The requester's note goes to the owner with the request.
    expect(notice).toContain('hi, I am Ada');

    // The owner's answer reaches host 2 (as any input of the chat may reach any process): its turn calls the tool
    // there, and the approval goes out on host 1's connection, the only one.
    const answer = toolCallReply([
      { id: 'c1', name: 'onebot_request_answer', arguments: JSON.stringify({ id, approve: true }) },
    ]);
    fixture.model.enqueue(answer, textReply('Accepted.'));
    await second.aalis.app.services.selected(gateway)!.impl.receive({
      sessionId: `onebot:private:${OWNER}`,
      platform: 'onebot',
      venue: String(OWNER),
      sender: { userId: String(OWNER) },
      actor: { platform: 'onebot', userId: String(OWNER) },
      content: 'yes, accept',
      triggerType: 'direct',
      timestamp: Date.now(),
    });
    await until(() => sends(implementation).length === 2, "host 2's reply, sent by host 1");
    expect(approvals(implementation).map((call) => call.params)).toEqual([{ flag: 'f-99', approve: true }]);
    expect(lastToolResult()).toBe(`Request ${id}: accepted.`);
    expect(implementation.authorizations).toHaveLength(1);

    // The same answer heard again, by host 1 this time: the request was claimed, nothing is settled twice.
    fixture.model.enqueue(answer, textReply('Already done.'));
    implementation.push(onebotPrivateMessage({ userId: OWNER, message: 'accept it, please' }));
    await until(() => sends(implementation).length === 3, 'the reply to the repeated answer');
    expect(lastToolResult()).toContain(`No request ${id} is waiting`);
    expect(approvals(implementation)).toHaveLength(1);
  }, 60_000);
});
