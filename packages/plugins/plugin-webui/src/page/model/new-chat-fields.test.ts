import type { ModelView } from '@aalis/session-client';
import { describe, expect, it } from 'vitest';
import { newChatFields } from './new-chat-fields.js';

const model = (id: string, name: string): ModelView => ({
  id,
  name,
  contextWindow: 1000,
  maxOutputTokens: 100,
  vision: false,
  tools: true,
  offline: false,
});
const texts = { label: 'Model', defaultChoice: (name: string | undefined) => `Default (${name ?? '?'})` };

describe('newChatFields', () => {
  it('offers the models with the default named, and the pick as the value', () => {
    const models = [model('openai/a', 'A'), model('openai/b', 'B')];
    const [field] = newChatFields(models, undefined, 'openai/b', texts);
    expect(field?.setting).toMatchObject({ key: 'llm', type: 'llm-ref', source: 'unset', note: 'Default (B)' });
    const [picked] = newChatFields(models, 'openai/a', 'openai/b', texts);
    expect(picked?.setting).toMatchObject({ value: 'openai/a', source: 'session' });
    expect(newChatFields(models, undefined, undefined, texts)[0]?.setting.note).toBe('Default (?)');
  });

  it('offers nothing when no model is configured', () => {
    expect(newChatFields([], undefined, undefined, texts)).toEqual([]);
  });
});
