// Waiting for something that should come soon, without letting it hold the caller for good.

/** Resolves when `work` does (rejects when it does), or after `ms` at the latest; its timer is cleared either way. */
export async function atMost(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      work,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
