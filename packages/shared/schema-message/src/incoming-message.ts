// Inbound and outbound message shapes exchanged between platforms, the gateway and the agent.
import type { Attachment } from './message.js';
import type { NoticeText } from './notice-text.js';

/** A platform account: the shape of IncomingMessage.actor and of participants. */
export interface Identity {
  platform: string;
  userId: string;
}

/** How an input was triggered. Platforms and plugins may add their own values. */
export type TriggerType = 'direct' | 'immediate' | 'idle' | 'proactive' | 'scheduled' | (string & {});

/** A notice from the host (task finished, approval needed…), answered as an instruction turn. */
export interface HostNotice {
  kind: string;
  id: string;
  /** Text wrapped by the injector, shown to the model in this turn only and never archived. */
  untrusted?: string;
}

/** The turn that started a continuation (a follow-up injected by a background task, a subtask…). */
export interface TurnOrigin {
  turnId?: string;
  sessionId: string;
  platform?: string;
  participants: Identity[];
  userId?: string;
}

export interface IncomingMessage {
  sessionId: string;
  platform: string;
  /** Room / chat id on the platform, when the platform has rooms. */
  venue?: string;
  sender: { userId?: string; displayName?: string };
  /** The authorised identity acting through this message. */
  actor?: Identity;
  content: string;
  attachments?: Attachment[];
  /** The platform's own message id. */
  messageId?: string;
  replyTo?: string;
  /** Absent for a real person; the injector's identifier otherwise (scheduler, workflow, host-notice…). */
  source?: string;
  triggerType?: TriggerType;
  hostNotice?: HostNotice;
  /** The turn a continuation comes from. */
  fromTurn?: TurnOrigin;
  /** Arrival time, milliseconds since the epoch. */
  timestamp?: number;
  /** Arrival number assigned by the gateway; absent for inputs that did not come through it. */
  arrival?: number;
  /**
   * The language the sender reads, when the client said it (the WebUI page's, 'zh-CN' or 'en'): what the host itself
   * writes back to this message (a command's answer) is in it; absent: the host's locale.
   */
  locale?: string;
  metadata?: Record<string, unknown>;
}

export type OutgoingKind = 'reply' | 'error' | 'system';

export interface OutgoingMessage {
  sessionId: string;
  platform?: string;
  venue?: string;
  content: string;
  kind: OutgoingKind;
  /**
   * A notice's catalogue text (`content` is it in the host's language): a reader whose language is known (the WebUI's
   * connections) is shown it in theirs. Terminal and chat platforms send `content`.
   */
  text?: NoticeText;
  turnId?: string;
  /** Set when replying to a host notice: only its kind and id. */
  hostNotice?: Pick<HostNotice, 'kind' | 'id'>;
  replyTo?: string;
  attachments?: Attachment[];
  metadata?: Record<string, unknown>;
}

/**
 * Whether an input addressed her: real-person inputs triggered `direct` or `immediate`, and real-person inputs
 * that never went through trigger judgement (no triggerType). Injections (with a source) never count.
 */
export function wasAddressed(message: Pick<IncomingMessage, 'source' | 'triggerType'>): boolean {
  if (message.source !== undefined) return false;
  return message.triggerType === undefined || message.triggerType === 'direct' || message.triggerType === 'immediate';
}
