// @aalis/plugin-memory-vector: long-term memory (向量记忆, the memoryVector bucket of token:usage). Every archived
// message of every session is indexed as memory stores it (and what was stored while the plugin was away is caught
// up on start); each turn gets the most relevant past messages its participants could have seen, at turn-context.
import { agent } from '@aalis/api-agent';
import { authority } from '@aalis/api-authority';
import { contributions } from '@aalis/api-contributions';
import { embedding } from '@aalis/api-embedding';
import { memory } from '@aalis/api-memory';
import {
  type MemoryVectorService,
  type MemoryVectorStatus,
  memoryVector,
  type RecalledMessage,
} from '@aalis/api-memory-vector';
import { sessionManager } from '@aalis/api-session-manager';
import { storage } from '@aalis/api-storage';
import { atMost, config, definePlugin, events, i18n, lifecycle, logger, optional, provide } from '@aalis/core';
import type { Identity } from '@aalis/schema-message';
import { queryTerms } from '@aalis/util-text-search';
import { backfill } from './backfill.js';
import { catchUp } from './catch-up.js';
import { memoryVectorConfigSchema } from './memory-vector-config.js';
import { MessageIndexer } from './message-indexer.js';
import { postgresRecallStore } from './postgres-recall-store.js';
import { CandidateTerms, recall } from './recall.js';
import { blockCosts, headerTokens, LineCosts, recallBlock } from './recall-block.js';
import { recallContribution } from './recall-contribution.js';
import { recallEntry } from './recall-entry.js';
import { identityOfInput, identityOfStored, personOf, turnScope } from './recall-scope.js';
import { recallTokens } from './recall-tokens.js';
import { RecentRecalls } from './recent-recalls.js';
import { SessionAudiences } from './session-audiences.js';
import { sqliteRecallStore } from './sqlite-recall-store.js';
import { VectorIndexer } from './vector-indexer.js';
import './memory-vector-texts.js';

export { chooseTerms } from './choose-terms.js';
export { type MemoryVectorConfig, memoryVectorConfigSchema } from './memory-vector-config.js';
export { memoryVectorErrors } from './memory-vector-errors.js';
export { postgresRecallStore } from './postgres-recall-store.js';
export type { Excerpt, RecallSettings } from './recall.js';
export { recall } from './recall.js';
export { recallBlock } from './recall-block.js';
export type { Audience, RecallEntry, RecallHit, RecallQuery, RecallScope, RecallStore } from './recall-store.js';
export { sqliteRecallStore } from './sqlite-recall-store.js';

/** How long a search waits at most for the indexer to apply what waits (a catch-up after start can take longer). */
const SEARCH_WAIT_MS = 2_000;

