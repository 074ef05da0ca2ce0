import { type Image, tags as tagCalls } from '@photo/contract';
import type { AuthUser } from '../auth/auth-user.js';
import { badRequest, notFound } from '../http/errors.js';
import type { ImagePresenter } from '../images/image-presenter.js';
import type { LibraryVersion } from '../read-caches/library-version.js';
import { PageCache } from '../read-caches/page-cache.js';
import type { ImagesRepository } from '../images/images.repository.js';
import { requireVisibleImage, requireVisibleImages, stillVisible, type VisibleImageSource } from '../images/visible-image.js';
import { type Clock, isoNow } from '../shared/clock.js';
import { JsonBytes } from '../shared/json-bytes.js';
import { normalizeTag, normalizeTags, tagToStore, tagsToStore } from './tag-text.js';
import type { ImageCards } from '../image-cards/image-cards.js';
import type { TagChangesRepository, TagsAdded } from './tag-changes.repository.js';
import type { TagKind, TagsRepository } from './tags.repository.js';
import type { VisibleVocabulary } from './visible-vocabulary.js';

/** Most tags any list returns (vocabulary, a person's tags): far above a real library's. */
export const MAX_TAG_LIST = 20_000;
/** Most images a "my …" list returns, newest first. */
export const MAX_TAGGED_IMAGES = 1000;
/**
 * Most images the tag filter returns, newest first. The answer replaces the gallery in one piece
 * (spec §4: no paging), at ~800 bytes an image; beyond this, another tag narrows better than scrolling.
 */
export const MAX_FILTERED_IMAGES = 500;

/**
 * Tagging as one shared vocabulary (DECISIONS §3). Every per-image call works only on images the
 * person may see (404 naming the id otherwise); bulk calls change all the images or none. Every
 * list of tag words (vocabulary, suggestions, the person's tags) is drawn from the images the
 * person may see, ranked by counts over those images (`VisibleVocabulary`): a word that is only on
 * someone else's private photos is never named, and never counted.
 */
export class TagsService {
  constructor(
    private readonly deps: {
      tags: TagsRepository;
      changes: TagChangesRepository;
      images: ImagesRepository;
      /** One image a person may see, from the read caches (read-caches/visible-image-finder.ts). */
      visible: VisibleImageSource;
      presenter: ImagePresenter;
      /** Told of tags added, so the cards move to that version without reading (image-cards/). */
      cards: Pick<ImageCards, 'tagsCommitted' | 'facts'>;
      clock: Clock;
      /** The library version this person's request is checked against (read-caches/request-versions.ts). */
      libraryVersion: (user: AuthUser) => Promise<LibraryVersion>;
      vocabulary: VisibleVocabulary;
    },
  ) {}

  /** Serialized tag-filter answers per person, tags and library version (like gallery pages), as UTF-8 bytes. */
  private readonly filters = new PageCache<JsonBytes>(200);
  private readonly suggestionCache = new PageCache(2000);

  /** The tags on images the person may see, alphabetically. */
  async vocabulary(user: AuthUser): Promise<{ tags: string[] }> {
    return { tags: await (await this.deps.vocabulary.of(user)).names(MAX_TAG_LIST) };
  }

  /** Spec §3 "Tags response": each image's tags, and those common to every selected image. */
  async ofSelection(user: AuthUser, imageIds: readonly string[]) {
    const rows = await requireVisibleImages(this.deps.images, user, imageIds);
    const labels = await this.deps.tags.labelsOf(rows.map((row) => row.id));
    const uniqueTags = rows.map((row) => ({ imageId: String(row.id), filteredTags: labels.get(row.id)?.tags ?? [] }));
    const [first, ...rest] = uniqueTags;
    const commantags = first ? first.filteredTags.filter((tag) => rest.every((entry) => entry.filteredTags.includes(tag))) : [];
    return { uniqueTags, commantags };
  }

