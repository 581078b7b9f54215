// The layer targets a scope reads, highest precedence first.
import { describe, expect, it } from 'vitest';
import { layerTargetsOf } from './layers.js';

describe('layerTargetsOf', () => {
  it('reads session, venue, platform, platform type and global, in that order', () => {
    expect(layerTargetsOf({ sessionId: 's', platform: 'qq', venue: 'g', platformType: 'onebot' })).toEqual([
      { layer: 'session', target: 's' },
      { layer: 'venue', target: 'qq/g' },
      { layer: 'platform', target: 'qq' },
      { layer: 'platformType', target: 'onebot' },
      { layer: 'global', target: '' },
    ]);
  });

  it('skips layers the scope has no target for; a venue needs its platform', () => {
    expect(layerTargetsOf({ sessionId: 's', venue: 'g' })).toEqual([
      { layer: 'session', target: 's' },
      { layer: 'global', target: '' },
    ]);
  });
});
