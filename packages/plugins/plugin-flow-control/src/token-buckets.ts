// Token buckets by key (a person, a room, a platform): each holds up to `burst` tokens and refills `perMinute`
// tokens a minute; an input that addresses her takes one. Keys are bounded: past `maxKeys` the bucket used least
// recently is forgotten (a forgotten bucket comes back full — the generous side).
import { setBounded } from '@aalis/core';
export interface BucketRule {
  /** Tokens added per minute; 0 = no limit. */
  perMinute: number;
  /** Most tokens held (the burst); 0 = perMinute. */
  burst: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly rule: BucketRule,
    private readonly maxKeys = 50_000,
  ) {}

  get enabled(): boolean {
    return this.rule.perMinute > 0;
  }

  /** Milliseconds until `key` has a token (0 = it has one now); `rule` overrides the default one for this key. */
  waitFor(key: string, now: number, rule: BucketRule = this.rule): number {
    if (!(rule.perMinute > 0)) return 0;
    const tokens = this.level(key, now, rule);
    if (tokens >= 1) return 0;
    return Math.ceil(((1 - tokens) * 60_000) / rule.perMinute);
  }

  /** Takes one token (call after waitFor said 0). */
  take(key: string, now: number, rule: BucketRule = this.rule): void {
    if (!(rule.perMinute > 0)) return;
    const tokens = this.level(key, now, rule);
    setBounded(this.buckets, key, { tokens: tokens - 1, at: now }, this.maxKeys);
  }

  private level(key: string, now: number, rule: BucketRule): number {
    const capacity = rule.burst > 0 ? rule.burst : rule.perMinute;
    const bucket = this.buckets.get(key);
    if (!bucket) return capacity;
    const refill = ((now - bucket.at) / 60_000) * rule.perMinute;
    return Math.min(capacity, bucket.tokens + Math.max(0, refill));
  }
}
