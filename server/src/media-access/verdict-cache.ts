/** The derived files of an image a viewer may see. */
export interface MediaKeys {
  thumb: string | null;
  display: string | null;
  /** The thumbnail of an image in the Trash, for whom sees it there (never with the other two). */
  trash?: string | null;
}

interface ScopeEntry {
  version: number;
  /** Per image id: its keys when visible, null when not (a refusal is remembered too). */
  images: Map<number, MediaKeys | null>;
}

/**
 * "May this viewer see image N, and which files are its" — remembered per visibility scope and
 * library version. Every write that changes what anyone sees bumps the version in the same
 * transaction (read-caches/library-version.ts), so an answer is only ever reused for the exact version
 * it was read at: a revoked share or a deleted image misses at once, in every process. A gallery
 * page's 50 thumbnails then cost one read each (the viewer's row and the version), not two.
 * Bounded: least recently used scopes go first, and a scope that grows too big starts over.
 */
export class VerdictCache {
  private readonly scopes = new Map<string, ScopeEntry>();

  constructor(
    private readonly maxScopes = 256,
    private readonly maxImagesPerScope = 5000,
  ) {}

  get(scope: string, version: number, imageId: number): MediaKeys | null | undefined {
    const entry = this.scopes.get(scope);
    if (entry?.version !== version) return undefined;
    // Map order is recency order: re-insert to mark as recently used.
    this.scopes.delete(scope);
    this.scopes.set(scope, entry);
    return entry.images.get(imageId);
  }

  set(scope: string, version: number, imageId: number, keys: MediaKeys | null): void {
    let entry = this.scopes.get(scope);
    // An answer read at an older version than the cached one must not replace newer answers.
    if (entry && entry.version > version) return;
    if (!entry || entry.version !== version || entry.images.size >= this.maxImagesPerScope) {
      entry = { version, images: new Map() };
    }
    entry.images.set(imageId, keys);
    this.scopes.delete(scope);
    this.scopes.set(scope, entry);
    while (this.scopes.size > this.maxScopes) this.scopes.delete(this.scopes.keys().next().value as string);
  }
}
