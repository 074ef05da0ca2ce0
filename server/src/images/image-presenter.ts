import type { Image } from '@photo/contract';
import type { Clock } from '../shared/clock.js';
import type { MediaStorage } from '../storage/storage.js';
import { urlExpiry } from '../storage/url-signer.js';
import type { ImageWithMedia } from './images.repository.js';

/**
 * What other domains know about images, read for a whole page at once (one query per kind per
 * page, never one per image): tags from the tags domain, likes from the likes domain.
 */
export interface ImageFacts {
  tagsOf(imageIds: readonly number[]): Promise<Map<number, { tags: string[]; customTags: string[] }>>;
  likesOf(imageIds: readonly number[], viewerId: number | undefined): Promise<Map<number, { likes: number; liked: boolean }>>;
}

/** The person an image is presented to: their own `liked`. None on the public share-all page. */
export interface Viewer {
  id: number;
}

/**
 * Turns image rows into the spec's Image objects (§3), with signed, expiring URLs for the derived
 * files (DECISIONS §4). URLs of one expiry window are identical, so browsers cache them.
 */
export class ImagePresenter {
  /** Signed URLs of the current expiry window, by key: signing is the costliest part of a page. */
  private urls = new Map<string, string>();
  private urlsExpireAt = 0;

  constructor(
    private readonly storage: MediaStorage,
    private readonly clock: Clock,
    private readonly facts?: ImageFacts,
  ) {}

  /** Identifies the current URL-signing window: signed URLs differ from one window to the next. */
  urlWindow(): number {
    return urlExpiry(this.clock.now()).getTime();
  }

  async present(rows: readonly ImageWithMedia[], viewer?: Viewer | null): Promise<Image[]> {
    const expiresAt = urlExpiry(this.clock.now());
    if (expiresAt.getTime() !== this.urlsExpireAt || this.urls.size > 200_000) {
      this.urls = new Map();
      this.urlsExpireAt = expiresAt.getTime();
    }
    const url = async (key: string | null) => {
      if (!key) return null;
      let signed = this.urls.get(key);
      if (signed === undefined) {
        signed = await this.storage.signedUrl(key, expiresAt);
        this.urls.set(key, signed);
      }
      return signed;
    };
    const ids = rows.map((row) => row.id);
    const [tags, likes] = await Promise.all([
      this.facts && ids.length > 0 ? this.facts.tagsOf(ids) : undefined,
      this.facts && ids.length > 0 ? this.facts.likesOf(ids, viewer?.id) : undefined,
    ]);
    return Promise.all(
      rows.map(async (row) => {
        const labels = tags?.get(row.id);
        const like = likes?.get(row.id);
        const [trimmedURL, thumbnailURL] = await Promise.all([url(row.display_key), url(row.thumbnail_key)]);
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
          camera: row.camera,
          gps:
            row.gps_latitude !== null && row.gps_longitude !== null
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
      }),
    );
  }
}
