import type { Image } from '@photo/contract';
import { isLinkViewer, maySeeLocation, type Viewer } from '../access/viewer.js';
import { type ImageUrls, viewerTag } from '../media-access/image-urls.js';
import type { Clock } from '../shared/clock.js';
import { urlExpiry } from '../storage/url-signer.js';
import { keyToIso } from '../timeline/taken-key.js';
import type { ImageWithMedia } from './images.repository.js';

export type { Viewer } from '../access/viewer.js';

/**
 * What other domains know about images, read for a whole page at once (one query per kind per
 * page, never one per image): tags from the tags domain, likes from the likes domain.
 */
export interface ImageFacts {
  tagsOf(imageIds: readonly number[]): Promise<Map<number, { tags: string[]; customTags: string[] }>>;
  likesOf(imageIds: readonly number[], viewerId: number | undefined): Promise<Map<number, { likes: number; liked: boolean }>>;
}

/** Most URL pairs kept for one signing window (about 200 bytes each). */
const MAX_CACHED_URLS = 200_000;

/**
 * Turns image rows into the spec's Image objects (§3) for one viewer: URLs bound to that viewer
 * (media-access/, DECISIONS §4), GPS only for the uploader and admins (access/viewer.ts). URLs of
 * one expiry window are identical for a viewer and an image, so browsers cache them.
 */
export class ImagePresenter {
  /** Signed URLs of the current expiry window, by viewer and image: signing is a good part of a page's cost. */
  private urls = new Map<string, readonly [string | null, string | null]>();
  private urlsExpireAt = 0;

  constructor(
    private readonly imageUrls: ImageUrls,
    private readonly clock: Clock,
    private readonly facts?: ImageFacts,
  ) {}

  /** Identifies the current URL-signing window: signed URLs differ from one window to the next. */
  urlWindow(): number {
    return urlExpiry(this.clock.now()).getTime();
  }

  async present(rows: readonly ImageWithMedia[], viewer: Viewer): Promise<Image[]> {
    const expiresAt = this.urlWindow();
    if (expiresAt !== this.urlsExpireAt || this.urls.size > MAX_CACHED_URLS) {
      this.urls = new Map();
      this.urlsExpireAt = expiresAt;
    }
    const tag = viewerTag(viewer);
    const exp = expiresAt / 1000;
    const urlsOf = (row: ImageWithMedia) => {
      const cacheKey = `${tag}/${row.id}`;
      let pair = this.urls.get(cacheKey);
      if (pair === undefined) {
        pair = [
          row.display_key ? this.imageUrls.url(row.id, 'display', tag, exp) : null,
          row.thumbnail_key ? this.imageUrls.url(row.id, 'thumb', tag, exp) : null,
        ];
        // Not kept while the image is still being processed: its keys are not there yet.
        if (row.display_key && row.thumbnail_key) this.urls.set(cacheKey, pair);
      }
      return pair;
    };
    const ids = rows.map((row) => row.id);
    const viewerId = isLinkViewer(viewer) ? undefined : viewer.id;
    const [tags, likes] = await Promise.all([
      this.facts && ids.length > 0 ? this.facts.tagsOf(ids) : undefined,
      this.facts && ids.length > 0 ? this.facts.likesOf(ids, viewerId) : undefined,
    ]);
    return rows.map((row) => {
      const labels = tags?.get(row.id);
      const like = likes?.get(row.id);
      const [trimmedURL, thumbnailURL] = urlsOf(row);
      return {
        _id: String(row.id),
        imageName: row.image_name,
        FileName: row.file_name,
        trimmedURL,
        thumbnailURL,
        placeholder: row.placeholder,
        width: row.media_width,
        height: row.media_height,
        takenAt: row.taken_at,
        sortedAt: keyToIso(row.taken_key),
        dateSource: row.date_source,
        camera: row.camera,
        gps:
          row.gps_latitude !== null && row.gps_longitude !== null && maySeeLocation(viewer, row)
            ? { latitude: row.gps_latitude, longitude: row.gps_longitude }
            : null,
        // One shared vocabulary: `tags` and `allTags` are every tag on the image; `customTags` the
        // ones added as custom tags from search results (docs/decisions/0004).
        tags: labels?.tags ?? [],
        allTags: labels?.tags ?? [],
        customTags: labels?.customTags ?? [],
        likes: like?.likes ?? 0,
        liked: like?.liked ?? false,
        uploadedBy: String(row.uploaded_by),
        createdAt: row.created_at,
      };
    });
  }
}
