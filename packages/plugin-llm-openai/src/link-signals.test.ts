import { describe, expect, it } from 'vitest';
import { SignalLinker } from './link-signals.js';

describe('SignalLinker', () => {
  it('aborts each linked call on its own signal or on the shared one, with one listener on the shared signal', () => {
    const shutdown = new AbortController();
    let added = 0;
    const original = shutdown.signal.addEventListener.bind(shutdown.signal);
    shutdown.signal.addEventListener = ((...args: Parameters<AbortSignal['addEventListener']>) => {
      added++;
      original(...args);
    }) as AbortSignal['addEventListener'];
    const linker = new SignalLinker(shutdown.signal);
    const calls = Array.from({ length: 50 }, () => new AbortController());
    const linked = calls.map((call) => linker.link(call.signal));
    expect(added).toBe(1); // the linker's own listener, none per call
    calls[3]!.abort('stop');
    expect(linked[3]!.signal!.aborted).toBe(true);
    expect(linked[3]!.signal!.reason).toBe('stop');
    expect(linked[4]!.signal!.aborted).toBe(false);
    linked[5]!.unlink();
    expect(linker.linked).toBe(49);
    shutdown.abort('shutting down');
    expect(linked[4]!.signal!.reason).toBe('shutting down');
    expect(linked[5]!.signal!.aborted).toBe(false); // unlinked: left alone
    for (const call of linked) call.unlink();
    expect(linker.linked).toBe(0);
  });

  it('starts aborted when either signal already is, and passes one signal through when the other is missing', () => {
    const shutdown = new AbortController();
    shutdown.abort('gone');
    expect(new SignalLinker(shutdown.signal).link(new AbortController().signal).signal!.reason).toBe('gone');
    const own = new AbortController().signal;
    expect(new SignalLinker(undefined).link(own).signal).toBe(own);
    expect(new SignalLinker(shutdown.signal).link(undefined).signal).toBe(shutdown.signal);
  });
});
