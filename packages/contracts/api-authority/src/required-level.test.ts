// meetsLevel: owners above every level, 'owner' only for owners, integers compared.
import { describe, expect, it } from 'vitest';
import { isRequiredLevel, meetsLevel } from './required-level.js';

describe('meetsLevel', () => {
  it('level 0 (and no requirement) admits everyone', () => {
    expect(meetsLevel({ level: 0, isOwner: false, required: 0 })).toBe(true);
    expect(meetsLevel({ level: 0, isOwner: false, required: undefined })).toBe(true);
  });
  it('a level meets every requirement at or below it and none above', () => {
    expect(meetsLevel({ level: 2, isOwner: false, required: 2 })).toBe(true);
    expect(meetsLevel({ level: 2, isOwner: false, required: 1 })).toBe(true);
    expect(meetsLevel({ level: 2, isOwner: false, required: 3 })).toBe(false);
  });
  it("'owner' admits owners only, whatever the level", () => {
    expect(meetsLevel({ level: 1000, isOwner: false, required: 'owner' })).toBe(false);
    expect(meetsLevel({ level: 0, isOwner: true, required: 'owner' })).toBe(true);
  });
  it('owners are above every level', () => {
    expect(meetsLevel({ level: 0, isOwner: true, required: 99 })).toBe(true);
  });
  it('isRequiredLevel accepts integers ≥ 0 and owner', () => {
    expect([0, 3, 'owner'].every(isRequiredLevel)).toBe(true);
    expect([-1, 1.5, 'admin', Number.NaN].some(isRequiredLevel)).toBe(false);
  });
});