  async add(user: AuthUser, imageIds: readonly string[], tags: readonly string[], kind: TagKind): Promise<{ message: string }> {
    const names = tagsToStore(tags);
    if (names.length === 0) throw badRequest('Please enter at least one tag.');
    const rows = await requireVisibleImages(this.deps.images, user, imageIds);
    this.tellCards(await this.deps.changes.add({ imageIds: rows.map((row) => row.id), names, userId: user.id, kind, now: isoNow(this.deps.clock) }));
    const what = names.length === 1 ? `Tag "${names[0]}"` : `${names.length} tags`;
    return { message: `${what} added to ${rows.length === 1 ? '1 image' : `${rows.length} images`}.` };
  }

  /** The image-detail input: one tag; answers the image's tags afterwards. */
  async addOne(user: AuthUser, imageId: string, tag: string): Promise<{ tags: string[] }> {
    const name = tagToStore(tag);
    const row = await requireVisibleImage(this.deps.visible, user, imageId);
    const added = await this.deps.changes.add({ imageIds: [row.id], names: [name], userId: user.id, kind: 'tag', now: isoNow(this.deps.clock) });
    this.tellCards(added);
    // After a change, its card as of that change (no statement when the card moved to it in place).
    if (added) return { tags: (await this.deps.cards.facts([row.id], added.version))[0]?.tags ?? [] };
    return { tags: (await this.deps.tags.labelsOf([row.id])).get(row.id)?.tags ?? [] };
  }

  /** The cards take the added tags in place (hidden names left out, as every read leaves them out). */
  private tellCards(added: TagsAdded | undefined): void {
    if (!added) return;
    const shown = (name: string) => !this.deps.tags.isHidden(name);
    this.deps.cards.tagsCommitted({ ...added, names: added.names.filter(shown), added: added.added.filter((row) => shown(row.name)) });
  }

  /**
   * Takes tags off one image, all or none. Allowed for whoever added the tag there, the image's
   * uploader, or an admin; anyone else gets a 404 (a 403 would sign them out in the spec's client).
   */
  async remove(user: AuthUser, imageId: string, tagNames: readonly string[]): Promise<{ message: string }> {
    const row = await requireVisibleImage(this.deps.visible, user, imageId);
    const names = normalizeTags(tagNames);
    const tags = await this.deps.tags.byNames(names);
    const taggers = await this.deps.tags.taggersOn(row.id, tags.map((tag) => tag.id));
    const mayRemoveAny = user.role === 'admin' || row.uploaded_by === user.id;
    for (const name of names) {
      const tag = tags.find((t) => t.name === name);
      const by = taggers.filter((t) => t.tag_id === tag?.id);
      if (!tag || by.length === 0) throw notFound(`Image ${imageId} has no tag "${name}", so no tag was removed.`);
      if (!mayRemoveAny && !by.some((t) => t.tagged_by === user.id)) {
        throw notFound(`The tag "${name}" on image ${imageId} can only be removed by whoever added it, the uploader or an admin, so no tag was removed.`);
      }
    }
    await this.deps.changes.remove(row.id, tags.map((tag) => tag.id));
    return { message: names.length === 1 ? `Tag "${names[0]}" removed.` : `${names.length} tags removed.` };
  }

  async usedBy(user: AuthUser): Promise<{ data: string[] }> {
    return { data: await this.deps.tags.usedBy(user, MAX_TAG_LIST) };
  }

  /** "My Tagged Images": images the person tagged (still visible to them), with the tags they added. */
  async taggedBy(user: AuthUser) {
    const candidates = await this.deps.tags.imagesTaggedBy(user.id, MAX_TAGGED_IMAGES);
    const rows = await stillVisible(this.deps.images, user, candidates);
    const [images, added] = await Promise.all([
      this.deps.presenter.present(rows, user),
      this.deps.tags.addedBy(user.id, rows.map((row) => row.id)),
    ]);
    const data = images.flatMap((image) => {
      const mine = added.get(Number(image._id)) ?? [];
      // Only hidden tags of theirs on it: nothing to show or filter by.
      if (mine.length === 0) return [];
      return [{ image, tags: [...mine].sort(), tagName: mine[0] as string }];
    });
    return { data };
  }

