import { describe, expect, it } from 'vitest';
import { judgeTrigger, type TriggerRules } from './judge-trigger.js';

const rules: TriggerRules = { names: ['Aalis', '爱丽丝'], unaddressed: 'drop' };
const judge = (
  content: string,
  multiParty: boolean,
  extra: { triggerType?: string; source?: string } = {},
  r = rules,
) => judgeTrigger({ message: { content, ...extra }, multiParty, rules: r });

describe('judgeTrigger', () => {
  it('makes every input outside multi-party rooms direct', () => {
    expect(judge('anything', false)).toEqual({ action: 'set', triggerType: 'direct' });
  });

  it('makes room messages naming her direct, case-insensitively, in any script', () => {
    expect(judge('hey aalis, look', true)).toEqual({ action: 'set', triggerType: 'direct' });
    expect(judge('爱丽丝在吗', true)).toEqual({ action: 'set', triggerType: 'direct' });
  });

  it('drops or passes on unaddressed room messages per configuration', () => {
    expect(judge('just chatting', true)).toEqual({ action: 'drop' });
    expect(judge('just chatting', true, {}, { names: [], unaddressed: 'ambient' })).toEqual({
      action: 'set',
      triggerType: 'ambient',
    });
  });

  it('keeps a triggerType given by the platform and never judges injections', () => {
    expect(judge('@bot hi', true, { triggerType: 'direct' })).toEqual({ action: 'keep' });
    expect(judge('reminder', true, { source: 'scheduler' })).toEqual({ action: 'keep' });
  });

  it('ignores blank configured names', () => {
    expect(judge('anything', true, {}, { names: ['  '], unaddressed: 'drop' })).toEqual({ action: 'drop' });
  });
});

describe('judgeTrigger: keywords, pokes and joining chatter', () => {
  const policy: TriggerRules = {
    names: ['Aalis'],
    keywords: ['天气'],
    unaddressed: 'ambient',
    joinChance: 0.5,
    joinIntervalMs: 60_000,
  };
  const at = (content: string, extra: Parameters<typeof judgeTrigger>[0] extends infer P ? Partial<P> : never) =>
    judgeTrigger({ message: { content }, multiParty: true, rules: policy, now: 100_000, ...extra });

  it('treats a keyword like her name', () => {
    expect(at('今天天气怎么样', { random: () => 0.99 })).toEqual({ action: 'set', triggerType: 'direct' });
  });

  it('makes a poke direct unless the policy turns pokes off', () => {
    const poke = { content: '', triggerType: 'poke' };
    expect(judgeTrigger({ message: poke, multiParty: true, rules: policy })).toEqual({
      action: 'set',
      triggerType: 'direct',
    });
    expect(judgeTrigger({ message: poke, multiParty: true, rules: { ...policy, poke: false } })).toEqual({
      action: 'set',
      triggerType: 'ambient',
    });
  });

  it('joins unaddressed chatter by chance, at most once per interval', () => {
    expect(at('lunch?', { random: () => 0.4 })).toEqual({ action: 'set', triggerType: 'join' });
    expect(at('lunch?', { random: () => 0.6 })).toEqual({ action: 'set', triggerType: 'ambient' });
    expect(at('lunch?', { random: () => 0.1, lastJoinAt: 50_000 })).toEqual({ action: 'set', triggerType: 'ambient' });
    expect(at('lunch?', { random: () => 0.1, lastJoinAt: 40_000 })).toEqual({ action: 'set', triggerType: 'join' });
    expect(at('lunch?', { random: () => 0, rules: { ...policy, joinChance: 0 } })).toEqual({
      action: 'set',
      triggerType: 'ambient',
    });
  });
});
