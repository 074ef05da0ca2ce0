import type { LocalChanges } from '../db/local-changes.js';
import type { TagRef } from './tags.repository.js';

/** Prefixes (with their limits) whose answers are kept; the least recently used go first. */
const MAX_KEPT = 1_000;

/**
 * The whole library's tags starting with a prefix, most used first (`TagsRepository.startingWith`),
 * kept on SQLite until a tag whose name starts with that prefix is written — or anything is
 * committed by another connection. Every search asks for the tags its text may stand for, and every
 * suggestion for its prefix: under issue 13's crowd that statement was the server's most costly one
 * (~100 µs, ~190 a second), and its answer rarely changes: a tag written elsewhere in the
 * vocabulary (most of the ~150 tag writes a second) leaves it as it was. The answer is kept per
 * prefix, and only writes to names under that prefix drop it.
 *
 * Exact: this connection's writes are told as they are made (db/local-changes.ts: TEMP triggers,
 * rolled-back ones too), and an answer read while any tag was written is not kept, as it may predate
 * that write. Another connection's commit (a second process, a script) moves `data_version`, seen
 * from the next turn of the event loop — as the session check sees such changes (decision 0035).
 */
export class TagPrefixAnswers {
  private readonly answers = new Map<string, { prefix: string; data: number; tags: readonly TagRef[] }>();
  /** Tag writes told so far: an answer read across one is not kept. */
  private written = 0;

  constructor(private readonly changes: LocalChanges) {
    changes.onTagWritten((name) => {
      this.written += 1;
      // The SQL range [prefix, prefix + U+10FFFF) holds no name that does not start with the prefix.
      for (const [key, answer] of this.answers) if (name.startsWith(answer.prefix)) this.answers.delete(key);
    });
  }

  async get(prefix: string, limit: number, read: () => Promise<TagRef[]>): Promise<readonly TagRef[]> {
    const { data } = this.changes.now();
    const key = `${limit}|${prefix}`;
    const kept = this.answers.get(key);
    if (kept?.data === data) {
      this.answers.delete(key);
      this.answers.set(key, kept);
      return kept.tags;
    }
    const before = this.written;
    // Shared by every caller from now on: frozen, so none can change what the others are answered.
    const tags = Object.freeze((await read()).map((tag) => Object.freeze(tag)));
    if (this.written === before && this.changes.now().data === data) {
      this.answers.delete(key);
      this.answers.set(key, { prefix, data, tags });
      if (this.answers.size > MAX_KEPT) this.answers.delete(this.answers.keys().next().value as string);
    }
    return tags;
  }
}