  /**
   * Spec §5 as JSON: tags on images the person may see starting with the text, most used there
   * first, at most five. Cached per view (everyone who sees the whole library shares one), prefix
   * and library version (every tag write bumps it): people type the same few letters, and a prefix
   * such as 'be' ranks hundreds of tags.
   */
  async suggestionsJson(user: AuthUser, query: string): Promise<string> {
    const prefix = normalizeTag(query);
    if (!prefix) return '[]';
    const view = await this.deps.vocabulary.of(user);
    const key = `${view.key}|${prefix}`;
    const cached = this.suggestionCache.get(key, view.version);
    if (cached !== undefined) return cached;
    const json = JSON.stringify((await view.startingWith(prefix, tagCalls.MAX_TAG_SUGGESTIONS)).map((tag) => tag.name));
    this.suggestionCache.set(key, view.version, json);
    return json;
  }

  /**
   * The tag filter's answer, serialized: up to MAX_FILTERED_IMAGES presented images is the costliest
   * read there is (~50 ms), and people click the same few tags on and off. Cached per person, tag
   * set and URL window for one library version, which every tag, like and visibility change bumps.
   *
   * Kept as its UTF-8 bytes, not as text: an answer is ~350 KB, and text was encoded again for every
   * send, into memory of its own that the server's malloc settings (scripts/server-runtime.mjs: over
   * 128 KiB mapped and unmapped on each use) mapped afresh each time. The kept bytes are sent
   * as they are (http/route.ts sends a one-piece answer without copying it): on the gallery bench's
   * tag filter row, 3.3–4.1 → 0.24–0.43 ms of server CPU per answer, 244–312 → 1,005–1,922 answers
   * a second (decision 0041).
   */
  async withAllTagsJson(
    user: AuthUser,
    query: string | readonly string[],
    serialize: (answer: { images: Image[]; message?: string }) => string,
  ): Promise<JsonBytes> {
    // The version is read first: a change racing this read is cached under the older version, never served as current.
    const { version } = await this.deps.libraryVersion(user);
    const names = normalizeTags(typeof query === 'string' ? query.split(',') : query).sort();
    const key = `${user.id}|${this.deps.presenter.urlWindow()}|${names.join('\u0000')}`;
    const cached = this.filters.get(key, version);
    if (cached !== undefined) return cached;
    const json = new JsonBytes(1);
    json.push(Buffer.from(serialize(await this.withAllTags(user, names))));
    this.filters.set(key, version, json);
    return json;
  }

  /**
   * The tag filter and the search results (spec §4): visible images carrying every given tag,
   * newest first, at most MAX_FILTERED_IMAGES. A text query may name several tags separated by commas.
   */
  async withAllTags(user: AuthUser, query: string | readonly string[]): Promise<{ images: Image[]; message?: string }> {
    const names = normalizeTags(typeof query === 'string' ? query.split(',') : query);
    if (names.length === 0) return noImages();
    // Only tags on images the person may see can find anything (a hidden tag is in no view either),
    // so a word from someone else's private photos answers at once, exactly as an unknown word does.
    const view = await this.deps.vocabulary.of(user);
    const inView = await view.byNames(names);
    if (inView.length < names.length) return noImages();
    // The walk visits every image carrying the driving tag, seen or not: the rarest in the whole
    // library drives (counts that only pick a plan, never shown).
    const usable = view.wholeLibrary ? inView : await this.deps.tags.byNames(names);
    const ordered = [...usable].sort((a, b) => a.usage_count - b.usage_count).map((tag) => tag.id);
    const ids = await this.deps.tags.imagesWithAll(user, ordered, MAX_FILTERED_IMAGES);
    if (ids.length === 0) return noImages();
    return { images: await this.deps.presenter.presentIds(ids, user) };
  }
}

function noImages(): { images: Image[]; message: string } {
  return { images: [], message: 'No images found' };
}
