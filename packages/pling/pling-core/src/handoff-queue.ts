// Requests for a person to take over, from an action's context or the built-in `handoff` action. Asking does not
// block the run: the model is told a person was asked, and the dock shows the list until someone resolves it.

import { Observable } from '@plingjs/agent';
import type { QueueOptions } from './confirmation-queue.js';
import { PageError } from './errors.js';
import { redact } from './sensitive.js';
import { pageTexts } from './texts.js';

export interface HandoffInput {
  reason: string;
  /** Anything that helps the person; redacted before it is stored. */
  context?: unknown;
}

export interface HandoffRequest {
  /** `handoff-1`, `handoff-2`, … per page. */
  id: string;
  reason: string;
  context?: unknown;
  /** The action that asked, when one did. */
  actionId?: string;
  sessionId?: string;
  createdAt: number;
}

export class HandoffQueue extends Observable<readonly HandoffRequest[]> {
  private readonly open = new Map<string, HandoffRequest>();
  private counter = 0;
  constructor(private readonly options: QueueOptions) {
    super();
  }

  /** Throws INVALID_HANDOFF without a reason. */
  request(input: HandoffInput & { actionId?: string; sessionId?: string }): HandoffRequest {
    if (typeof input.reason !== 'string' || input.reason.trim() === '') {
      throw new PageError('INVALID_HANDOFF', pageTexts(this.options.locale).errors.invalidHandoff);
    }
    const { context, ...rest } = input;
    const request: HandoffRequest = Object.freeze({
      ...rest,
      ...(context !== undefined && { context: redact(context) }),
      id: `handoff-${++this.counter}`,
      createdAt: this.options.now(),
    });
    this.open.set(request.id, request);
    this.changed();
    this.options.emit({ type: 'handoff:requested', request });
    return request;
  }

  /** Returns false when the id is not open. */
  resolve(id: string, note?: string): boolean {
    if (!this.open.delete(id)) return false;
    this.changed();
    this.options.emit({ type: 'handoff:resolved', id, by: 'user', ...(note !== undefined && { note }) });
    return true;
  }

  /** Resolves every open request as cleared; returns how many there were. */
  clear(): number {
    const ids = [...this.open.keys()];
    this.open.clear();
    if (ids.length > 0) this.changed();
    for (const id of ids) this.options.emit({ type: 'handoff:resolved', id, by: 'cleared' });
    return ids.length;
  }

  protected buildSnapshot(): readonly HandoffRequest[] {
    return Object.freeze([...this.open.values()]);
  }
}
