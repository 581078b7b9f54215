// The extraction pass: after a turn real people took part in, one model call (purpose 'profile-extraction' in
// llm:usage) picks the facts the speakers said about themselves into their profiles. It runs in the background —
// the reply never waits — one call at a time, with a bounded queue (a turn past it is skipped and said in the debug
// log), a timeout per call, and bounds per turn and per person. A failure is logged by its code, never its text.
import type { TurnAfterContext } from '@aalis/api-agent';
import { authorisedIdentityOf } from '@aalis/api-authority';
import type { ChatRequest, ChatResponse } from '@aalis/api-llm';
import { MAX_FACT_CHARS, type UserProfileService } from '@aalis/api-user-profile';
import { AalisError, type Logger } from '@aalis/core';
import type { Identity } from '@aalis/schema-message';
import {
  boundedLines,
  type ExtractionLine,
  type ExtractionSpeaker,
  extractionMessages,
  readExtraction,
} from './extraction-prompt.js';
import { cleanFact } from './profile-service-impl.js';
import type { ExtractionConfig } from './user-profile-config.js';

/** Known facts of a person shown to the extraction call at most (the newest), so it does not repeat them. */
const MAX_KNOWN_SHOWN = 30;

interface Job {
  sessionId: string;
  speakers: { person: string; name: string }[];
  lines: { person: string | undefined; text: string }[];
}

export class ProfileExtraction {
  private readonly waiting: Job[] = [];
  private running: Promise<void> | undefined;
  private readonly stopping = new AbortController();

  constructor(
    private readonly deps: {
      settings: ExtractionConfig;
      chat(request: ChatRequest, options: { signal: AbortSignal }): Promise<ChatResponse>;
      service: UserProfileService;
      personOf(identity: Identity): string;
      texts(): { instructions: string; knownTitle: string; turnTitle: string; herLabel: string };
      log: Logger;
    },
  ) {}

  /** Takes a finished turn; returns at once. */
  turnEnded(turn: Pick<TurnAfterContext, 'inputs' | 'reply' | 'outcome' | 'sessionId'>): void {
    if (turn.outcome === 'aborted' || turn.outcome === 'error' || this.stopping.signal.aborted) return;
    const speakers = new Map<string, string>();
    const lines: Job['lines'] = [];
    for (const input of turn.inputs) {
      const message = input.message;
      if (message.source !== undefined || message.hostNotice !== undefined) continue;
      const identity = authorisedIdentityOf(message);
      if (!identity || message.content.trim() === '') continue;
      const person = this.deps.personOf(identity);
      if (!speakers.has(person)) speakers.set(person, message.sender.displayName ?? identity.userId);
      lines.push({ person, text: message.content });
    }
    if (speakers.size === 0) return;
    if (turn.reply) lines.push({ person: undefined, text: turn.reply });
    if (this.waiting.length >= this.deps.settings.maxWaiting) {
      this.deps.log.debug('profile extraction skipped: too many turns waiting', {
        sessionId: turn.sessionId,
        waiting: this.waiting.length,
      });
      return;
    }
    this.waiting.push({
      sessionId: turn.sessionId,
      speakers: [...speakers].map(([person, name]) => ({ person, name })),
      lines,
    });
    this.running ??= this.drain();
  }

  /** Resolves when no turn waits or runs. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  stop(): void {
    this.stopping.abort();
    this.waiting.length = 0;
  }

  private async drain(): Promise<void> {
    try {
      for (let job = this.waiting.shift(); job; job = this.waiting.shift()) {
        if (this.stopping.signal.aborted) return;
        await this.extract(job).catch((error: unknown) => {
          this.deps.log.warn('profile extraction failed; this turn’s facts are skipped', {
            sessionId: job?.sessionId,
            code: AalisError.isInstance(error) ? error.code : error instanceof Error ? error.name : 'unknown',
          });
        });
      }
    } finally {
      this.running = undefined;
    }
  }

  private async extract(job: Job): Promise<void> {
    const { settings, service } = this.deps;
    const speakers: ExtractionSpeaker[] = [];
    for (const [index, speaker] of job.speakers.entries()) {
      const known = (await service.facts(speaker.person)).slice(-MAX_KNOWN_SHOWN).map((fact) => fact.fact);
      speakers.push({ label: `P${index + 1}`, person: speaker.person, name: speaker.name, known });
    }
    const labelOf = new Map(speakers.map((speaker) => [speaker.person, speaker.label]));
    const lines: ExtractionLine[] = boundedLines(
      job.lines.map((line) => ({
        label: line.person === undefined ? undefined : labelOf.get(line.person),
        text: line.text,
      })),
      settings.maxInputChars,
    );
    const signal = AbortSignal.any([this.stopping.signal, AbortSignal.timeout(settings.timeoutMs)]);
    const response = await this.deps.chat(
      {
        ...(settings.model !== undefined ? { model: settings.model } : {}),
        messages: extractionMessages({ ...this.deps.texts(), speakers, lines }),
        sessionId: job.sessionId,
        purpose: 'profile-extraction',
        temperature: 0,
        maxOutputTokens: 800,
      },
      { signal },
    );
    const byLabel = new Map(speakers.map((speaker) => [speaker.label, speaker]));
    const perPerson = new Map<string, number>();
    let kept = 0;
    for (const { label, fact } of readExtraction(response.content)) {
      if (kept >= settings.maxFactsPerTurn) break;
      const speaker = byLabel.get(label);
      const text = cleanFact(fact);
      if (!speaker || text === '' || text.length > MAX_FACT_CHARS) continue;
      if (speaker.known.includes(text)) continue;
      const count = perPerson.get(speaker.person) ?? 0;
      if (count >= settings.maxFactsPerPerson) continue;
      await service.remember({ person: speaker.person, fact: text, source: 'extraction' });
      perPerson.set(speaker.person, count + 1);
      kept += 1;
    }
    if (kept > 0) this.deps.log.debug('profile extraction kept facts', { sessionId: job.sessionId, facts: kept });
  }
}
