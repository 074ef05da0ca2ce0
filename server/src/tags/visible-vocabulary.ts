import type { LibraryView } from '../access/visible-scope.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { LibraryVersion } from '../read-caches/library-version.js';
import { SingleFlight } from '../shared/single-flight.js';
import { START_OVER } from '../read-caches/library-version.js';
import { ScopeVocabulary } from './scope-vocabulary.js';
import { ViewTally } from './view-tally.js';
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
  startingWith(prefix: string, limit: number): Promise<readonly TagRef[]>;
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
  /** The images in the person's view changed between two versions, or START_OVER (read-caches/scope-changes.ts). */
  changesInView: (user: AuthUser, from: number, to: number) => Promise<readonly number[] | typeof START_OVER>;
}

interface Entry {
  version: number;
  /** Undefined: the scope sees the whole library. */
  vocabulary: ScopeVocabulary | undefined;
  /** The view's tag rows per image, when there are few enough to keep (view-tally.ts). */
  tally?: ViewTally;
  /** Too many rows to keep: the database counts this view, and is asked to at once next time. */
  counted?: true;
}

/** Scopes kept, and tags and tag rows kept over all of them (~70 bytes each): a bound on memory either way. */
const MAX_SCOPES = 64;
const MAX_TAGS_KEPT = 300_000;
/**
 * A view with more tag rows than this is counted by the database after each change in it, not kept
 * per image: copying a tally costs as much as counting its rows, and views over 20,000 images are
 * counted afresh anyway (read-caches/scope-changes.ts).
 */
const MAX_TALLY_ROWS = 20_000;

/**
 * `VisibleTags` per visibility scope, checked against the library version on every read (the one
 * read with the session's account, as for gallery pages: decision 0011). A scope that sees the whole library (admins, all-access
 * recipients) is answered by the database off `tags` (its `usage_count` is exactly their count) and
 * keeps nothing here. Any other scope's tags and counts are answered from memory, kept per library
 * version: carried over to the new version when every change since was outside the scope's view,
 * brought up to date from the changed images' rows when a few in it changed (view-tally.ts), and
 * counted afresh (cost follows the number of images it sees) after a removal, a reset or a relabel;
 * concurrent readers after a change share one read. Least recently used scopes go first.
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
    const libraryVersion = await this.deps.libraryVersion(user);
    const { version } = libraryVersion;
    const scope = this.deps.scopeOf(user);
    const entry = await this.entry(scope, libraryVersion, user);
    return entry.vocabulary ? inView(entry.vocabulary, scope, version) : this.whole(version);
  }

  private async entry(scope: string, { version, listVersion, resetVersion }: LibraryVersion, user: AuthUser): Promise<Entry> {
    const cached = this.entries.get(scope);
    if (cached?.version === version) {
      // Map order is recency order: re-insert to mark as recently used.
      this.entries.delete(scope);
      this.entries.set(scope, cached);
      return cached;
    }
    // A whole view stays whole while no image came into or left anyone's list and no share or proof
    // changed (library-version.ts): only likes, tags or relabels since, most versions under a crowd.
    // Asking again after each cost a statement per whole scope and version (issue 13's soak: ~200 a second).
    if (cached && !cached.vocabulary && cached.version < version && cached.version >= listVersion && cached.version >= resetVersion) {
      const same = { ...cached, version };
      this.entries.delete(scope);
      this.entries.set(scope, same);
      return same;
    }
    const build = this.building.run(`${scope}@${version}`, async () => {
      // A restricted view's counts outlive versions whose changes were all outside it, and after a
      // change to a few images in it they are updated from those images' rows.
      if (cached?.vocabulary && cached.version < version) {
        const changed = await this.deps.changesInView(user, cached.version, version);
        if (changed !== START_OVER && changed.length === 0) return { ...cached, version };
        if (changed !== START_OVER && cached.tally) {
          // Undefined when another version was built from this tally meanwhile: counted afresh below.
          const tally = cached.tally.with(changed, (await this.deps.tags.rowsOn(changed)) ?? []);
          if (tally) return { version, vocabulary: tally.vocabulary, tally };
        }
      }
      return { version, ...(await this.read(user, cached?.counted === true)) };
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

  /**
   * Counts the view afresh: kept per image when its rows are few enough, else counted by the
   * database (`wasCounted`: it was last time, so its rows are not read first only to be dropped).
   */
  private async read(user: AuthUser, wasCounted: boolean): Promise<Omit<Entry, 'version'>> {
    const view = await this.deps.viewOf(user);
    if (view.whole) return { vocabulary: undefined };
    if (!view.imageIds) return { vocabulary: new ScopeVocabulary([]), tally: ViewTally.of([]) };
    const rows = wasCounted ? undefined : await this.deps.tags.rowsOn(view.imageIds, MAX_TALLY_ROWS);
    if (rows === undefined) return { vocabulary: new ScopeVocabulary(await this.deps.tags.usageOn(view.imageIds)), counted: true };
    const tally = ViewTally.of(rows);
    return { vocabulary: tally.vocabulary, tally };
  }

  private trim(): void {
    const weight = (entry: Entry) => (entry.vocabulary?.size ?? 0) + (entry.tally?.rows ?? 0);
    let kept = 0;
    for (const entry of this.entries.values()) kept += weight(entry);
    for (const [scope, entry] of this.entries) {
      if (this.entries.size <= MAX_SCOPES && kept <= MAX_TAGS_KEPT) break;
      this.entries.delete(scope);
      kept -= weight(entry);
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
