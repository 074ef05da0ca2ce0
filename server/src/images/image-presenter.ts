import type { Image } from '@photo/contract';
import type { Clock } from '../shared/clock.js';
import type { MediaStorage } from '../storage/storage.js';
import { urlExpiry } from '../storage/url-signer.js';
import type { ImageWithMedia } from './images.repository.js';

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
  ) {}

  /** Identifies the current URL-signing window: signed URLs differ from one window to the next. */
  urlWindow(): number {
    return urlExpiry(this.clock.now()).getTime();
  }

  async present(rows: readonly ImageWithMedia[]): Promise<Image[]> {
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
    return Promise.all(
      rows.map(async (row) => {
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
          // Tags and likes are filled in by their own domains.
          tags: [],
          allTags: [],
          customTags: [],
          likes: 0,
          liked: false,
          uploadedBy: String(row.uploaded_by),
          createdAt: row.created_at,
        };
      }),
    );
  }
}
