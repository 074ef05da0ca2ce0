import type { LibraryView } from '../access/visible-scope.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { LibraryVersion } from '../read-caches/library-version.js';
import { SingleFlight } from '../shared/single-flight.js';
import { ScopeVocabulary } from './scope-vocabulary.js';
import type { TagRef, TagsRepository } from './tags.repository.js';

/**
 * The tags a person may learn of: those on images they may see, counted over those images only.
 * Every tag list, suggestion and tag search reads them through this (the admin tag screen aside),
 * so a tag that exists only on someone else's private photos is never named nor counted.
 */
export interface VisibleTags {
  /** The library version these answers belong to. */
  readonly version: number;
  /** Cache key part: people with the same view share answers ('*' is the whole library). */
  readonly key: string;
  /** True when the person sees every image: counts are `tags.usage_count`. */
  readonly wholeLibrary: boolean;
  /** Alphabetically, at most `limit`. */
  names(limit: number): Promise<string[]>;
  /** Starting with `prefix` (normalized), most used first, then alphabetically. */
  startingWith(prefix: string, limit: number): Promise<TagRef[]>;
  /** The tags of these names in view, with their counts in view; others are left out. */
  byNames(names: readonly string[]): Promise<TagRef[]>;
}

export interface VisibleVocabularyDeps {
  tags: TagsRepository;
  /** The library version this person's request is checked against (read-caches/request-versions.ts). */
  libraryVersion: (user: AuthUser) => Promise<LibraryVersion>;
  /** The person's visibility scope (access/visible-scope.ts). */
  scopeOf: (user: AuthUser) => string;
  /** What the person sees of the library (access/visible-scope.ts). */
  viewOf: (user: AuthUser) => Promise<LibraryView>;
  /** Nothing in the person's view changed between two versions (read-caches/scope-changes.ts). */
  unchangedInView: (user: AuthUser, from: number, to: number) => Promise<boolean>;
}

interface Entry {
  version: number;
  /** Undefined: the scope sees the whole library. */
  vocabulary: ScopeVocabulary | undefined;
}

/** Scopes kept, and tags kept over all of them (~70 bytes each): a bound on memory either way. */
const MAX_SCOPES = 64;
const MAX_TAGS_KEPT = 300_000;

/**
 * `VisibleTags` per visibility scope, checked against the library version on every read (the one
 * read with the session's account, as for gallery pages: decision 0011). A scope that sees the whole library (admins, all-access
 * recipients) is answered by the database off `tags` (its `usage_count` is exactly their count) and
 * keeps nothing here. Any other scope's tags and counts are read once per library version (cost
 * follows the number of images it sees) and then answered from memory — or carried over to the new
 * version when every change since was outside the scope's view — concurrent readers after a
 * change share one read. Least recently used scopes go first.
 */
export class VisibleVocabulary {
  private readonly entries = new Map<string, Entry>();
  private readonly building = new SingleFlight<Entry>();
  private readonly whole: (version: number) => VisibleTags;

  constructor(private readonly deps: VisibleVocabularyDeps) {
    this.whole = (version) => wholeLibrary(deps.tags, version);
  }

  async of(user: AuthUser): Promise<VisibleTags> {
    // The version is read first: a change racing the read below is cached under the older version,
    // so it is never served as current.
    const { version } = await this.deps.libraryVersion(user);
    const scope = this.deps.scopeOf(user);
    const entry = await this.entry(scope, version, user);
    return entry.vocabulary ? inView(entry.vocabulary, scope, version) : this.whole(version);
  }

  private async entry(scope: string, version: number, user: AuthUser): Promise<Entry> {
    const cached = this.entries.get(scope);
    if (cached?.version === version) {
      // Map order is recency order: re-insert to mark as recently used.
      this.entries.delete(scope);
      this.entries.set(scope, cached);
      return cached;
    }
    const build = this.building.run(`${scope}@${version}`, async () => {
      // A restricted view's counts outlive versions whose changes were all outside it.
      if (cached?.vocabulary && cached.version < version && (await this.deps.unchangedInView(user, cached.version, version))) {
        return { version, vocabulary: cached.vocabulary };
      }
      return { version, vocabulary: await this.read(user) };
    });
    const entry = await build;
    const current = this.entries.get(scope);
    if (!current || current.version <= entry.version) {
      this.entries.delete(scope);
      this.entries.set(scope, entry);
      this.trim();
    }
    return entry;
  }

  private async read(user: AuthUser): Promise<ScopeVocabulary | undefined> {
    const view = await this.deps.viewOf(user);
    if (view.whole) return undefined;
    return new ScopeVocabulary(view.imageIds ? await this.deps.tags.usageOn(view.imageIds) : []);
  }

  private trim(): void {
    let kept = 0;
    for (const entry of this.entries.values()) kept += entry.vocabulary?.size ?? 0;
    for (const [scope, entry] of this.entries) {
      if (this.entries.size <= MAX_SCOPES && kept <= MAX_TAGS_KEPT) break;
      this.entries.delete(scope);
      kept -= entry.vocabulary?.size ?? 0;
    }
  }
}

/** The whole library's tags: the database's index on (name, usage_count) answers. */
function wholeLibrary(tags: TagsRepository, version: number): VisibleTags {
  return {
    version,
    key: '*',
    wholeLibrary: true,
    names: (limit) => tags.vocabulary(limit),
    startingWith: (prefix, limit) => tags.startingWith(prefix, limit),
    byNames: async (names) => (await tags.byNames(names)).filter((tag) => tag.usage_count > 0 && !tags.isHidden(tag.name)),
  };
}

function inView(vocabulary: ScopeVocabulary, scope: string, version: number): VisibleTags {
  return {
    version,
    key: scope,
    wholeLibrary: false,
    names: async (limit) => vocabulary.names(limit),
    startingWith: async (prefix, limit) => vocabulary.startingWith(prefix, limit),
    byNames: async (names) => vocabulary.byNames(names),
  };
}
