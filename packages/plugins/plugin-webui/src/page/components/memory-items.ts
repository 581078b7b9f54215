// The items of the 记忆 page: a profile fact, a skill and a past message, each shown or (facts and skills) edited in
// place, with their edit and delete buttons; and how people, places, times and reasons are written.
import type { MemoryFactView, MemoryMessageView, MemoryRecallView, MemorySkillView } from '@aalis/session-client';
import { h, type Ref, type ShallowRef } from 'vue';
import { tm } from '../memory-texts.js';
import { type MemoryModel, type MemorySnapshot, scopeParts } from '../model/memory-model.js';
import { preferences } from '../page-preferences.js';
import type { TextKey } from '../page-translator.js';

export function personLabel(person: string): string {
  return person === 'owner' ? tm('webui-page.memory.owner') : person;
}

export function scopeLabel(scope: string): string {
  const parts = scopeParts(scope);
  if (parts.kind === 'room')
    return tm('webui-page.memory.scope.room', { platform: parts.platform, venue: parts.venue });
  if (parts.kind === 'private') return tm('webui-page.memory.scope.private', { person: personLabel(parts.person) });
  return tm('webui-page.memory.scope.global');
}

export function when(at: number): string {
  return new Date(at).toLocaleString(preferences.locale, { dateStyle: 'medium', timeStyle: 'short' });
}

export function whyText(matched: readonly string[]): string {
  const reasons = matched.map((reason) =>
    reason === 'vector'
      ? tm('webui-page.memory.why.vector')
      : reason === 'neighbour'
        ? tm('webui-page.memory.why.neighbour')
        : tm('webui-page.memory.why.term', { term: reason }),
  );
  return tm('webui-page.memory.why', { why: reasons.join(preferences.locale === 'zh-CN' ? '、' : ', ') });
}

/** The drafts of the item being edited (one at a time). */
export interface MemoryDrafts {
  fact: Ref<string>;
  name: Ref<string>;
  content: Ref<string>;
}

export function memoryItems(model: MemoryModel, snapshot: Readonly<ShallowRef<MemorySnapshot>>, drafts: MemoryDrafts) {
  const draftFact = drafts.fact;
  const draftName = drafts.name;
  const draftContent = drafts.content;
  const editButtons = (kind: 'fact' | 'skill', itemId: string, label: string, start: () => void) =>
    h('div', { class: 'memory-actions' }, [
      h(
        'button',
        {
          type: 'button',
          class: 'button',
          'data-testid': `memory-${kind}-edit`,
          onClick: () => {
            start();
            model.startEdit(kind, itemId);
          },
        },
        tm('webui-page.memory.edit'),
      ),
      h(
        'button',
        {
          type: 'button',
          class: 'button danger',
          'data-testid': `memory-${kind}-delete`,
          onClick: () => model.askDelete({ kind, itemId, label }),
        },
        tm('webui-page.memory.delete'),
      ),
    ]);

  /** A one-line field of the item being edited, bound to its draft. */
  const textField = (label: string, testId: string, draft: Ref<string>, maxlength: number) =>
    h('label', { class: 'memory-field' }, [
      h('span', label),
      h('input', {
        type: 'text',
        'data-testid': testId,
        value: draft.value,
        maxlength,
        onInput: (event: Event) => {
          draft.value = (event.target as HTMLInputElement).value;
        },
      }),
    ]);
  /** Save (disabled while a change is on its way) and cancel, under the item being edited. */
  const saveButtons = (save: () => void) =>
    h('div', { class: 'memory-actions' }, [
      h(
        'button',
        {
          type: 'button',
          class: 'button primary',
          'data-testid': 'memory-save',
          disabled: snapshot.value.busy,
          onClick: save,
        },
        tm('webui-page.memory.save'),
      ),
      h(
        'button',
        { type: 'button', class: 'button', onClick: () => model.cancelEdit() },
        tm('webui-page.memory.cancel'),
      ),
    ]);

  const factItem = (fact: MemoryFactView, editable: boolean) => {
    const editing = snapshot.value.editing;
    if (editable && editing?.kind === 'fact' && editing.itemId === fact.id) {
      return h('li', { key: fact.id, class: 'memory-item', 'data-testid': 'memory-fact' }, [
        textField(tm('webui-page.memory.factText'), 'memory-fact-input', draftFact, 500),
        saveButtons(() => void model.saveFact(fact.id, draftFact.value)),
      ]);
    }
    return h('li', { key: fact.id, class: 'memory-item', 'data-testid': 'memory-fact' }, [
      h('p', { class: 'memory-text' }, fact.fact),
      h('p', { class: 'muted memory-meta' }, [
        fact.source ? `${tm(`webui-page.memory.source.${fact.source}` as TextKey<typeof tm>)} · ` : '',
        when(fact.at),
        editable ? '' : ` · ${personLabel(fact.person)}`,
      ]),
      editable ? editButtons('fact', fact.id, fact.fact, () => (draftFact.value = fact.fact)) : null,
    ]);
  };

  const skillItem = (skill: MemorySkillView, editable: boolean) => {
    const editing = snapshot.value.editing;
    if (editable && editing?.kind === 'skill' && editing.itemId === skill.id) {
      return h('li', { key: skill.id, class: 'memory-item', 'data-testid': 'memory-skill' }, [
        textField(tm('webui-page.memory.skillName'), 'memory-skill-name', draftName, 80),
        h('label', { class: 'memory-field' }, [
          h('span', tm('webui-page.memory.skillContent')),
          h('textarea', {
            'data-testid': 'memory-skill-content',
            rows: 5,
            value: draftContent.value,
            onInput: (event: Event) => {
              draftContent.value = (event.target as HTMLTextAreaElement).value;
            },
          }),
        ]),
        saveButtons(() => void model.saveSkill(skill.id, draftName.value, draftContent.value)),
      ]);
    }
    return h('li', { key: skill.id, class: 'memory-item', 'data-testid': 'memory-skill' }, [
      h('p', { class: 'memory-skill-name' }, skill.name),
      h('pre', { class: 'memory-skill-content' }, skill.content),
      h('p', { class: 'muted memory-meta' }, [scopeLabel(skill.scope), ' · ', when(skill.updatedAt)]),
      editable
        ? editButtons('skill', skill.id, skill.name, () => {
            draftName.value = skill.name;
            draftContent.value = skill.content;
          })
        : null,
    ]);
  };

  const messageItem = (message: MemoryMessageView | MemoryRecallView['items'][number], why?: readonly string[]) =>
    h('li', { key: message.messageId, class: 'memory-item', 'data-testid': 'memory-message' }, [
      h('p', { class: 'memory-text' }, message.text),
      h('p', { class: 'muted memory-meta' }, [
        message.speaker ?? tm('webui-page.memory.her'),
        ' · ',
        when(message.at),
        ' · ',
        message.sessionId,
      ]),
      why ? h('p', { class: 'memory-why', 'data-testid': 'memory-why' }, whyText(why)) : null,
    ]);

  return { factItem, skillItem, messageItem };
}
