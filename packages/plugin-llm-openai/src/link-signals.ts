// One signal aborted by either of two, with listeners removed when the call ends. (AbortSignal.any would keep a
// dependent signal per call registered on the plugin's long-lived shutdown signal.)

export interface LinkedSignal {
  signal: AbortSignal | undefined;
  unlink(): void;
}

export function linkSignals({ first, second }: { first?: AbortSignal; second?: AbortSignal }): LinkedSignal {
  if (!first || !second) return { signal: first ?? second, unlink: () => {} };
  const controller = new AbortController();
  const abortFirst = () => controller.abort(first.reason);
  const abortSecond = () => controller.abort(second.reason);
  if (first.aborted) abortFirst();
  else if (second.aborted) abortSecond();
  first.addEventListener('abort', abortFirst, { once: true });
  second.addEventListener('abort', abortSecond, { once: true });
  return {
    signal: controller.signal,
    unlink: () => {
      first.removeEventListener('abort', abortFirst);
      second.removeEventListener('abort', abortSecond);
    },
  };
}