export const memoryVectorPlugin = definePlugin({
  name: '@aalis/plugin-memory-vector',
  provides: [memoryVector],
  uses: {
    logger,
    config,
    events,
    i18n,
    lifecycle,
    provide,
    storage,
    memory,
    agent: optional(agent),
    contributions: optional(contributions),
    sessionManager: optional(sessionManager),
    authority: optional(authority),
    embedding: optional(embedding),
  },
  config: memoryVectorConfigSchema,
  async apply(handles) {
    const settings = handles.config.use;
    const log = handles.logger.use;
    const store =
      handles.storage.use.engine === 'postgres'
        ? await postgresRecallStore(handles.storage.use.postgres())
        : sqliteRecallStore(handles.storage.use.database());
    const isOwner = (identity: Identity) => handles.authority.available && handles.authority.use.isOwner(identity);
    const audiences = new SessionAudiences({
      sessionManager: () => (handles.sessionManager.available ? handles.sessionManager.use : undefined),
      isOwner,
    });
    const vectors = new VectorIndexer({
      store,
      embedding: () => (handles.embedding.available ? handles.embedding.use : undefined),
      log,
      queryTimeoutMs: settings.queryTimeoutMs,
    });
    const recent = new RecentRecalls();
    const candidateTerms = new CandidateTerms();
    const lineCosts = new LineCosts();
    const indexer = new MessageIndexer({
      store,
      log,
      onWritten: () => vectors.kick(),
      readAll: (sessionId) => handles.memory.use.readAll(sessionId),
      async entryOf(sessionId, message) {
        const speaker = message.role === 'user' ? identityOfStored(message) : undefined;
        const { audience, multiParty } = await audiences.audience(sessionId, speaker);
        const person = multiParty && speaker ? personOf(speaker, isOwner) : undefined;
        return recallEntry({ sessionId, message, audience, person });
      },
    });
    const scopeFor = async (sessionId: string, speakers: readonly Identity[]) => {
      const { audience } = await audiences.audience(sessionId, speakers[0]);
      return turnScope({ sessionId, audience, persons: speakers.map((speaker) => personOf(speaker, isOwner)) });
    };

    handles.events.use.on('memory:appended', ({ sessionId, messages }) => indexer.appended(sessionId, messages));
    handles.events.use.on('memory:deleted', ({ sessionId, turnId }) => {
      indexer.deletedTurn(sessionId, turnId);
      candidateTerms.clear();
      lineCosts.clear();
      vectors.rewind();
    });
    handles.events.use.on('memory:cleared', ({ sessionIds }) => {
      indexer.cleared(sessionIds);
      audiences.forget(sessionIds);
      recent.clear(sessionIds);
      candidateTerms.clear();
      lineCosts.clear();
      vectors.rewind();
    });
    const forget = async (messageIds: readonly string[]) => {
      // Appends wait a moment before they are indexed: one still waiting would come back after the removal.
      await indexer.settled();
      const removed = await store.deleteMessages(messageIds);
      recent.forget(new Set(messageIds));
      candidateTerms.forget(messageIds);
      lineCosts.clear();
      vectors.rewind();
      return removed;
    };

    if (handles.contributions.available) {
      handles.contributions.use.contribute(
        'agent:prompt',
        recallContribution({
          scopeOf: (view) =>
            scopeFor(
              view.sessionId,
              view.inputs.flatMap((input) => {
                const identity = identityOfInput(input.message);
                return identity ? [identity] : [];
              }),
            ),
          find: async ({ text, terms, scope, exclude, signal, contextWindow }) => {
            // A turn just rolled back (edit, regenerate) leaves the index before this recall reads it.
            await indexer.deletionsApplied();
            const costs = blockCosts(
              {
                sessionId: scope.sessionId,
                locale: handles.i18n.use.locale,
                timeZone: settings.timeZone,
                itemMaxChars: settings.itemMaxChars,
                neighbourMaxChars: settings.neighbourMaxChars,
              },
              lineCosts,
            );
            const excerpts = await recall({
              store,
              terms,
              scope,
              exclude,
              now: Date.now(),
              dense: (limit) => vectors.nearest(text, scope, limit, signal),
              // The block's header and preamble are paid first, from the same budget.
              settings: {
                ...settings,
                maxTokens: recallTokens(settings.maxTokens, contextWindow) - headerTokens(handles.i18n.use.locale),
              },
              cost: costs.line,
              excerptCost: costs.excerpt,
              candidateTerms,
            });
            return excerpts;
          },
          done: (recall) => recent.add(recall),
          render: (excerpts, sessionId) =>
            recallBlock(excerpts, {
              sessionId,
              locale: handles.i18n.use.locale,
              timeZone: settings.timeZone,
              itemMaxChars: settings.itemMaxChars,
              neighbourMaxChars: settings.neighbourMaxChars,
            }),
        }),
      );
    }

    let catchingUp: Promise<void> | undefined;
    // Started after the service is provided (below): the start does not wait for it.
    let backfilling: Promise<void> | undefined;
    const service: MemoryVectorService = {
      async search({ text, sessionId, speakers = [], limit = 10 }) {
        // What was said a moment ago (still in the indexer's short wait) is found too; a long catch-up is not
        // waited for beyond SEARCH_WAIT_MS.
        await atMost(indexer.settled(), SEARCH_WAIT_MS);
        const hits = await store.search({
          terms: queryTerms(text),
          scope: await scopeFor(sessionId, speakers),
          limit: Math.min(Math.max(1, limit), 100),
        });
        return hits.map(
          (hit): RecalledMessage => ({
            messageId: hit.messageId,
            sessionId: hit.sessionId,
            audience: hit.audience,
            ...(hit.speaker !== undefined ? { speaker: hit.speaker } : {}),
            role: hit.role,
            at: hit.at,
            text: hit.text,
            score: hit.score,
          }),
        );
      },
      forget,
      async forgetSaidBy({ speaker, text, sessionId }) {
        const person = personOf(speaker, isOwner);
        const own = `private:${person}`;
        const terms = queryTerms(text);
        if (terms.length === 0) return 0;
        // What was said a moment ago is indexed first, so it is found (and removed) too.
        await indexer.settled();
        const hits = await store.search({
          terms,
          scope: { sessionId, audiences: [own], persons: [person] },
          limit: 500,
        });
        const theirs = hits.filter((hit) => hit.person === person || hit.audience === own);
        return forget(theirs.map((hit) => hit.messageId));
      },
      async count() {
        await atMost(indexer.settled(), SEARCH_WAIT_MS);
        return store.count();
      },
      async settled() {
        await backfilling;
        await catchingUp;
        await indexer.settled();
        await vectors.settled();
      },
      async status(): Promise<MemoryVectorStatus> {
        // What was said a moment ago (still in the indexer's short wait) is counted too, as a search finds it.
        await atMost(indexer.settled(), SEARCH_WAIT_MS);
        const state = await vectors.status();
        return {
          indexed: await store.count(),
          vectors: {
            state: state.state,
            ...(state.model === undefined ? {} : { model: state.model }),
            ...(state.dimensions === undefined ? {} : { dimensions: state.dimensions }),
            embedded: await store.vectorCount(),
            ...(state.error ? { error: { code: state.error.code, text: state.error.text } } : {}),
          },
        };
      },
      async reindex({ onProgress } = {}) {
        await catchingUp;
        await indexer.settled();
        let last = { embedded: 0, total: 0 };
        const model = await vectors.reindex((progress) => {
          last = progress;
          onProgress?.(progress);
        });
        return { ...model, embedded: await store.vectorCount(), total: last.total };
      },
      recentRecalls: async (filter = {}) => recent.list(filter),
    };
    handles.provide.use.service(memoryVector, service);

    backfilling = backfill({ store, log, stopped: () => indexer.isStopped });
    if (settings.catchUp && handles.sessionManager.available) {
      const manager = handles.sessionManager.use;
      catchingUp = catchUp({ store, indexer, sessions: (filter) => manager.list(filter), log });
    }
    handles.lifecycle.use.onDispose(async () => {
      await indexer.stop();
      await backfilling;
      await vectors.stop();
    });
    // Vectors still missing from an earlier run (or never made: the endpoint was just configured) are made now.
    vectors.kick();
  },
});

export default memoryVectorPlugin;
