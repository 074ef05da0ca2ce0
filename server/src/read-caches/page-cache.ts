/**
 * Serialized responses by key, each valid for one library version; the least recently used go
 * first once `max` are kept. A cache hit is only ever served for the version it was made from, so
 * a change anywhere (in any process: the version is in the database) is seen on the next read.
 */
export class PageCache {
  private readonly entries = new Map<string, { version: number; json: string }>();

  constructor(private readonly max: number) {}

  get(key: string, version: number): string | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.version !== version) return undefined;
    this.entries.set(key, entry);
    return entry.json;
  }

  set(key: string, version: number, json: string): void {
    this.entries.delete(key);
    this.entries.set(key, { version, json });
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as string);
  }
}
