import type { Image } from '@photo/contract';
import { isLinkViewer, maySeeLocation, type Viewer } from '../access/viewer.js';
import { type ImageUrls, type UrlRequest, viewerTag } from '../media-access/image-urls.js';
import type { Clock } from '../shared/clock.js';
import { keepOn, type Kept } from '../shared/kept-on.js';
import { urlExpiry } from '../storage/url-signer.js';
import { keyToIso } from '../timeline/taken-key.js';
import { type CardFacts, type ImageCards, NO_FACTS } from '../image-cards/image-cards.js';
import { appendCardJson, type ViewerParts } from '../image-cards/card-json.js';
import { JSON_CLOSE_ARRAY, JSON_COMMA, JSON_OPEN_ARRAY, JsonBytes } from '../shared/json-bytes.js';
import type { ImageWithMedia } from './images.repository.js';
import type { LibraryVersion } from '../read-caches/library-version.js';

export type { Viewer } from '../access/viewer.js';

const SORTED_AT: unique symbol = Symbol('sortedAt text');

/**
 * Where presenting reads images from: their cards (image-cards/: rows, tags, likers; kept per
 * image), checked against the library version the viewer's request started with.
 */
export interface PresenterSources {
  cards: Pick<ImageCards, 'rows' | 'facts'>;
  versionOf(viewer: Viewer): Promise<LibraryVersion>;
}

/** Most images' URLs kept for one signing window (about 200 bytes each). */
const MAX_CACHED_URLS = 200_000;

/**
 * Turns image rows into the spec's Image objects (§3) for one viewer: URLs bound to that viewer
 * (media-access/, DECISIONS §4), GPS only for the uploader and admins (access/viewer.ts). URLs of
 * one expiry window are identical for a viewer and an image, so browsers cache them.
 */
export class ImagePresenter {
  /**
   * Signed URLs of the current expiry window, by viewer and image, as the one piece of JSON a page
   * writes them as (card-json.ts `urlsJson`): a page reads them from here (a lookup per image) and
   * signs only those it does not find, all in one call (image-urls.ts). Keyed by viewer, then by
   * image id (a number: no key text made per lookup). One piece (UTF-8 bytes) per image and viewer,
   * not a pair of URLs in an array: a third of the objects every full collection marks.
   */
  private urls = new Map<string, Map<number, Buffer>>();
  private urlCount = 0;
  private urlsExpireAt = 0;

  constructor(
    private readonly imageUrls: ImageUrls,
    private readonly clock: Clock,
    private readonly sources: PresenterSources,
  ) {}

  /** Identifies the current URL-signing window: signed URLs differ from one window to the next. */
  urlWindow(): number {
    return urlExpiry(this.clock.now()).getTime();
  }

  /** The images of these ids that exist, in this order (rows from their cards: no query when all are kept). */
  async presentIds(ids: readonly number[], viewer: Viewer): Promise<Image[]> {
    if (ids.length === 0) return [];
    const { version } = await this.sources.versionOf(viewer);
    return this.presentAt(await this.sources.cards.rows(ids, version), viewer, version);
  }

  /**
   * `atLeast`: a library version the answer must show, when the request itself changed the library
   * (its version, read with the session, predates that change).
   */
  async present(rows: readonly ImageWithMedia[], viewer: Viewer, options: { atLeast?: number | undefined } = {}): Promise<Image[]> {
    if (rows.length === 0) return [];
    const { version } = await this.sources.versionOf(viewer);
    return this.presentAt(rows, viewer, Math.max(version, options.atLeast ?? 0));
  }

  /** `sortedAt` of a row, kept on it (image-cards/ keeps rows; shared/kept-on.ts): formatting a date is a good part of presenting one. */
  private sortedAtOf(row: ImageWithMedia): string {
    return (row as Kept<ImageWithMedia, typeof SORTED_AT, string>)[SORTED_AT] ?? keepOn(row, SORTED_AT, keyToIso(row.taken_key));
  }

  private async presentAt(rows: readonly ImageWithMedia[], viewer: Viewer, version: number): Promise<Image[]> {
    const urls = this.signedUrlsOf(rows, viewer);
    const viewerId = isLinkViewer(viewer) ? undefined : viewer.id;
    const facts = await this.sources.cards.facts(
      rows.map((row) => row.id),
      version,
    );
    return rows.map((row, index) => {
      const card = facts[index] ?? NO_FACTS;
      return this.imageOf(row, card, {
        display: urls[index]?.[0] ?? null,
        thumb: urls[index]?.[1] ?? null,
        location: maySeeLocation(viewer, row),
        liked: viewerId !== undefined && card.likers.includes(viewerId),
      });
    });
  }

