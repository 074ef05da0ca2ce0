import { type AuthUser, toAuthUser } from '../auth/auth-user.js';
import type { ImagesRepository } from '../images/images.repository.js';
import { type Clock, unixNow } from '../shared/clock.js';
import { type ImageUrls, parseViewerTag, type Variant } from './image-urls.js';
import type { MediaAccessRepository } from './media-access.repository.js';
import { type MediaKeys, VerdictCache } from './verdict-cache.js';
import { linkStamp } from '../access/viewer.js';

/** What a photo URL names, as it arrived (nothing checked yet). */
export interface PhotoRequest {
  imageId: number;
  variant: Variant;
  viewerTag: string;
  exp: number;
  sig: string;
}

/** Every share-all link page sees the same images (every ready one), so they share one scope. */
const LINK_SCOPE = 'link-page';

/**
 * Everything about the person that `onlyVisible` reads is in the key, so a changed role, address or
 * proof of address is never answered from the old verdicts, even before the library version moves.
 */
function personScope(user: AuthUser): string {
  return `user:${user.id}:${user.role}:${user.emailConfirmed ? 'proven' : 'unproven'}:${user.email}`;
}

/**
 * Decides, on every photo request, whether the URL's viewer may see the image right now, and which
 * stored file to stream. A valid signature only proves the URL was handed to that viewer; the
 * answer comes from the access layer as it stands at this request:
 * - a person: `ImagesRepository.findVisible`, i.e. `onlyVisible` (DECISIONS §3), for the account as
 *   it is now (role, address, proof), read afresh on every request; for an image in the Trash, its
 *   `trash` thumbnail only, and only for whom `onlyInTrashOf` shows it (its uploader, admins);
 * - a share-all link page: what `SharedViewsService.byLink` shows — every ready image, while the
 *   link's all-access record is active and the link is the record's current one.
 */
export class MediaAccessService {
  private readonly verdicts = new VerdictCache();

  constructor(
    private readonly deps: { repository: MediaAccessRepository; images: ImagesRepository; urls: ImageUrls; clock: Clock },
  ) {}

  /** The storage key to stream, or null: a bad or expired URL, or the viewer may not see the image (any more). */
  async keyFor(request: PhotoRequest): Promise<string | null> {
    const viewer = parseViewerTag(request.viewerTag);
    if (!viewer) return null;
    const { imageId, variant, viewerTag, exp, sig } = request;
    if (!this.deps.urls.verify(imageId, variant, viewerTag, exp, sig, unixNow(this.deps.clock))) return null;
    const keys = viewer.kind === 'user' ? await this.forPerson(viewer.id, imageId) : await this.forLinkPage(viewer.id, viewer.stamp, imageId);
    return keys?.[variant] ?? null;
  }

  private async forPerson(userId: number, imageId: number): Promise<MediaKeys | null> {
    const state = await this.deps.repository.account(userId);
    if (!state) return null;
    const user = toAuthUser(state.account);
    return this.decide(personScope(user), state.version, imageId, async () => {
      const visible = await this.deps.images.findVisible(user, imageId);
      if (visible) return { thumb: visible.thumbnail_key, display: visible.display_key, trash: null };
      // The Trash (trash/): its uploader and admins see a trashed image's thumbnail there, through
      // its own `trash` URLs only; the gallery's URLs of it answer 404 for everyone.
      const trashed = await this.deps.images.findInTrashOf(user, imageId);
      return trashed && { thumb: null, display: null, trash: trashed.thumbnail_key };
    });
  }

  private async forLinkPage(recordId: number, stamp: string, imageId: number): Promise<MediaKeys | null> {
    const record = await this.deps.repository.linkRecord(recordId);
    if (!record || record.active !== 1 || record.kind !== 'all') return null;
    // A URL from an earlier link of this record (switched off, then shared again) stays dead.
    if (record.linkHash === null || linkStamp(record.linkHash) !== stamp) return null;
    return this.decide(LINK_SCOPE, record.version, imageId, async () => {
      const [row] = await this.deps.images.withMedia([imageId]);
      return row?.ready === 1 ? { thumb: row.thumbnail_key, display: row.display_key, trash: null } : undefined;
    });
  }

  private async decide(
    scope: string,
    version: number,
    imageId: number,
    read: () => Promise<MediaKeys | undefined>,
  ): Promise<MediaKeys | null> {
    const cached = this.verdicts.get(scope, version, imageId);
    if (cached !== undefined) return cached;
    const keys = (await read()) ?? null;
    this.verdicts.set(scope, version, imageId, keys);
    return keys;
  }
}
