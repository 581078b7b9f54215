// The platform conformance suite: one set of cases every platform adapter runs through the product (startAalis with
// the default plugin set) against its local protocol server, driven by a PlatformConformanceDriver
// (platform-driver.case.ts). One product and one protocol server per adapter for the whole suite, each case in chats
// of its own, so the suite costs one boot (and one restart); a platform's own cases can run on the same product
// (the `own` callback), after the suite's.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { VOICE_REPLY_SETTING } from '@aalis/api-media';
import { memory } from '@aalis/api-memory';
import { sessionFields } from '@aalis/api-session-settings';
import {
  type OpenAiTestServer,
  type SpeechTestServer,
  speechTone,
  startOpenAiTestServer,
  startSpeechTestServer,
  textReply,
  toolCallReply,
} from '@aalis/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConformanceCase,
  type ConformanceChat,
  type ConformanceSent,
  type ConformanceServer,
  type ConformanceVoice,
  conformanceConfig,
  type PlatformConformanceDriver,
} from './platform-driver.case.js';
import { waitFor } from './spawn-aalis.case.js';
import { type RunningAalis, startAalis } from './start-aalis.js';

const until = (check: () => boolean | Promise<boolean>, what: string | (() => string), timeoutMs = 10_000) =>
  waitFor(check, { what, timeoutMs });

/** Whether the bytes are what the voice says they are: Ogg with an Opus stream, or Tencent's SILK. */
const isVoice = ({ format, bytes }: ConformanceVoice) => {
  const head = Buffer.from(bytes.subarray(0, 200));
  return format === 'silk'
    ? head.subarray(0, 10).toString('latin1') === '\u0002#!SILK_V3'
    : head.subarray(0, 4).toString('latin1') === 'OggS' && head.includes('OpusHead');
};

/** How long the voice case waits for each step. */
const VOICE_WAIT_MS = 20_000;

const sameChat = (a: ConformanceChat, b: ConformanceChat) =>
  a.kind === 'group' ? b.kind === 'group' && a.group === b.group : b.kind === 'private' && a.user === b.user;

export interface StoredMessage {
  role: string;
  content: string;
  kind?: string;
  metadata?: Record<string, unknown>;
}

/** What a platform's own cases get, on the suite's product and server (read inside a test). */
export interface ConformanceContext<S extends ConformanceServer> {
  readonly server: S;
  readonly model: OpenAiTestServer;
  /** The text-to-speech server the product's plugins.media.speech points at. */
  readonly speech: SpeechTestServer;
  readonly aalis: RunningAalis;
  /** The product's workspace (aalis.config.yaml, data/). */
  readonly dir: string;
  /** The console output and the log file (debug lines included). */
  logs(): string;
  /**
   * Stops the product and starts it again on the same workspace, waiting for the adapter to connect; `whileStopped`
   * runs in between (say something while she is away).
   */
  restart(whileStopped?: () => unknown): Promise<void>;
  /** Waits (10 s unless told) for a message of hers in `chat` whose text contains `text`. */
  reply(chat: ConformanceChat, text: string, timeoutMs?: number): Promise<ConformanceSent>;
  /** The stored history of the chat's session. */
  history(chat: ConformanceChat): Promise<StoredMessage[]>;
}

