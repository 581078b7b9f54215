// The memory page's pure parts: skills grouped by place (everywhere first), and a scope read into its parts.
import type { MemorySkillView } from '@aalis/session-client';
import { describe, expect, it } from 'vitest';
import { scopeParts, skillsByScope } from './memory-model.js';

function skill(id: string, scope: string): MemorySkillView {
  return { id, name: id, content: 'steps', scope, createdAt: 1, updatedAt: 1 };
}

describe('memory page model', () => {
  it('groups skills by scope, the skills of every conversation first, each group in the order given', () => {
    const groups = skillsByScope([
      skill('a', 'room:qq:700'),
      skill('b', 'global'),
      skill('c', 'room:qq:700'),
      skill('d', 'private:owner'),
    ]);
    expect(groups.map((group) => [group.scope, group.skills.map((entry) => entry.id)])).toEqual([
      ['global', ['b']],
      ['room:qq:700', ['a', 'c']],
      ['private:owner', ['d']],
    ]);
    expect(skillsByScope([])).toEqual([]);
  });

  it('reads a scope: everywhere, a room of a platform (venues may hold colons), one person’s private chats', () => {
    expect(scopeParts('global')).toEqual({ kind: 'global' });
    expect(scopeParts('room:satori:discord:123')).toEqual({ kind: 'room', platform: 'satori', venue: 'discord:123' });
    expect(scopeParts('private:webui:alice')).toEqual({ kind: 'private', person: 'webui:alice' });
  });
});
