// Replays a LoCoMo-shaped conversation (two people over many dated sessions, questions with the ids of the
// messages holding their evidence) as a two-person group chat through the real agent: every message archived as
// room talk that did not address her, then each question asked addressing her. Measures which evidence messages
// reach the model's prompt: through the history window alone, and with the recalled block. Used by
// `npm run bench memory-recall` (the public data set) and by its test (a small fixture of our own).
import { readFileSync } from 'node:fs';
import { memoryVector } from '@aalis/api-memory-vector';
import { sessionManager } from '@aalis/api-session-manager';
import { sessionFields } from '@aalis/api-session-settings';
import { estimateTextTokens } from '@aalis/context-budget';
import { type Harness, startHarness } from '@aalis/plugin-agent/testing';
import type { PluginEntry } from '@aalis/testing';

export interface DialogTurn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}

export interface Question {
  question: string;
  evidence: string[];
  category?: number;
}

export interface Conversation {
  id: string;
  speakers: [string, string];
  /** Sessions in order, each with its date. */
  sessions: Array<{ at: number; turns: DialogTurn[] }>;
  questions: Question[];
}

/** LoCoMo's "1:56 pm on 8 May, 2023". */
export function parseLocomoDate(text: string): number {
  const match = /(\d+):(\d+)\s*(am|pm) on (\d+) (\w+),? (\d{4})/i.exec(text);
  if (!match) return Number.NaN;
  const [, hour = '0', minute = '0', half = 'am', day = '1', month = 'January', year = '2023'] = match;
  const months = [
    'january',
    'february',
    'march',
    'april',
    'may',
    'june',
    'july',
    'august',
    'september',
    'october',
    'november',
    'december',
  ];
  const hour24 = (Number(hour) % 12) + (half.toLowerCase() === 'pm' ? 12 : 0);
  return Date.UTC(Number(year), months.indexOf(month.toLowerCase()), Number(day), hour24, Number(minute));
}

/** One LoCoMo conversation object (the per-file form, or an element's `conversation` with its `qa`). */
export function fromLocomo(id: string, conversation: Record<string, unknown>, qa: unknown): Conversation {
  const sessions: Conversation['sessions'] = [];
  for (let n = 1; Array.isArray(conversation[`session_${n}`]); n += 1) {
    sessions.push({
      at: parseLocomoDate(String(conversation[`session_${n}_date_time`] ?? '')),
      turns: conversation[`session_${n}`] as DialogTurn[],
    });
  }
  const questions = (Array.isArray(qa) ? qa : [])
    .filter(
      (q): q is Question => typeof q?.question === 'string' && Array.isArray(q?.evidence) && q.evidence.length > 0,
    )
    // Category 5 questions are adversarial (their evidence is about the other person): LoCoMo's own evaluations
    // leave them out of retrieval figures.
    .filter((q) => q.category !== 5);
  return {
    id,
    speakers: [String(conversation.speaker_a), String(conversation.speaker_b)],
    sessions,
    questions,
  };
}

