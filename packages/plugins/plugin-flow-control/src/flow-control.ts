// The flow phase's rules for one input that would open (or join) a turn: quiet hours, then the room's and the
// person's cooldown, then the token buckets of the person, the room and the platform. An input held back is not
// lost: the plugin passes it on as ambient room context (archived; a running turn still takes it in), logs it, and
// tells its sender at most once per notice window.
import { setBounded } from '@aalis/core';
import { inQuietHours, type QuietHours } from './quiet-hours.js';
import { type BucketRule, TokenBuckets } from './token-buckets.js';

export interface FlowRules {
  cooldown: { roomSeconds: number; personSeconds: number };
  rateLimit: { person: BucketRule; room: BucketRule; platform: BucketRule };
  quietHours: QuietHours;
  noticeWindowSeconds: number;
}

export type HoldRule = 'quiet' | 'cooldown.room' | 'cooldown.person' | 'rate.person' | 'rate.room' | 'rate.platform';

/** What a room's settings layers may change for it (platform type, platform, venue, session): the rest is global. */
export interface RoomRules {
  cooldown: { roomSeconds: number; personSeconds: number };
  roomRate: BucketRule;
  quietHours: QuietHours;
}

export type FlowVerdict = { pass: true } | { pass: false; rule: HoldRule; retryAfterMs: number; notice: boolean };

export interface FlowInput {
  sessionId: string;
  platform: string;
  /** '<platform>:<userId>' of the sender; undefined for a sender without an account (counted with the room). */
  person: string | undefined;
}

/** Keys remembered per map at most (rooms, people): oldest forgotten first. */
const MAX_KEYS = 50_000;

export class FlowControl {
  private readonly roomPassed = new Map<string, number>();
  private readonly personPassed = new Map<string, number>();
  private readonly noticed = new Map<string, number>();
  private readonly person: TokenBuckets;
  private readonly room: TokenBuckets;
  private readonly platform: TokenBuckets;

  constructor(private readonly rules: FlowRules) {
    this.person = new TokenBuckets(rules.rateLimit.person, MAX_KEYS);
    this.room = new TokenBuckets(rules.rateLimit.room, MAX_KEYS);
    this.platform = new TokenBuckets(rules.rateLimit.platform, MAX_KEYS);
  }

  /** The rules of a room when its layers set none: the configuration's. */
  get defaults(): RoomRules {
    return { cooldown: this.rules.cooldown, roomRate: this.rules.rateLimit.room, quietHours: this.rules.quietHours };
  }

  judge(input: FlowInput, now: number, room: RoomRules = this.defaults): FlowVerdict {
    const held = this.hold(input, now, room);
    if (!held) {
      setBounded(this.roomPassed, input.sessionId, now, MAX_KEYS);
      if (input.person) {
        setBounded(this.personPassed, `${input.sessionId}|${input.person}`, now, MAX_KEYS);
        this.person.take(input.person, now);
      }
      this.room.take(input.sessionId, now, room.roomRate);
      this.platform.take(input.platform, now);
      return { pass: true };
    }
    // One notice per person (per room) per window; a sender without an account counts as the room.
    const noticeKey = `${input.sessionId}|${input.person ?? ''}`;
    const last = this.noticed.get(noticeKey);
    const notice = last === undefined || now - last >= this.rules.noticeWindowSeconds * 1000;
    if (notice) setBounded(this.noticed, noticeKey, now, MAX_KEYS);
    return { pass: false, ...held, notice };
  }

  private hold(input: FlowInput, now: number, room: RoomRules): { rule: HoldRule; retryAfterMs: number } | undefined {
    if (inQuietHours(now, room.quietHours)) return { rule: 'quiet', retryAfterMs: 0 };
    const { roomSeconds, personSeconds } = room.cooldown;
    const roomAt = this.roomPassed.get(input.sessionId);
    if (roomSeconds > 0 && roomAt !== undefined && now - roomAt < roomSeconds * 1000) {
      return { rule: 'cooldown.room', retryAfterMs: roomAt + roomSeconds * 1000 - now };
    }
    const personAt = input.person ? this.personPassed.get(`${input.sessionId}|${input.person}`) : undefined;
    if (personSeconds > 0 && personAt !== undefined && now - personAt < personSeconds * 1000) {
      return { rule: 'cooldown.person', retryAfterMs: personAt + personSeconds * 1000 - now };
    }
    const personWait = input.person ? this.person.waitFor(input.person, now) : 0;
    if (personWait > 0) return { rule: 'rate.person', retryAfterMs: personWait };
    const roomWait = this.room.waitFor(input.sessionId, now, room.roomRate);
    if (roomWait > 0) return { rule: 'rate.room', retryAfterMs: roomWait };
    const platformWait = this.platform.waitFor(input.platform, now);
    if (platformWait > 0) return { rule: 'rate.platform', retryAfterMs: platformWait };
    return undefined;
  }
}
