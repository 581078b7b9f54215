import { describe, expect, it } from 'vitest';
import { wasAddressed } from './incoming-message.js';

describe('wasAddressed', () => {
  it('counts direct and immediate real-person inputs', () => {
    expect(wasAddressed({ triggerType: 'direct' })).toBe(true);
    expect(wasAddressed({ triggerType: 'immediate' })).toBe(true);
  });
  it('counts real-person inputs that skipped trigger judgement', () => {
    expect(wasAddressed({})).toBe(true);
  });
  it('does not count injections or undirected chatter', () => {
    expect(wasAddressed({ source: 'scheduler', triggerType: 'direct' })).toBe(false);
    expect(wasAddressed({ triggerType: 'idle' })).toBe(false);
    expect(wasAddressed({ triggerType: 'ambient' })).toBe(false);
  });
});
