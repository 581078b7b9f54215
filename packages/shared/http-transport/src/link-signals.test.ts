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

  it('gives the calls of one caller signal one linked signal and one listener on it, with the same aborts', () => {
    const shutdown = new AbortController();
    const linker = new SignalLinker(shutdown.signal);
    const turn = new AbortController();
    let listeners = 0;
    const original = turn.signal.addEventListener.bind(turn.signal);
    turn.signal.addEventListener = ((...args: Parameters<AbortSignal['addEventListener']>) => {
      listeners++;
      original(...args);
    }) as AbortSignal['addEventListener'];
    const first = linker.link(turn.signal);
    first.unlink();
    const second = linker.link(turn.signal);
    const parallel = Array.from({ length: 20 }, () => linker.link(turn.signal));
    expect(second.signal).toBe(first.signal);
    expect(listeners).toBe(1);
    expect(linker.linked).toBe(21);
    for (const call of parallel) call.unlink();
    expect(linker.linked).toBe(1);
    turn.abort('stopped');
    expect(second.signal!.reason).toBe('stopped');
    second.unlink();
    // Aborted since: a later call starts aborted with the caller's reason, another caller's call does not.
    expect(linker.link(turn.signal).signal!.reason).toBe('stopped');
    expect(linker.link(new AbortController().signal).signal!.aborted).toBe(false);
  });

  it('aborts a shared linked signal on shutdown while one of its calls is in flight, and not after the last', () => {
    const shutdown = new AbortController();
    const linker = new SignalLinker(shutdown.signal);
    const idle = new AbortController();
    linker.link(idle.signal).unlink();
    const busy = new AbortController();
    const done = linker.link(busy.signal);
    const running = linker.link(busy.signal);
    done.unlink();
    shutdown.abort('shutting down');
    expect(running.signal!.reason).toBe('shutting down');
    const idleAgain = linker.link(idle.signal);
    expect(idleAgain.signal!.reason).toBe('shutting down'); // a call after shutdown starts aborted
    running.unlink();
    expect(linker.linked).toBe(0);
  });
});
