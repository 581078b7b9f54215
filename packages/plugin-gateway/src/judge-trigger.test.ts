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
