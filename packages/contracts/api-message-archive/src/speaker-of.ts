// The one sender-prefix rule, shared by the archive and by the agent when the archive is absent (and by the
// stop-marker naming): no prefix for the owner in his own session, the owner acting in a room from another
// platform named by his registered account on the room's platform, everyone else by account (with display name).
import { DEFAULT_LOCALE, type Locale, textRef, translate } from '@aalis/core';
import type { Identity } from '@aalis/schema-message';
import './archive-catalogue.js';

/** What the prefix rule needs to know about the session an input belongs to. */
export interface SpeakerSession {
  /** Session kind from the session manager: 'room', 'direct', 'child'… */
  kind: string;
  /** Whether the chat has more than two parties (originChat.multiParty). */
  multiParty: boolean;
  /** The platform the session lives on (the room's platform). */
  platform: string;
}

export interface SpeakerOfInput {
  /** The account acting through the input (IncomingMessage.actor, else the sender's account); none for anonymous. */
  identity: Identity | undefined;
  displayName?: string;
  session: SpeakerSession;
  /** Whether `identity` is one of the owner's accounts. */
  isOwner: boolean;
  /** The owner's registered account on a platform (authority config). */
  ownerAccountOn?: (platform: string) => string | undefined;
  locale?: Locale;
}

/** A private session: neither a room nor a multi-party chat (direct chats, child sessions…). */
export function isPrivateSession(session: Pick<SpeakerSession, 'kind' | 'multiParty'>): boolean {
  return !session.multiParty && session.kind !== 'room';
}

/** Line breaks and control characters would let a name forge a new line of the transcript: they become spaces. */
export function sanitizeName(value: string | undefined): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
  return (value ?? '').replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, ' ').trim();
}

/** The sender prefix text, or undefined when the input carries none (see the module comment). */
export function speakerOf({
  identity,
  displayName,
  session,
  isOwner,
  ownerAccountOn,
  locale = DEFAULT_LOCALE,
}: SpeakerOfInput): string | undefined {
  const name = sanitizeName(displayName);
  if (!identity) return name === '' ? undefined : name;
  if (isOwner && isPrivateSession(session)) return undefined;
  let account = sanitizeName(identity.userId);
  if (isOwner && identity.platform !== session.platform) {
    const registered = ownerAccountOn?.(session.platform);
    account =
      registered !== undefined && registered !== ''
        ? sanitizeName(registered)
        : translate(
            textRef('messageArchive.speaker.foreignAccount', { platform: sanitizeName(identity.platform), account }),
            locale,
          );
  }
  if (name === '' || name === account) return account;
  return translate(textRef('messageArchive.speaker.named', { name, account }), locale);
}
