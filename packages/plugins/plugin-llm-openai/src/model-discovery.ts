// Lists a server's models again after it could not be reached: a server that was down when the host started (a
// local Ollama started a minute later) still provides its models, without a restart. Pauses grow from 1 s to 30 s;
// a look-up of the model list while it waits (a turn, /model) tries again at once, at most once a second.

export const DISCOVERY_FIRST_DELAY_MS = 1_000;
export const DISCOVERY_MAX_DELAY_MS = 30_000;

export interface ModelDiscoveryOptions {
  /** Lists the models; rejects while the server cannot be reached. */
  refresh: () => Promise<unknown>;
  onFound: () => void;
  onFailed: (error: unknown, nextDelayMs: number) => void;
  now?: () => number;
}

export class ModelDiscovery {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private delayMs = DISCOVERY_FIRST_DELAY_MS;
  private inFlight = false;
  private lastAttempt = 0;
  private stopped = false;

  constructor(private readonly options: ModelDiscoveryOptions) {}

  /** Whether the list is still to be found (retries are scheduled). */
  get pending(): boolean {
    return this.timer !== undefined || this.inFlight;
  }

  /** The first look-up failed: keep trying in the background. */
  start(): void {
    if (this.stopped || this.pending) return;
    this.lastAttempt = (this.options.now ?? Date.now)();
    this.schedule();
  }

  /** Someone needs the list now: try at once when waiting (not more than once per first delay). */
  nudge(): void {
    const now = (this.options.now ?? Date.now)();
    if (this.stopped || this.inFlight || this.timer === undefined) return;
    if (now - this.lastAttempt < DISCOVERY_FIRST_DELAY_MS) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    void this.attempt();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.attempt();
    }, this.delayMs);
    // A pending look-up must not keep the process alive.
    this.timer.unref?.();
  }

  private async attempt(): Promise<void> {
    this.inFlight = true;
    this.lastAttempt = (this.options.now ?? Date.now)();
    try {
      await this.options.refresh();
      this.inFlight = false;
      if (!this.stopped) this.options.onFound();
    } catch (error) {
      this.inFlight = false;
      if (this.stopped) return;
      this.delayMs = Math.min(this.delayMs * 2, DISCOVERY_MAX_DELAY_MS);
      this.options.onFailed(error, this.delayMs);
      this.schedule();
    }
  }
}
