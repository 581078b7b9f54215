import { describe, expect, it } from 'vitest';
import { CachedToken } from './cached-token.js';

describe('CachedToken', () => {
  it('fetches once for calls that wait together, keeps the token until a minute before it expires, drops it', async () => {
    let fetches = 0;
    let release: ((lifetimeS: number) => void) | undefined;
    const token = new CachedToken(
      () =>
        new Promise((resolve) => {
          fetches++;
          release = (lifetimeS) => resolve({ value: `t${fetches}`, lifetimeS });
        }),
    );
    const waiting = [token.get(), token.get(), token.get()];
    release!(7200);
    expect(await Promise.all(waiting)).toEqual(['t1', 't1', 't1']);
    expect(await token.get()).toBe('t1');
    expect(fetches).toBe(1);
    token.drop();
    const next = token.get();
    release!(30); // shorter than the minute it is renewed early: kept 10 s at least
    expect(await next).toBe('t2');
    expect(await token.get()).toBe('t2');
    expect(fetches).toBe(2);
  });

  it('a failed fetch is not kept: the next call fetches again', async () => {
    let fetches = 0;
    const token = new CachedToken(async () => {
      fetches++;
      if (fetches === 1) throw new Error('refused');
      return { value: 'ok', lifetimeS: 7200 };
    });
    await expect(token.get()).rejects.toThrow('refused');
    expect(await token.get()).toBe('ok');
    expect(fetches).toBe(2);
  });
});
