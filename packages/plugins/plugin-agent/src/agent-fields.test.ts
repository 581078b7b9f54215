// 会话设置项 「深度思考」: the note beside an effective level.
import type { ModelInfo } from '@aalis/api-llm';
import { translate } from '@aalis/core';
import { describe, expect, it } from 'vitest';
import { thinkingNote } from './agent-fields.js';
import './agent-catalogue.js';

const model = (thinking: ModelInfo['thinking']): ModelInfo => ({
  id: 'p/m',
  provider: 'p',
  model: 'm',
  name: 'M',
  contextWindow: 1000,
  maxOutputTokens: 100,
  capabilities: { tools: true, vision: false },
  thinking,
});

describe('深度思考 notes', () => {
  const levels = model({
    levels: [
      { id: 'low', name: '低' },
      { id: 'medium', name: '中' },
    ],
    default: 'medium',
  });

  it('says nothing when the model has the level', () => {
    expect(thinkingNote({ model: levels, level: 'low' })).toBeUndefined();
  });

  it('a level the model lacks: its name and 「当前模型没有这一档，按默认（<默认档的名字>）」', () => {
    expect(translate(thinkingNote({ model: levels, level: 'high', levelName: '高' })!, 'zh-CN')).toBe(
      '高：当前模型没有这一档，按默认（中）',
    );
    // No model names it otherwise: the UIs show the id as the value, the note adds nothing.
    expect(translate(thinkingNote({ model: levels, level: 'high' })!, 'zh-CN')).toBe(
      '当前模型没有这一档，按默认（中）',
    );
  });

  it('a model that cannot adjust: 「当前模型不能调」', () => {
    expect(translate(thinkingNote({ model: model('not-adjustable'), level: 'high' })!, 'zh-CN')).toBe('当前模型不能调');
  });
});
