// Sends from a process without the OneBot connection: a reply produced here is handed to the holder of the connection's
// lease through the storage hand-over queue of the same name, sent there as the holder's own, and its outcome awaited
// here, so a failure still becomes this turn's outbound:failed. An API call made here (settling a friend request an
// owner answered on this process) goes the same way. The holder takes the items in the order they were put. An item
// whose taker died mid-send is sent again by the next holder (at least once).
import { type HandOverItem, type HandOverService, HandOverTaker } from '@aalis/api-storage';
import { AalisError, type Logger, type TextRef } from '@aalis/core';
import type { RoomTarget } from '@aalis/platform-room';
import type { OutgoingMessage } from '@aalis/schema-message';
import { onebotErrors } from './onebot-errors.js';

export interface ForwardedSend {
  message: OutgoingMessage;
  target: RoomTarget;
  replyTo?: string;
}

/** An OneBot API call made on a process without the connection (its answer data is not carried back). */
export interface ForwardedCall {
  action: string;
  params: Record<string, unknown>;
}

type Outcome = { ok: true } | { ok: false; code: string; text: TextRef };

export class OneBotForwarding {
  private readonly taker: HandOverTaker;

  constructor(
    private readonly options: {
      queue: HandOverService;
      /** The connection's lease name, which is also the queue's. */
      name: string;
      /** Sends on this process's connection (the holder's side). */
      sendHere(send: ForwardedSend): Promise<void>;
      /** Makes an API call on this process's connection (the holder's side). */
      callHere(call: ForwardedCall): Promise<void>;
      logger: Logger;
    },
  ) {
    this.taker = new HandOverTaker({
      queue: options.queue,
      name: options.name,
      limit: 20,
      run: async (item) => JSON.stringify(await this.run(item)),
      failed: (error) => options.logger.warn('OneBot: taking handed-over replies failed', { error: String(error) }),
    });
  }

  /** Hands the send to the holder and waits for its outcome; throws the holder's error when it failed. */
  async forward(send: ForwardedSend | ForwardedCall, timeoutMs: number): Promise<void> {
    const { queue, name } = this.options;
    const { id } = await queue.put(name, JSON.stringify(send));
    const outcome = await queue.settled(id, { signal: AbortSignal.timeout(timeoutMs) });
    if (outcome === undefined) throw onebotErrors.AALIS_ONEBOT_FORWARD_TIMEOUT({ name, timeoutMs });
    const parsed = JSON.parse(outcome) as Outcome;
    if (!parsed.ok) throw new AalisError(parsed.code, parsed.text);
  }

  /** This process holds the connection now (true) or no longer (false): it takes what others hand over. */
  setHolding(holding: boolean): void {
    if (holding) this.taker.start();
    else this.taker.stop();
  }

  private async run(item: HandOverItem): Promise<Outcome> {
    let action = 'send';
    try {
      const payload = JSON.parse(item.payload) as ForwardedSend | ForwardedCall;
      if ('action' in payload) {
        action = payload.action;
        await this.options.callHere(payload);
      } else await this.options.sendHere(payload);
      return { ok: true };
    } catch (error) {
      if (AalisError.isInstance(error)) return { ok: false, code: error.code, text: error.text };
      const detail = `: ${error instanceof Error ? error.message : String(error)}`;
      const fallback = onebotErrors.AALIS_ONEBOT_API_FAILED({ action, status: 'error', retcode: '?', detail });
      return { ok: false, code: fallback.code, text: fallback.text };
    }
  }
}