/** Runs the conformance cases for one adapter, then `own` (its platform's own cases) on the same product. */
export function describePlatformConformance<S extends ConformanceServer>(
  driver: PlatformConformanceDriver<S>,
  own?: (context: ConformanceContext<S>) => void,
): void {
  describe(`platform conformance: ${driver.name}`, () => {
    let model: OpenAiTestServer;
    let speech: SpeechTestServer;
    let server: S;
    let dir: string;
    let aalis: RunningAalis | undefined;
    let output = '';

    const start = async () => {
      const before = server.connections();
      const stream = new PassThrough();
      stream.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
      });
      aalis = await startAalis({ env: {}, mode: 'none', cwd: dir, output: stream, errorOutput: stream });
      await until(
        () => server.connections() > before,
        () => `${driver.name}: the adapter connecting; ${logTail()}`,
      );
    };
    const stop = async () => {
      const running = aalis;
      aalis = undefined;
      await running?.stop();
    };
    const running = () => {
      if (!aalis) throw new Error('the product is not running');
      return aalis;
    };
    /** The log file (debug lines included) and the console output. */
    const logs = () => {
      let file = '';
      try {
        file = readFileSync(join(dir, 'data', 'logs', 'aalis.log'), 'utf8');
      } catch {}
      return `${output}\n${file}`;
    };
    const logTail = () => `the log ends with:\n${logs().split('\n').slice(-25).join('\n')}`;
    const sentIn = (chat: ConformanceChat) => server.sent().filter((message) => sameChat(message.chat, chat));
    const describeSent = () => JSON.stringify(server.sent().map(({ chat, text }) => ({ chat, text })));
    const history = async (chat: ConformanceChat): Promise<StoredMessage[]> =>
      (await running().app.services.selected(memory)!.impl.readAll(server.sessionId(chat))) as StoredMessage[];
    /** Waits for a message of hers in `chat` whose text contains `text`. */
    const reply = async (chat: ConformanceChat, text: string, timeoutMs?: number): Promise<ConformanceSent> => {
      let found: ConformanceSent | undefined;
      await until(
        () => {
          found = sentIn(chat).find((message) => message.text.includes(text));
          return found !== undefined;
        },
        () => `${driver.name}: '${text}' in ${JSON.stringify(chat)}; sent so far: ${describeSent()}`,
        timeoutMs,
      );
      return found!;
    };
    const bodies = () => model.chatBodies().map((body) => JSON.stringify(body));
    const label = (user: 'alice' | 'bob') =>
      server.senderLabel?.(user) ?? `${user === 'alice' ? 'Alice' : 'Bob'} (${server.account(user)})`;
    /** A case, or its skip with the reason where the platform's protocol cannot take part in it. */
    const test = (key: ConformanceCase, title: string, body: () => Promise<void> | void, timeoutMs?: number) => {
      const reason = driver.cannot?.[key];
      if (reason === undefined) it(title, body, timeoutMs);
      else it.skip(`${title} — not on ${driver.name}: ${reason}`, body);
    };

    beforeAll(async () => {
      model = await startOpenAiTestServer({ models: ['test-model'] });
      speech = await startSpeechTestServer();
      server = await driver.start();
      dir = mkdtempSync(join(tmpdir(), `aalis-conformance-${driver.name}-`));
      writeFileSync(join(dir, 'aalis.config.yaml'), conformanceConfig(server, model.url, speech.url));
      await start();
    }, 30_000);

    afterAll(async () => {
      await stop();
      await server?.close();
      await model?.close();
      await speech?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    }, 30_000);

    test(
      'group-turn',
      'in a group: no turn when not addressed; an addressed turn with a tool call gives one reply quoting it',
      async () => {
        const group: ConformanceChat = { kind: 'group', group: 'g1' };
        const first = model.chatBodies().length;
        await server.deliver({ chat: group, from: 'bob', text: 'lunch anyone?' });
        model.enqueue(
          toolCallReply([{ id: 'c1', name: 'calculator', arguments: '{"expression":"6*7"}' }], { text: 'Computing. ' }),
          textReply('It is 42.'),
        );
        const asked = await server.deliver({ chat: group, from: 'alice', text: 'what is 6*7?', mention: true });
        const answer = await reply(group, 'It is 42.');
        expect(answer.quote).toBe(asked.id);
        // Bob's message opened no turn (inputs of a chat are dispatched in order: it would have come first).
        const turn = bodies().slice(first);
        expect(turn).toHaveLength(2);
        expect(turn[0]).toContain(`${label('bob')}: lunch anyone?`);
        expect(turn[0]).toContain('what is 6*7?');
        expect(turn[1]).toContain('"role":"tool"');
        // The next turn's reply comes right after it: the tool call's turn sent exactly one message.
        model.enqueue(textReply('Anything else?'));
        await server.deliver({ chat: group, from: 'alice', text: 'thanks', mention: true });
        await reply(group, 'Anything else?');
        expect(sentIn(group).map((message) => message.text)).toEqual([
          expect.stringContaining('It is 42.'),
          expect.stringContaining('Anything else?'),
        ]);
        expect(sentIn(group)[0]!.text).not.toContain('Computing.');
      },
    );

    test('private-chat', 'answers a private chat in that chat, stored in its own session', async () => {
      const chat: ConformanceChat = { kind: 'private', user: 'alice' };
      model.enqueue(textReply('Hello there.'));
      await server.deliver({ chat, from: 'alice', text: 'hi in private' });
      const answer = await reply(chat, 'Hello there.');
      expect(answer.quote).toBeUndefined();
      expect(server.sent().filter((message) => message.text.includes('Hello there.'))).toHaveLength(1);
      const stored = await history(chat);
      expect(stored.some((message) => message.role === 'user' && message.content.includes('hi in private'))).toBe(true);
      expect(stored.some((message) => message.role === 'assistant' && message.content.includes('Hello there.'))).toBe(
        true,
      );
    });

    test('reply-addresses', 'takes a reply to one of her messages as addressing her', async () => {
      const group: ConformanceChat = { kind: 'group', group: 'g2' };
      model.enqueue(textReply('First.'), textReply('Second.'));
      await server.deliver({ chat: group, from: 'alice', text: 'one', mention: true });
      const hers = await reply(group, 'First.');
      await server.deliver({ chat: group, from: 'bob', text: 'and then?', replyTo: hers.id });
      await reply(group, 'Second.');
      expect(bodies().at(-1)).toContain('and then?');
    });

    test(
      'failed-send',
      'survives a failed send: refused, or a server error; the failure is in the history with its turn',
      async () => {
        const chat: ConformanceChat = { kind: 'private', user: 'bob' };
        const failures = async () =>
          (await history(chat)).filter((message) => message.metadata?.deliveryFailure !== undefined);
        server.failNextSend('refused');
        model.enqueue(textReply('You will not see this.'));
        await server.deliver({ chat, from: 'bob', text: 'are you there?' });
        await until(async () => (await failures()).length === 1, `${driver.name}: the refused send's record`);
        const stored = await history(chat);
        const answer = stored.find((message) => message.role === 'assistant');
        expect(answer?.metadata?.turnRecord).toMatchObject({ outcome: 'replied' });
        expect((await failures())[0]?.metadata?.turnId).toBe(answer?.metadata?.turnId);
        expect(sentIn(chat)).toHaveLength(0);

        // A server error is either retried (and delivered) or recorded like the refusal.
        server.failNextSend('server-error');
        model.enqueue(textReply('Maybe this.'));
        await server.deliver({ chat, from: 'bob', text: 'and now?' });
        await until(
          async () =>
            sentIn(chat).some((message) => message.text.includes('Maybe this.')) || (await failures()).length === 2,
          `${driver.name}: the server error delivered after a retry or recorded`,
        );
        model.enqueue(textReply('Now you do.'));
        await server.deliver({ chat, from: 'bob', text: 'again' });
        await reply(chat, 'Now you do.');
      },
    );

    test('malformed', 'survives malformed events with a logged coded error', async () => {
      await server.sendMalformed();
      const chat: ConformanceChat = { kind: 'group', group: 'g3' };
      model.enqueue(textReply('Still here.'));
      await server.deliver({ chat, from: 'bob', text: 'ping', mention: true });
      await reply(chat, 'Still here.');
      for (const code of server.badInputCodes ?? [server.malformedCode, 'AALIS_ROOM_MESSAGE_TOO_LONG']) {
        await until(() => logs().includes(code), `${driver.name}: ${code} logged`);
      }
      const plugin = `@aalis/plugin-${server.section}`;
      expect(
        running()
          .app.states()
          .find((state) => state.id === plugin)?.state,
      ).toBe('active');
    });

    test('reconnect', 'recovers from a dropped connection whose first reconnects are answered 5xx', async () => {
      const chat: ConformanceChat = { kind: 'private', user: 'alice' };
      const before = server.connections();
      server.refuseConnections(503, 2);
      server.dropConnection();
      model.enqueue(textReply('Back again.'));
      // Said during the outage where the protocol replays it; after the reconnect where it does not.
      if (server.replaysMissedEvents) await server.deliver({ chat, from: 'alice', text: 'while you were away' });
      await until(
        () => server.connections() > before,
        () => `${driver.name}: the reconnect; ${logTail()}`,
      );
      if (!server.replaysMissedEvents) await server.deliver({ chat, from: 'alice', text: 'while you were away' });
      await reply(chat, 'Back again.');
      expect(bodies().at(-1)).toContain('while you were away');
    });

    test('restart', 'keeps a room’s history and sender prefixes across a restart', async () => {
      const group: ConformanceChat = { kind: 'group', group: 'g4' };
      model.enqueue(textReply('Noted.'));
      await server.deliver({ chat: group, from: 'bob', text: 'I am the one with the red hat' });
      await server.deliver({ chat: group, from: 'alice', text: 'my name is Mei', mention: true });
      await reply(group, 'Noted.');
      await stop();
      await start();
      model.enqueue(textReply('Mei.'));
      await server.deliver({ chat: group, from: 'alice', text: 'what is my name?', mention: true });
      await reply(group, 'Mei.');
      const last = bodies().at(-1)!;
      expect(last).toContain('my name is Mei');
      expect(last).toContain('Noted.');
      expect(last).toContain(`${label('bob')}: I am the one with the red hat`);
      expect(last).toContain('what is my name?');
    });

    test(
      'voice',
      'with voiceReply on, a reply leaves as text and as a voice message; a failing speech server leaves the text alone',
      async () => {
        const group: ConformanceChat = { kind: 'group', group: 'voice' };
        const voices = () => server.voices?.() ?? [];
        const voicesIn = () => voices().filter((voice) => sameChat(voice.chat, group));
        // The session's own layer, as /session.set voiceReply on writes it (mentions before a command differ by platform).
        await running()
          .app.services.selected(sessionFields)!
          .impl.set({
            layer: 'session',
            target: server.sessionId(group),
            key: VOICE_REPLY_SETTING,
            value: true,
            caller: { via: 'host' },
          });
        model.enqueue(textReply('Sunny **all** day.'));
        await server.deliver({ chat: group, from: 'alice', text: 'weather?', mention: true });
        // Speaking, converting (ffmpeg; SILK for QQ) and uploading take CPU: a loaded machine gets more time.
        await reply(group, 'Sunny', VOICE_WAIT_MS);
        await until(
          () => voicesIn().length === 1,
          () => `${driver.name}: the voice message; ${logTail()}`,
          VOICE_WAIT_MS,
        );
        expect(speech.requests.at(-1)?.input).toBe('Sunny all day.');
        const voice = voicesIn()[0]!;
        expect(isVoice(voice)).toBe(true);
        // A length told to the platform is the voice's own (the test server's tone: 16-bit samples at 24 kHz).
        if (voice.durationMs !== undefined)
          expect(Math.abs(voice.durationMs - speechTone('Sunny all day.').length / 48)).toBeLessThan(100);
        // The chats that did not ask got no voice.
        expect(voices()).toHaveLength(1);

        speech.enqueue({ status: 500, message: 'the speech engine is down' });
        model.enqueue(textReply('Rain later.'));
        await server.deliver({ chat: group, from: 'alice', text: 'and tonight?', mention: true });
        await reply(group, 'Rain later.', VOICE_WAIT_MS);
        await reply(group, 'could not be given a voice', VOICE_WAIT_MS);
        expect(voicesIn()).toHaveLength(1);
      },
      3 * VOICE_WAIT_MS,
    );

    test('secrets', 'never logs a credential (console and log file, both runs)', () => {
      expect(server.secrets.length).toBeGreaterThan(0);
      const text = logs();
      expect(text).toContain(server.malformedCode);
      for (const secret of server.secrets) expect(text).not.toContain(secret);
    });

    own?.({
      get server() {
        return server;
      },
      get model() {
        return model;
      },
      get speech() {
        return speech;
      },
      get aalis() {
        return running();
      },
      get dir() {
        return dir;
      },
      logs,
      restart: async (whileStopped) => {
        await stop();
        await whileStopped?.();
        await start();
      },
      reply,
      history,
    });
  });
}
