// The 记忆 page's state: the people and places visible to the account, the selected person's facts, the skills, the
// latest recalls with why each message came, a search over all of it, and the item being edited or deleted.
import type {
  MemoryFactView,
  MemoryItemKind,
  MemoryListResult,
  MemoryMessageView,
  MemorySkillView,
  SessionClient,
} from '@aalis/session-client';
import { StateStore } from './store.js';

export interface MemorySearchResults {
  query: string;
  facts: readonly MemoryFactView[];
  skills: readonly MemorySkillView[];
  messages: readonly MemoryMessageView[];
}

/** What a person is asked before something is deleted. */
export interface PendingDeletion {
  kind: MemoryItemKind;
  itemId: string;
  /** The fact's text or the skill's name. */
  label: string;
}

export interface MemorySnapshot {
  list?: MemoryListResult;
  /** The person whose facts are shown. */
  person?: string;
  search?: MemorySearchResults;
  /** The item being edited: its kind and id. */
  editing?: { kind: MemoryItemKind; itemId: string };
  deleting?: PendingDeletion;
  busy: boolean;
  /** The last refused action, in the page's language. */
  error?: string;
  /** What the last action did (e.g. how many messages a forgotten fact took along). */
  notice?: { kind: 'deleted' | 'forgot'; count: number };
}

/** Skills grouped by scope, the scopes in the order first seen (global first). */
export function skillsByScope(skills: readonly MemorySkillView[]): { scope: string; skills: MemorySkillView[] }[] {
  const groups = new Map<string, MemorySkillView[]>();
  const ordered = [...skills].sort((a, b) => Number(b.scope === 'global') - Number(a.scope === 'global'));
  for (const skill of ordered) {
    const group = groups.get(skill.scope) ?? [];
    group.push(skill);
    groups.set(skill.scope, group);
  }
  return [...groups].map(([scope, list]) => ({ scope, skills: list }));
}

/** A scope as its parts: `global`, a room (platform, venue) or one person's private chats. */
export function scopeParts(
  scope: string,
): { kind: 'global' } | { kind: 'room'; platform: string; venue: string } | { kind: 'private'; person: string } {
  if (scope.startsWith('room:')) {
    const rest = scope.slice(5);
    const colon = rest.indexOf(':');
    return { kind: 'room', platform: rest.slice(0, colon), venue: rest.slice(colon + 1) };
  }
  if (scope.startsWith('private:')) return { kind: 'private', person: scope.slice(8) };
  return { kind: 'global' };
}

export class MemoryModel extends StateStore<MemorySnapshot> {
  constructor(
    private readonly client: SessionClient,
    private readonly describe: (error: unknown) => string,
  ) {
    super({ busy: false });
  }

  private async attempt(work: () => Promise<void>): Promise<void> {
    this.set({ busy: true, error: undefined });
    try {
      await work();
    } catch (error) {
      this.set({ error: this.describe(error) });
    } finally {
      this.set({ busy: false });
    }
  }

  /** Loads what is remembered: the given person's facts (the account's own by default). */
  async load(person = this.state.person): Promise<void> {
    await this.attempt(async () => {
      const list = await this.client.request('memory.list', person === undefined ? {} : { person });
      this.set({ list, person: list.person });
    });
  }

  async search(query: string): Promise<void> {
    const text = query.trim();
    if (text === '') return this.set({ search: undefined });
    await this.attempt(async () => {
      const found = await this.client.request('memory.search', { query: text });
      this.set({ search: { query: text, ...found } });
    });
  }

  clearSearch(): void {
    this.set({ search: undefined });
  }

  startEdit(kind: MemoryItemKind, itemId: string): void {
    this.set({ editing: { kind, itemId }, notice: undefined });
  }

  cancelEdit(): void {
    this.set({ editing: undefined });
  }

  async saveFact(itemId: string, text: string): Promise<void> {
    await this.attempt(async () => {
      await this.client.request('memory.update', { kind: 'fact', itemId, text });
      this.set({ editing: undefined });
      await this.refresh();
    });
  }

  async saveSkill(itemId: string, name: string, text: string): Promise<void> {
    await this.attempt(async () => {
      await this.client.request('memory.update', { kind: 'skill', itemId, name, text });
      this.set({ editing: undefined });
      await this.refresh();
    });
  }

  askDelete(deletion: PendingDeletion): void {
    this.set({ deleting: deletion, notice: undefined });
  }

  /** The person's answer to the confirmation: deletes only on yes. */
  async answerDelete(confirmed: boolean): Promise<void> {
    const deletion = this.state.deleting;
    this.set({ deleting: undefined });
    if (!confirmed || !deletion) return;
    await this.attempt(async () => {
      const { messages } = await this.client.request('memory.delete', {
        kind: deletion.kind,
        itemId: deletion.itemId,
      });
      this.set({ notice: messages > 0 ? { kind: 'forgot', count: messages } : { kind: 'deleted', count: 0 } });
      await this.refresh();
    });
  }

  /** The list again, and the search again when one is shown (what was deleted leaves both). */
  private async refresh(): Promise<void> {
    const list = await this.client.request(
      'memory.list',
      this.state.person === undefined ? {} : { person: this.state.person },
    );
    this.set({ list });
    const query = this.state.search?.query;
    if (query !== undefined) {
      const found = await this.client.request('memory.search', { query });
      this.set({ search: { query, ...found } });
    }
  }
}
