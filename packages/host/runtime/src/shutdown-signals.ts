// What a process signal does to a running aalis command: the first drains, a later SIGINT or SIGTERM exits at once.
// A later SIGHUP changes nothing: one hang-up arrives more than once (the kernel's when the terminal closes, then the
// shell's as it passes it on to its jobs), and exiting on the second would skip the drain the first one started.
// The end of input (EOF, a closed terminal) drains too, but it is no signal: a first signal after it is still the first.

export type SignalAction = 'drain' | 'force' | 'ignore';

/** A fresh policy per run: remembers whether a signal already started the drain. */
export function shutdownSignals(): (signal: NodeJS.Signals) => SignalAction {
  let signalled = false;
  return (signal) => {
    if (!signalled) {
      signalled = true;
      return 'drain';
    }
    return signal === 'SIGHUP' ? 'ignore' : 'force';
  };
}
