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

  /** Takes back one attempt `consume` counted (it succeeded, so it was no guess). */
  async refund(rule: LimitRule, subject: string): Promise<void> {
    await this.limits.unhit(key(rule, subject));
  }

  /** Whether anything was counted for the subject in the rule's current window. */
  async seen(rule: LimitRule, subject: string): Promise<boolean> {
    const now = unixNow(this.clock);
    return (await this.limits.peek(key(rule, subject), rule.windowSeconds, now)).count > 0;
  }

  async record(rule: LimitRule, subject: string): Promise<void> {
    await this.limits.hit(key(rule, subject), rule.windowSeconds, unixNow(this.clock));
  }

  async clear(rule: LimitRule, subject: string): Promise<void> {
    await this.limits.reset(key(rule, subject));
  }

  /**
   * Forgets windows that began a day ago (every limit's window is shorter), except the one long-lived
   * rule's, kept for its own window. Called now and then, not on the request path.
   */
  async prune(longLived?: LimitRule): Promise<void> {
    const now = unixNow(this.clock);
    await this.limits.deleteOlderThan(now - 86_400, longLived ? { prefix: `${longLived.name}:`, cutoffSeconds: now - longLived.windowSeconds } : undefined);
  }
}

function key(rule: LimitRule, subject: string): string {
  return `${rule.name}:${subject}`;
}