  private imageOf(row: ImageWithMedia, card: CardFacts, parts: ViewerParts): Image {
    return {
      _id: String(row.id),
      imageName: row.image_name,
      FileName: row.file_name,
      trimmedURL: parts.display,
      thumbnailURL: parts.thumb,
      placeholder: row.placeholder,
      width: row.media_width,
      height: row.media_height,
      takenAt: row.taken_at,
      sortedAt: this.sortedAtOf(row),
      dateSource: row.date_source,
      camera: row.camera,
      gps: row.gps_latitude !== null && row.gps_longitude !== null && parts.location ? { latitude: row.gps_latitude, longitude: row.gps_longitude } : null,
      // One shared vocabulary: `tags` and `allTags` are every tag on the image; `customTags` the
      // ones added as custom tags from search results (docs/decisions/0004).
      tags: card.tags,
      allTags: card.tags,
      customTags: card.customTags,
      likes: card.likers.length,
      liked: parts.liked,
      uploadedBy: String(row.uploaded_by),
      createdAt: row.created_at,
    };
  }

  /**
   * The same images as `presentIds`, as the JSON of an array in UTF-8 (image-cards/card-json.ts:
   * copied from pieces kept with the cards, no objects made and no zod check per image — the text is
   * the one the contract's serializer would write). `around`: the text of the answer before and
   * after the array. The answer is returned as its pieces (shared/json-bytes.ts), copied once when it
   * is sent or kept.
   */
  async presentIdsJson(ids: readonly number[], viewer: Viewer, around: { before: string; after: string } = NOTHING_AROUND): Promise<JsonBytes> {
    // Before, '[', six pieces an image (a comma and five: card-json.ts), ']' and after.
    const out = new JsonBytes(4 + ids.length * 6);
    out.pushText(around.before);
    out.push(JSON_OPEN_ARRAY);
    if (ids.length > 0) {
      const { version } = await this.sources.versionOf(viewer);
      const rows = await this.sources.cards.rows(ids, version);
      const urls = this.urlsJsonOf(rows, viewer);
      const viewerId = isLinkViewer(viewer) ? undefined : viewer.id;
      const facts = await this.sources.cards.facts(
        rows.map((row) => row.id),
        version,
      );
      for (let index = 0; index < rows.length; index += 1) {
        const row = rows[index] as ImageWithMedia;
        const card = facts[index] ?? NO_FACTS;
        if (index > 0) out.push(JSON_COMMA);
        appendCardJson(out, row, card, urls[index] as Buffer, maySeeLocation(viewer, row), viewerId !== undefined && card.likers.includes(viewerId));
      }
    }
    out.push(JSON_CLOSE_ARRAY);
    out.pushText(around.after);
    return out;
  }

  /** Each row's display and thumbnail URL for this viewer (null while that file is not made yet), signed now in one call. */
  private signedUrlsOf(rows: readonly ImageWithMedia[], viewer: Viewer): (readonly [string | null, string | null])[] {
    const wanted: UrlRequest[] = [];
    for (const row of rows) {
      if (row.display_key) wanted.push({ imageId: row.id, variant: 'display' });
      if (row.thumbnail_key) wanted.push({ imageId: row.id, variant: 'thumb' });
    }
    const signed = this.imageUrls.urls(wanted, viewerTag(viewer), this.urlWindow() / 1000);
    let at = 0;
    return rows.map((row) => [row.display_key ? (signed[at++] as string) : null, row.thumbnail_key ? (signed[at++] as string) : null] as const);
  }

  /** Each row's URLs for this viewer as their piece of JSON, by position: kept ones looked up, the rest signed and written in one call. */
  private urlsJsonOf(rows: readonly ImageWithMedia[], viewer: Viewer): Buffer[] {
    const expiresAt = this.urlWindow();
    if (expiresAt !== this.urlsExpireAt || this.urlCount > MAX_CACHED_URLS) {
      this.urls = new Map();
      this.urlCount = 0;
      this.urlsExpireAt = expiresAt;
    }
    const tag = viewerTag(viewer);
    let kept = this.urls.get(tag);
    if (!kept) this.urls.set(tag, (kept = new Map()));
    const found: (Buffer | undefined)[] = rows.map((row) => kept.get(row.id));
    if (!found.includes(undefined)) return found as Buffer[];
    const missing = rows.filter((_, index) => found[index] === undefined);
    // Signed and written for all of them in one call (image-urls.ts `urlsJsonPieces`).
    const written = this.imageUrls.urlsJsonPieces(
      missing.map((row) => ({ imageId: row.id, display: Boolean(row.display_key), thumb: Boolean(row.thumbnail_key) })),
      tag,
      expiresAt / 1000,
    );
    let at = 0;
    return rows.map((row, index) => {
      const known = found[index];
      if (known !== undefined) return known;
      const json = written[at++] as Buffer;
      // Not kept while the image is still being processed: its keys are not there yet.
      if (row.display_key && row.thumbnail_key) {
        kept.set(row.id, json);
        this.urlCount += 1;
      }
      return json;
    });
  }
}

const NOTHING_AROUND = { before: '', after: '' };
