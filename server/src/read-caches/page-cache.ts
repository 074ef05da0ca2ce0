/**
 * Serialized responses (text, or an answer's UTF-8 pieces: shared/json-bytes.ts) by key, each valid for one library version; the least recently used go
 * first once `max` are kept. A cache hit is only ever served for the version it was made from, so
 * a change anywhere (in any process: the version is in the database) is seen on the next read.
 *
 * `admitSecondAsk`: keep an answer only when its key was already asked for at the same version
 * (and missed) before. Gallery pages are ~40 KB of text each; under a crowd that likes and tags as
 * it browses (issue 13's soak), the version moves before nearly any page is asked for again, so
 * keeping every page made garbage that lived: each kept page was copied by the young generation's
 * collections and then moved to the old one, where it died, which is most of what the collector
 * did there (decision 0028). A person scrolling a quiet library asks for each page more than once
 * within a version (their next visit, previous/next, another tab), so pages are still kept then.
 */
export class PageCache<T = string> {
  private readonly entries = new Map<string, { version: number; json: T }>();
  /** Keys asked for and missed, with the version they missed at: the second ask at that version is kept. */
  private readonly missed = new Map<string, number>();

  constructor(
    private readonly max: number,
    private readonly options: { admitSecondAsk?: boolean } = {},
  ) {}

  get(key: string, version: number): T | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      if (entry.version === version) {
        this.entries.set(key, entry);
        return entry.json;
      }
    }
    return undefined;
  }

  set(key: string, version: number, json: T): void {
    if (this.options.admitSecondAsk && !this.askedBefore(key, version)) return;
    this.entries.delete(key);
    this.entries.set(key, { version, json });
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as string);
  }

  /** Whether `key` missed at `version` before this; records this ask either way (bounded: 4 × max keys). */
  private askedBefore(key: string, version: number): boolean {
    const before = this.missed.get(key) === version;
    this.missed.delete(key);
    if (before) return true;
    this.missed.set(key, version);
    while (this.missed.size > this.max * 4) this.missed.delete(this.missed.keys().next().value as string);
    return false;
  }
}
