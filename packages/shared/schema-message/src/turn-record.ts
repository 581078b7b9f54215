// The outcome and origin of one turn, stored under WellKnownMetadataKeys.TurnRecord.
import type { Identity, TriggerType } from './incoming-message.js';

export type TurnOutcome = 'replied' | 'silent' | 'aborted' | 'error';

export interface TurnRecord {
  outcome: TurnOutcome;
  origin: {
    platform: string;
    source?: string;
    triggerType?: TriggerType;
    /** Arrival numbers of the inputs that were part of the turn. */
    arrivals: number[];
    participants: Identity[];
    fromTurn?: string;
  };
  /** On `error`: the one-sentence reason that was shown. */
  error?: string;
  /**
   * On `error`, when the reason is a catalogue text (a coded error): its key and parameters, so a reader in another
   * language is shown it in theirs (the WebUI in English on a zh-CN host).
   */
  errorText?: { key: string; params?: Readonly<Record<string, string | number>> };
  /** On `aborted`: who stopped it, when a person did. */
  stoppedBy?: Identity;
}
