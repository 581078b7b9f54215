// Tells the user what became of the messages they typed while a turn ran (plugin-agent.zh.md 「新消息怎么处理」):
// joined the running turn, or queued for the next one. The agent reports only the waiting list (agent:queue) and
// the turns (agent:turn:before/after with their live input lists); this class derives each input's fate from them.

export type InputFate = 'joined' | 'queued' | 'released';

export interface InputNotice {
  fate: InputFate;
  messageId: string;
  text: string;
}

interface TrackedInput {
  text: string;
  /** sent: handed to the gateway; waiting: seen in agent:queue; left: left the list during a turn (join unconfirmed). */
  state: 'sent' | 'waiting' | 'left' | 'decided';
}

interface RunningTurn {
  turnId: string;
  /** The turn's live input list (joins are appended to it). */
  inputIds: () => readonly (string | undefined)[];
}

export class InputTracker {
  private readonly inputs = new Map<string, TrackedInput>();
  private running: RunningTurn | undefined;

  /** Whether a turn of this session runs now (between agent:turn:before and agent:turn:after). */
  get turnRunning(): boolean {
    return this.running !== undefined;
  }

  /** How many of the user's inputs wait (queued or waiting to join). */
  get waitingCount(): number {
    let count = 0;
    for (const input of this.inputs.values()) if (input.state === 'waiting') count++;
    return count;
  }

  submitted(messageId: string, text: string): void {
    this.inputs.set(messageId, { text, state: 'sent' });
  }

  /** The gateway finished with the input (a command, a dropped input…): stop tracking it if it never waited. */
  settled(messageId: string): void {
    if (this.inputs.get(messageId)?.state === 'sent') this.inputs.delete(messageId);
  }

  /** agent:queue for this session: the ids of the inputs waiting now. */
  queueChanged(waitingIds: readonly (string | undefined)[]): InputNotice[] {
    const waiting = new Set(waitingIds);
    const notices: InputNotice[] = [];
    for (const [messageId, input] of this.inputs) {
      if (input.state === 'sent' && waiting.has(messageId)) input.state = 'waiting';
      else if (input.state === 'waiting' && !waiting.has(messageId)) {
        if (this.running) input.state = 'left';
        else notices.push(this.decide(messageId, input, 'queued'));
      }
    }
    return [...notices, ...this.confirmJoins()];
  }

  /** Joins whose input already shows in the running turn's live list (call again a moment after queueChanged). */
  confirmJoins(): InputNotice[] {
    const running = this.running;
    if (!running) return [];
    const inTurn = new Set(running.inputIds());
    const notices: InputNotice[] = [];
    for (const [messageId, input] of this.inputs) {
      if (input.state === 'left' && inTurn.has(messageId)) notices.push(this.decide(messageId, input, 'joined'));
    }
    return notices;
  }

  turnStarted(turnId: string, inputIds: () => readonly (string | undefined)[]): InputNotice[] {
    this.running = { turnId, inputIds };
    const notices: InputNotice[] = [];
    for (const messageId of inputIds()) {
      const input = messageId === undefined ? undefined : this.inputs.get(messageId);
      if (!input || input.state === 'decided') continue;
      // Opened the turn directly (never waited), or waited and was not reported yet.
      if (input.state === 'sent') this.inputs.delete(messageId!);
      else notices.push(this.decide(messageId!, input, 'queued'));
    }
    return notices;
  }

  turnEnded(turnId: string): InputNotice[] {
    const running = this.running;
    if (!running || running.turnId !== turnId) return [];
    const notices = this.confirmJoins();
    this.running = undefined;
    for (const [messageId, input] of this.inputs) {
      if (input.state === 'left') notices.push(this.decide(messageId, input, 'released'));
      else if (input.state === 'waiting') notices.push(this.decide(messageId, input, 'queued'));
    }
    return notices;
  }

  private decide(messageId: string, input: TrackedInput, fate: InputFate): InputNotice {
    input.state = 'decided';
    this.inputs.delete(messageId);
    return { fate, messageId, text: input.text };
  }
}
