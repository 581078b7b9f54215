// Actions waiting for a person's approval. A wrapped tool enqueues a request and waits; approve() runs the action,
// reject() (or clear(), or the run's cancellation) gives the model an error it can read.
import type { Locale } from '@plingjs/agent';
import { Observable } from '@plingjs/agent';
import type { PageEventBody } from './page-events.js';
import { redact } from './sensitive.js';

export interface ConfirmationRequest {
  /** `confirmation-1`, `confirmation-2`, … per page. */
  id: string;
  actionId: string;
  description: string;
  danger: boolean;
  /** The arguments as the model sent them, redacted. */
  arguments: Record<string, unknown>;
  sessionId?: string;
  callId?: string;
  createdAt: number;
}

export type ConfirmationDecision = { approved: true } | { approved: false; by: 'user' | 'cleared'; reason?: string };

export type ConfirmationInput = Omit<ConfirmationRequest, 'id' | 'createdAt'>;

interface Pending {
  request: ConfirmationRequest;
  settle(decision: ConfirmationDecision): void;
}

export interface QueueOptions {
  now: () => number;
  /** Language of the queue's errors (default 'zh-CN'). */
  locale?: Locale;
  emit: (event: PageEventBody) => void;
}

export class ConfirmationQueue extends Observable<readonly ConfirmationRequest[]> {
  private readonly pending = new Map<string, Pending>();
  private counter = 0;
  constructor(private readonly options: QueueOptions) {
    super();
  }

  /**
   * Enqueues a request and resolves with the person's decision. When `signal` aborts first, the request leaves the
   * queue (a `confirmation:rejected` event with `by: 'cancelled'`) and the promise rejects with the signal's reason.
   */
  request(input: ConfirmationInput, signal?: AbortSignal): Promise<ConfirmationDecision> {
    const request: ConfirmationRequest = Object.freeze({
      ...input,
      arguments: redact(input.arguments) as Record<string, unknown>,
      id: `confirmation-${++this.counter}`,
      createdAt: this.options.now(),
    });
    return new Promise<ConfirmationDecision>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        if (!this.pending.delete(request.id)) return;
        this.changed();
        this.options.emit({
          type: 'confirmation:rejected',
          id: request.id,
          actionId: request.actionId,
          by: 'cancelled',
        });
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(request.id, {
        request,
        settle: (decision) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(decision);
        },
      });
      this.changed();
      this.options.emit({ type: 'confirmation:requested', request });
    });
  }

  /** Runs the waiting action. Returns false when the id is no longer pending (e.g. a second click). */
  approve(id: string): boolean {
    const entry = this.take(id);
    if (!entry) return false;
    this.options.emit({ type: 'confirmation:approved', id, actionId: entry.request.actionId });
    entry.settle({ approved: true });
    return true;
  }

  /** The model gets a CONFIRMATION_REJECTED error with the reason. Returns false when the id is not pending. */
  reject(id: string, reason?: string): boolean {
    const entry = this.take(id);
    if (!entry) return false;
    this.settleRejected(entry, 'user', reason);
    return true;
  }

  /** Rejects every pending request; returns how many there were. */
  clear(reason?: string): number {
    const entries = [...this.pending.values()];
    this.pending.clear();
    if (entries.length > 0) this.changed();
    for (const entry of entries) this.settleRejected(entry, 'cleared', reason);
    return entries.length;
  }

  protected buildSnapshot(): readonly ConfirmationRequest[] {
    return Object.freeze([...this.pending.values()].map((entry) => entry.request));
  }

  private take(id: string): Pending | undefined {
    const entry = this.pending.get(id);
    if (!entry) return undefined;
    this.pending.delete(id);
    this.changed();
    return entry;
  }

  private settleRejected(entry: Pending, by: 'user' | 'cleared', reason: string | undefined): void {
    const { id, actionId } = entry.request;
    this.options.emit({ type: 'confirmation:rejected', id, actionId, by, ...(reason !== undefined && { reason }) });
    entry.settle({ approved: false, by, ...(reason !== undefined && { reason }) });
  }
}
