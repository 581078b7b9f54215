// The login limits: five failures are free, then each attempt waits 30 s doubling to at most 15 minutes, per account
// and per address alike; a success clears them, and a day without failures forgets them.
import { describe, expect, it } from 'vitest';
import { accountErrors } from './account-errors.js';
import { backoffMs, LoginThrottle } from './login-throttle.js';

describe('login throttle', () => {
  it('waits nothing for four failures, then 30 s doubling up to 15 minutes', () => {
    expect([0, 1, 2, 3, 4].map(backoffMs)).toEqual([0, 0, 0, 0, 0]);
    expect([5, 6, 7, 8, 9, 10, 11, 40].map((failures) => backoffMs(failures) / 1000)).toEqual([
      30, 60, 120, 240, 480, 900, 900, 900,
    ]);
  });

  it('refuses an account after five failures from any address, with the seconds to wait, until they pass', () => {
    let now = 1_000_000;
    const throttle = new LoginThrottle(() => now);
    for (let attempt = 0; attempt < 5; attempt++) {
      expect(() => throttle.check('alice', `10.0.0.${attempt}`)).not.toThrow();
      throttle.failed('alice', `10.0.0.${attempt}`);
    }
    let refusal: unknown;
    try {
      throttle.check('Alice', '10.9.9.9');
    } catch (error) {
      refusal = error;
    }
    expect(accountErrors.AALIS_WEBUI_LOGIN_THROTTLED.is(refusal)).toBe(true);
    expect((refusal as { details: Record<string, unknown> }).details.retryAfterSeconds).toBe(30);
    // Another account from a fresh address is not held up.
    expect(() => throttle.check('bob', '10.9.9.9')).not.toThrow();
    now += 29_000;
    expect(() => throttle.check('alice', '10.9.9.9')).toThrow();
    now += 1_000;
    expect(() => throttle.check('alice', '10.9.9.9')).not.toThrow();
    throttle.failed('alice', '10.9.9.9');
    expect(throttle.retryAt('alice', '10.8.8.8')).toBe(now + 60_000);
  });

  it('refuses an address after five failures against any accounts; a success clears both counts', () => {
    let now = 5_000_000;
    const throttle = new LoginThrottle(() => now);
    for (const account of ['a', 'b', 'c', 'd', 'e']) throttle.failed(account, '192.0.2.1');
    expect(() => throttle.check('f', '192.0.2.1')).toThrow();
    expect(() => throttle.check('f', '192.0.2.2')).not.toThrow();
    now += 30_000;
    throttle.succeeded('f', '192.0.2.1');
    throttle.failed('f', '192.0.2.1');
    expect(() => throttle.check('f', '192.0.2.1')).not.toThrow();
  });

  it('forgets failures a day after the last one', () => {
    let now = 0;
    const throttle = new LoginThrottle(() => now);
    for (let attempt = 0; attempt < 12; attempt++) throttle.failed('alice', '198.51.100.1');
    expect(throttle.retryAt('alice', '198.51.100.1')).toBe(15 * 60_000);
    now += 24 * 60 * 60_000 + 1;
    expect(throttle.retryAt('alice', '198.51.100.1')).toBe(0);
    throttle.failed('alice', '198.51.100.1');
    expect(throttle.retryAt('alice', '198.51.100.1')).toBe(0);
  });
});
