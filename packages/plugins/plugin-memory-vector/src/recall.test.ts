import { SqliteDatabase } from '@aalis/sqlite';
import { queryTerms } from '@aalis/util-text-search';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CandidateTerms, recall } from './recall.js';
import type { RecallEntry, RecallStore } from './recall-store.js';
import { sqliteRecallStore } from './sqlite-recall-store.js';

const T0 = Date.UTC(2026, 0, 1);
const SCOPE = { sessionId: 'qq:group:1', audiences: ['room:qq:1'], persons: [] };
const SETTINGS = {
  maxTokens: 2000,
  maxHits: 35,
  neighbours: 0,
  itemMaxChars: 400,
  neighbourMaxChars: 90,
  recencyHalfLifeDays: 90,
  recencyWeight: 0,
};

let clock = 0;
function entry(id: string, text: string): RecallEntry {
  clock += 60_000;
  return { messageId: id, sessionId: 'qq:group:1', audience: 'room:qq:1', role: 'user', at: T0 + clock, text };
}

describe('recall ranking', () => {
  let database: SqliteDatabase;
  let store: RecallStore;
  beforeEach(() => {
    database = new SqliteDatabase(':memory:');
    store = sqliteRecallStore(database);
  });
  afterEach(() => database.close());

  const matched = async (question: string, candidateTerms?: CandidateTerms) =>
    (
      await recall({
        ...(candidateTerms ? { candidateTerms } : {}),
        store,
        terms: queryTerms(question),
        scope: SCOPE,
        exclude: new Set(),
        now: T0 + 86_400_000,
        settings: SETTINGS,
        cost: () => 10,
        excerptCost: () => 5,
      })
    ).flatMap((excerpt) => [...excerpt.matched]);

  it('puts a match that adds to the question before a short echo of its words', async () => {
    await store.add([
      entry('echo', 'the support group, wow!'),
      entry('fact', 'I went to the LGBTQ support group yesterday, met brave people and felt accepted there at last'),
      entry('other', 'the weather was lovely'),
    ]);
    const question = 'When did you go to the support group?';
    // BM25 alone ranks the short echo first (fewer words, the same matches).
    expect((await store.search({ terms: queryTerms(question), scope: SCOPE, limit: 5 }))[0]?.messageId).toBe('echo');
    expect(await matched(question)).toEqual(['fact', 'echo']);
  });

  it('still recalls a short fact that alone matches', async () => {
    await store.add([entry('code', 'my locker code is walnut'), entry('other', 'the weather was lovely')]);
    expect(await matched('what is my locker code?')).toEqual(['code']);
  });

  it("ranks the same with candidates' words kept from earlier recalls, and forgets them with their messages", async () => {
    await store.add([
      entry('echo', 'the support group, wow!'),
      entry('fact', 'I went to the LGBTQ support group yesterday, met brave people and felt accepted there at last'),
      entry('other', 'the weather was lovely'),
    ]);
    const kept = new CandidateTerms(2);
    const question = 'When did you go to the support group?';
    expect(await matched(question, kept)).toEqual(['fact', 'echo']);
    // Kept words serve the next recall, with other words of its own.
    expect(await matched(question, kept)).toEqual(['fact', 'echo']);
    expect(await matched('who went to the support group yesterday?', kept)).toEqual(
      await matched('who went to the support group yesterday?'),
    );
    const fact = { ...entry('fact', 'replaced words'), score: 1 };
    expect(kept.of(fact, 400)).toContain('lgbtq');
    kept.forget(['fact']);
    expect(kept.of(fact, 400)).toEqual(['replac', 'word']);
  });

  it('asks the store for the neighbours of all its best matches in one call', async () => {
    // Twelve matches spread through a conversation, each between two lines of other talk.
    const said: RecallEntry[] = [];
    for (let n = 0; n < 12; n += 1)
      said.push(entry(`b${n}`, `chat ${n}`), entry(`k${n}`, `kayak trip number ${n}`), entry(`a${n}`, `ok ${n}`));
    await store.add(said);
    const calls: string[][] = [];
    const counted: RecallStore = {
      ...store,
      around: (ids, before, after) => {
        calls.push([...ids]);
        return store.around(ids, before, after);
      },
    };
    const excerpts = await recall({
      store: counted,
      terms: queryTerms('the kayak trip'),
      scope: SCOPE,
      exclude: new Set(['a3']),
      now: T0 + 86_400_000,
      settings: { ...SETTINGS, neighbours: 1 },
      cost: () => 10,
      excerptCost: () => 5,
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toHaveLength(10);
    // The ten best matches come with the line before and after (not what the prompt carries), the rest alone.
    const withContext = excerpts.filter((excerpt) => excerpt.entries.length > 1);
    expect(withContext).toHaveLength(10);
    for (const excerpt of withContext) {
      const [match] = excerpt.matched;
      const n = match?.slice(1);
      expect(excerpt.entries.map((one) => one.messageId)).toEqual(
        n === '3' ? ['b3', 'k3'] : [`b${n}`, `k${n}`, `a${n}`],
      );
    }
    expect(excerpts.filter((excerpt) => excerpt.entries.length === 1)).toHaveLength(2);
  });
});
