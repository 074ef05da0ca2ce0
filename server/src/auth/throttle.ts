import type { Clock } from '../shared/clock.js';
import { unixNow } from '../shared/clock.js';
import { tooManyRequests } from '../http/errors.js';
import type { RateLimitsRepository } from './rate-limits.repository.js';

export interface LimitRule {
  /** Prefix of the counter's key, e.g. `signin-ip`. */
  name: string;
  max: number;
  windowSeconds: number;
  message: string;
}

/** Checks and counts attempts against database-kept limits (429 with Retry-After when over). */
export class Throttle {
  constructor(
    private readonly limits: RateLimitsRepository,
    private readonly clock: Clock,
  ) {}

  async assertUnder(rule: LimitRule, subject: string): Promise<void> {
    const now = unixNow(this.clock);
    const { count, windowStart } = await this.limits.peek(key(rule, subject), rule.windowSeconds, now);
    if (count >= rule.max) throw tooManyRequests(rule.message, windowStart + rule.windowSeconds - now);
  }

  /** Counts one attempt; throws 429 when this attempt goes over the limit. */
  async consume(rule: LimitRule, subject: string): Promise<void> {
    const now = unixNow(this.clock);
    const { count, windowStart } = await this.limits.hit(key(rule, subject), rule.windowSeconds, now);
    if (count > rule.max) throw tooManyRequests(rule.message, windowStart + rule.windowSeconds - now);
  }

  async record(rule: LimitRule, subject: string): Promise<void> {
    await this.limits.hit(key(rule, subject), rule.windowSeconds, unixNow(this.clock));
  }

  async clear(rule: LimitRule, subject: string): Promise<void> {
    await this.limits.reset(key(rule, subject));
  }

  /** Forgets windows that ended a day ago; called now and then, not on the request path. */
  async prune(): Promise<void> {
    await this.limits.deleteOlderThan(unixNow(this.clock) - 86_400);
  }
}

function key(rule: LimitRule, subject: string): string {
  return `${rule.name}:${subject}`;
}
