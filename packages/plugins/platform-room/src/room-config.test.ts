import { describe, expect, it } from 'vitest';
import { sectionHasText } from './room-config.js';

describe('sectionHasText', () => {
  it('is true only when every key holds a non-empty string', () => {
    expect(sectionHasText({ token: 'x' }, 'token')).toBe(true);
    expect(sectionHasText({ appId: 'a', appSecret: 's' }, 'appId', 'appSecret')).toBe(true);
    expect(sectionHasText({ appId: 'a', appSecret: '' }, 'appId', 'appSecret')).toBe(false);
    expect(sectionHasText({ token: 42 }, 'token')).toBe(false);
    expect(sectionHasText({}, 'token')).toBe(false);
    expect(sectionHasText(undefined, 'token')).toBe(false);
    expect(sectionHasText('token', 'token')).toBe(false);
  });
});
