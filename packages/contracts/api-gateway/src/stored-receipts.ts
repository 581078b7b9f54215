// A platform's delivery is acknowledged only once the input is stored (docs/decisions/platform-acknowledgements.md):
// an HTTP callback answers 2xx, a socket envelope is acked, only when the agent took the input on durably
// (`agent:accepted`: in its session's hand-over queue) or the gateway was done with it without a turn (a command, a
// dropped input). When it was not stored (the database full or gone, a phase failing) the adapter answers 5xx or
// leaves the envelope unacknowledged, so the platform delivers it again; the redelivery is recognised by the
// platform's message id and stored once. The same point the WebUI's `send` is answered at.
import '@aalis/api-agent';
import { type Events, setBounded } from '@aalis/core';
import type { IncomingMessage } from '@aalis/schema-message';
import type { GatewayService } from './gateway-service.js';

/**
 * `stored`: the agent took it on (stored before it said so); `handled`: the gateway finished it without a turn (a
 * command, dropped, no agent) — nothing to deliver again; `failed`: not stored — the platform must deliver it again.
 */
export type Receipt = 'stored' | 'handled' | 'failed';

/**
 * Hands `message` to the gateway and resolves once it is stored or handled, or failed — not when its turn ends.
 * A gateway that throws (an invalid message) gives `failed`; `onError` hears why.
 */
export function receiveStored(
  gateway: Pick<GatewayService, 'receive'>,
  events: Pick<Events, 'on'>,
  message: IncomingMessage,
  onError?: (error: unknown) => void,
): Promise<Receipt> {
  return new Promise<Receipt>((resolve) => {
    let settled = false;
    const settle = (receipt: Receipt) => {
      if (settled) return;
      settled = true;
      stopAccepted();
      resolve(receipt);
    };
    // Listened to before the gateway runs: the agent may take the input on before receive() returns.
    const stopAccepted = events.on('agent:accepted', ({ message: taken }) => {
      if (taken === message || (sameId(taken, message) && taken.sessionId === message.sessionId)) settle('stored');
    });
    gateway.receive(message).then(
      (report) =>
        settle(report.outcome === 'failed' ? 'failed' : report.outcome === 'dispatched' ? 'stored' : 'handled'),
      (error: unknown) => {
        onError?.(error);
        settle('failed');
      },
    );
  });
}

function sameId(a: IncomingMessage, b: IncomingMessage): boolean {
  return a.messageId !== undefined && a.messageId === b.messageId && a.platform === b.platform;
}

export interface StoredReceiptsOptions {
  /** Message ids remembered at most (oldest forgotten first). */
  readonly limit?: number;
  /** How long a stored or handled id is remembered. */
  readonly ttlMs?: number;
}

/**
 * What an adapter remembers of the deliveries it acknowledged, by the platform's message id: a redelivery of one
 * stored, handled or still being stored gets the same receipt without reaching the gateway again; one that failed
 * is tried again. Bounded in count and time.
 */
export class StoredReceipts {
  private readonly receipts = new Map<string, { receipt: Promise<Receipt>; at: number }>();
  private readonly limit: number;
  private readonly ttlMs: number;

  constructor(options: StoredReceiptsOptions = {}) {
    this.limit = options.limit ?? 2000;
    this.ttlMs = options.ttlMs ?? 60 * 60 * 1000;
  }

  /**
   * The receipt of the delivery `id` (the platform's message or event id): `receive` runs for a first delivery and
   * after a failed one; a throw in it is a `failed` receipt (`onError` hears why). Without an id every delivery runs
   * `receive`.
   */
  once(id: string | undefined, receive: () => Promise<Receipt>, onError?: (error: unknown) => void): Promise<Receipt> {
    const run = () =>
      receive().catch((error: unknown) => {
        onError?.(error);
        return 'failed' as const;
      });
    if (id === undefined || id === '') return run();
    const now = Date.now();
    const known = this.receipts.get(id);
    if (known && now - known.at < this.ttlMs) return known.receipt;
    const receipt = run();
    const entry = { receipt, at: now };
    setBounded(this.receipts, id, entry, this.limit);
    // Failed: forgotten, so the platform's next delivery is a new try.
    void receipt.then((outcome) => {
      if (outcome === 'failed' && this.receipts.get(id) === entry) this.receipts.delete(id);
    });
    return receipt;
  }

  /** Whether `id` was stored or handled (or is being received) and is still remembered. */
  has(id: string): boolean {
    const known = this.receipts.get(id);
    return known !== undefined && Date.now() - known.at < this.ttlMs;
  }
}