/** Reads a LoCoMo file: locomo10.json (an array) or one per-conversation file of the multimodal release. */
export function readLocomo(path: string): Conversation[] {
  const data = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  if (Array.isArray(data)) {
    return data.map((item, index) =>
      fromLocomo(String(item.sample_id ?? index), item.conversation as Record<string, unknown>, item.qa),
    );
  }
  const record = data as Record<string, unknown>;
  return [fromLocomo(path.replace(/^.*\//, '').replace(/\.json$/, ''), record, record.qa)];
}

/** The words a dialog turn is archived with (a shared photo is said in words: LoCoMo's caption). */
export function spokenText(turn: DialogTurn): string {
  return turn.blip_caption ? `${turn.text} [shares ${turn.blip_caption}]` : turn.text;
}

export interface ReplayResult {
  questions: number;
  evidence: number;
  /** Evidence messages found in the history the prompt carried. */
  inHistory: number;
  /** Evidence messages found anywhere in the prompt (history or recalled block). */
  inPrompt: number;
  /** Estimated tokens of each question's recalled block (0 when it had none). */
  recalledTokens: number[];
  /** Each question's time to first token: from handing the message in to the reply's first streamed words (ms). */
  ttftMs: number[];
  /** How long each question's recall took, as the plugin measured it (ms; questions with a recalled block only). */
  recallMs: number[];
  /** The process's CPU time during each of those recalls (ms). */
  recallCpuMs: number[];
}

/** One question asked of a replayed conversation: what reached its prompt and how long it took. */
export interface Asked {
  evidence: number;
  inHistory: number;
  inPrompt: number;
  recalledTokens: number;
  /** Undefined when no words were streamed. */
  ttftMs: number | undefined;
  /** Undefined when the turn recalled nothing (or memory is off). */
  recallMs: number | undefined;
  /** The process's CPU time during the recall; undefined as recallMs is. */
  recallCpuMs: number | undefined;
  /** The recalled block as sent ('' when none). */
  block: string;
  /** Each evidence message the history did not carry, as the block would quote its start. */
  outsideHistory: string[];
}

/** A conversation archived in a harness, ready for its questions one at a time. */
export interface PreparedReplay {
  ask(question: Question): Promise<Asked>;
  close(): Promise<void>;
}

type MissHandler = (miss: { question: string; evidence: string; recalled: string }) => void;

/** Told when a question is handed in and when its first words stream back (the bench's turn timeline). */
export interface TurnWatcher {
  start(): void;
  firstToken(): void;
}

/**
 * Archives the conversation in a harness (its own unless one is given) and returns a function that asks one
 * question: two harnesses (with and without long-term memory) can then be asked the same questions in turns, so
 * the machine's load weighs on both alike.
 */
export async function prepareReplay(
  conversation: Conversation,
  {
    historyLimit,
    extra,
    harness: given,
    onMiss,
    watcher,
  }: { historyLimit: number; extra: PluginEntry[]; harness?: Harness; onMiss?: MissHandler; watcher?: TurnWatcher },
): Promise<PreparedReplay> {
  const harness = given ?? (await startHarness({ extra }));
  const close = async () => {
    if (!given) await harness.close();
  };
  try {
    const sessionId = `qq:group:${conversation.id}`;
    const venue = conversation.id;
    const sessions = harness.booted.app.services.selected(sessionManager)!.impl;
    await sessions.ensure({ id: sessionId, kind: 'room', platform: 'qq', venue, originChat: { multiParty: true } });
    const settings = harness.booted.app.services.selected(sessionFields)!.impl;
    await settings.set({
      layer: 'venue',
      target: `qq/${venue}`,
      key: 'historyLimit',
      value: historyLimit,
      caller: { via: 'host' },
    });
    const texts = new Map<string, string>();
    const userOf = (speaker: string) => speaker.toLowerCase().replace(/\W+/g, '');
    let last = 0;
    for (const session of conversation.sessions) {
      let at = Number.isFinite(session.at) ? session.at : last + 86_400_000;
      for (const turn of session.turns) {
        const text = spokenText(turn);
        texts.set(turn.dia_id, text);
        await harness.agent.handleMessage({
          sessionId,
          platform: 'qq',
          venue,
          sender: { userId: userOf(turn.speaker), displayName: turn.speaker },
          content: text,
          triggerType: 'ambient',
          timestamp: at,
        });
        at += 30_000;
      }
      last = at;
    }
    const memory = harness.booted.app.services.selected(memoryVector)?.impl;
    await memory?.settled();
    const asker = conversation.speakers[0];
    let firstToken: number | undefined;
    harness.booted.app.events.on('outbound:stream', (fragment) => {
      if (fragment.sessionId === sessionId && fragment.delta && firstToken === undefined) {
        firstToken = performance.now();
        watcher?.firstToken();
      }
    });
    const ask = async (question: Question): Promise<Asked> => {
      const before = harness.requests().length;
      const askedAt = Date.now();
      firstToken = undefined;
      watcher?.start();
      const started = performance.now();
      await harness.agent.handleMessage({
        sessionId,
        platform: 'qq',
        venue,
        sender: { userId: userOf(asker), displayName: asker },
        content: question.question,
        triggerType: 'direct',
        timestamp: last + 3_600_000,
      });
      const request = harness.requests()[before];
      if (!request) throw new Error('the question made no model request');
      const ttftMs = firstToken === undefined ? undefined : firstToken - started;
      const [record] = (await memory?.recentRecalls({ sessionIds: [sessionId], limit: 1 })) ?? [];
      const fresh = record !== undefined && record.at >= askedAt;
      const recallMs = fresh ? record.ms : undefined;
      const recallCpuMs = fresh ? record.cpuMs : undefined;
      const contents = request.messages.map((message) => String(message.content ?? ''));
      const recalled = contents.filter(
        (content) => content.startsWith('[长期记忆]') || content.startsWith('[Long-term memory]'),
      );
      const history = contents.filter((content) => !recalled.includes(content));
      const asked: Asked = {
        evidence: 0,
        inHistory: 0,
        inPrompt: 0,
        recalledTokens: recalled.reduce((sum, content) => sum + estimateTextTokens(content), 0),
        ttftMs,
        recallMs,
        recallCpuMs,
        block: recalled.join('\n'),
        outsideHistory: [],
      };
      for (const id of question.evidence) {
        const text = texts.get(id);
        if (text === undefined) continue;
        asked.evidence += 1;
        const probe = text.slice(0, 80);
        const quoted = JSON.stringify(probe).slice(1, -1);
        if (history.some((content) => content.includes(probe))) {
          asked.inHistory += 1;
          asked.inPrompt += 1;
          continue;
        }
        asked.outsideHistory.push(quoted);
        if (recalled.some((content) => content.includes(quoted))) asked.inPrompt += 1;
        else onMiss?.({ question: question.question, evidence: text, recalled: recalled.join('\n') });
      }
      await memory?.settled();
      return asked;
    };
    return { ask, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Adds one question's figures to a conversation's. */
export function addAsked(result: ReplayResult, asked: Asked): void {
  result.questions += 1;
  result.evidence += asked.evidence;
  result.inHistory += asked.inHistory;
  result.inPrompt += asked.inPrompt;
  result.recalledTokens.push(asked.recalledTokens);
  if (asked.ttftMs !== undefined) result.ttftMs.push(asked.ttftMs);
  if (asked.recallMs !== undefined) result.recallMs.push(asked.recallMs);
  if (asked.recallCpuMs !== undefined) result.recallCpuMs.push(asked.recallCpuMs);
}

export const emptyResult = (): ReplayResult => ({
  questions: 0,
  evidence: 0,
  inHistory: 0,
  inPrompt: 0,
  recalledTokens: [],
  ttftMs: [],
  recallMs: [],
  recallCpuMs: [],
});

export async function replayConversation(
  conversation: Conversation,
  options: {
    historyLimit: number;
    extra: PluginEntry[];
    harness?: Harness;
    /** Called for each evidence message that did not reach the prompt (diagnostics). */
    onMiss?: MissHandler;
  },
): Promise<ReplayResult> {
  const replay = await prepareReplay(conversation, options);
  try {
    const result = emptyResult();
    for (const question of conversation.questions) addAsked(result, await replay.ask(question));
    return result;
  } finally {
    await replay.close();
  }
}
