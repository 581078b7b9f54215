// Conformance: voice replies (message.speech, hello.features.voiceOutput). A stored reply of a session is spoken by
// the host's text-to-speech endpoint (a local /audio/speech server answering WAV, converted to Ogg/Opus) for the page's
// play button; bad input, a message that is not a stored reply, another account's session and a failing endpoint are
// refused with their codes, and the API key is in no answer.
import { type SessionClient, SessionClientError, type TimelineText } from '@aalis/session-client';
import { type SpeechTestServer, startSpeechTestServer, textReply } from '@aalis/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, type Host, loginCookie, Recorder, startHost } from './harness.case.js';

const API_KEY = 'sk-speech-conformance-31337';
let tts: SpeechTestServer;
let host: Host;
const clients: SessionClient[] = [];
beforeAll(async () => {
  tts = await startSpeechTestServer({ answerFormat: 'wav' });
  host = await startHost({
    extraConfig: `  media:
    speech: { baseUrl: ${tts.url}, apiKey: ${API_KEY}, voice: nova, retry: { maxRetries: 0 } }
`,
  });
});
afterAll(async () => {
  await host?.stop();
  await tts?.close();
});
afterEach(() => {
  for (const client of clients.splice(0)) client.close();
  host.model.reset();
});

async function connect(userId?: string): Promise<SessionClient> {
  const client = clientFor(host, await loginCookie(host, userId));
  clients.push(client);
  await client.connect();
  return client;
}

async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
    return { code: 'resolved', message: '' };
  } catch (error) {
    return error instanceof SessionClientError
      ? { code: error.code, message: error.message }
      : { code: String(error), message: '' };
  }
}

/** One turn answered `reply`; the session's stored reply and input ids from its timeline. */
async function turn(client: SessionClient, reply: string) {
  const { session } = await client.request('session.create', {});
  const recorder = new Recorder();
  const subscription = client.subscribe(session.id, recorder.handlers);
  await subscription.ready;
  host.model.enqueue(textReply(reply));
  await client.send({ sessionId: session.id, text: 'read me something' });
  await recorder.until(() => recorder.of('turn.ended').length === 1);
  await subscription.unsubscribe();
  const again = new Recorder();
  const reread = client.subscribe(session.id, again.handlers);
  await reread.ready;
  await again.until(() => again.latest !== undefined);
  await reread.unsubscribe();
  const entry = again.latest!.entries.find((candidate) => candidate.kind === 'turn');
  if (entry?.kind !== 'turn') throw new Error('no turn in the timeline');
  const text = entry.items.find((item): item is TimelineText => item.kind === 'text' && item.final)!;
  return {
    sessionId: session.id,
    replyId: text.id,
    inputId: entry.inputs[0]!.id,
    turnId: entry.turnId!,
    segment: text.segment,
  };
}

describe('voice replies', () => {
  it('hello says voiceOutput; message.speech speaks a stored reply as Ogg/Opus', async () => {
    const owner = await connect();
    expect(owner.current?.features).toMatchObject({ voiceOutput: true });
    const { sessionId, replyId, turnId, segment } = await turn(
      owner,
      '**Sunny** today, see [the forecast](https://example.com/f).',
    );
    const voice = await owner.request('message.speech', { sessionId, messageId: replyId });
    expect(voice.mimeType).toBe('audio/ogg');
    const bytes = Buffer.from(voice.data, 'base64');
    expect(bytes.subarray(0, 4).toString('ascii')).toBe('OggS');
    expect(bytes.subarray(0, 200).includes('OpusHead')).toBe(true);
    const request = tts.requests.at(-1)!;
    expect(request.input).toBe('Sunny today, see the forecast.');
    expect(request.voice).toBe('nova');
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
    // The same reply named by its turn and segment (what a page has while the reply is only live there).
    const again = await owner.request('message.speech', { sessionId, turnId, segment });
    expect(Buffer.from(again.data, 'base64').subarray(0, 4).toString('ascii')).toBe('OggS');
    expect(tts.requests.at(-1)!.input).toBe('Sunny today, see the forecast.');
  });

  it('bad input, a message that is not a stored reply, and a failing endpoint are refused with their codes', async () => {
    const owner = await connect();
    const { sessionId, inputId, replyId } = await turn(owner, 'A reply.');
    const requests = tts.requests.length;
    expect((await failure(owner.request('message.speech', { sessionId } as never))).code).toBe(
      'AALIS_WEBUI_BAD_REQUEST',
    );
    expect((await failure(owner.request('message.speech', { sessionId: 'webui:none', messageId: replyId }))).code).toBe(
      'AALIS_WEBUI_SESSION_UNKNOWN',
    );
    expect((await failure(owner.request('message.speech', { sessionId, messageId: 'm-unknown' }))).code).toBe(
      'AALIS_WEBUI_REPLY_UNKNOWN',
    );
    // Her reply only: the person's own input is not read out.
    expect((await failure(owner.request('message.speech', { sessionId, messageId: inputId }))).code).toBe(
      'AALIS_WEBUI_REPLY_UNKNOWN',
    );
    const other = await turn(owner, 'Another reply.');
    const requests2 = tts.requests.length;
    // A segment the turn does not have, and a turn of another session named with this one, are not replies here.
    expect(
      (await failure(owner.request('message.speech', { sessionId: other.sessionId, turnId: other.turnId, segment: 1 })))
        .code,
    ).toBe('AALIS_WEBUI_REPLY_UNKNOWN');
    expect((await failure(owner.request('message.speech', { sessionId, turnId: other.turnId, segment: 0 }))).code).toBe(
      'AALIS_WEBUI_REPLY_UNKNOWN',
    );
    expect(
      (await failure(owner.request('message.speech', { sessionId, turnId: other.turnId, segment: -1 }))).code,
    ).toBe('AALIS_WEBUI_BAD_REQUEST');
    expect(tts.requests.length).toBe(requests2);
    expect(tts.requests.length).toBe(requests);
    tts.enqueue({ status: 401, message: `Incorrect API key provided: ${API_KEY}` });
    const refused = await failure(owner.request('message.speech', { sessionId, messageId: replyId }));
    expect(refused.code).toMatch(/^AALIS_/);
    expect(refused.message).not.toContain(API_KEY);
  });

  it('a non-owner is refused another account’s session', async () => {
    const owner = await connect();
    const { sessionId, replyId } = await turn(owner, 'Only for the owner.');
    const alice = await connect('alice');
    const requests = tts.requests.length;
    expect((await failure(alice.request('message.speech', { sessionId, messageId: replyId }))).code).toBe(
      'AALIS_WEBUI_FORBIDDEN',
    );
    expect(tts.requests.length).toBe(requests);
  });
});
