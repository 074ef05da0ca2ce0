import type { TrashedImage } from '@photo/contract';
import { mayDelete } from '../access/image-visibility.js';
import type { AuthUser } from '../auth/auth-user.js';
import { notFound } from '../http/errors.js';
import type { ImagePresenter } from '../images/image-presenter.js';
import type { ImagesRepository } from '../images/images.repository.js';
import type { MediaProcessor } from '../image-processing/media-processor.js';
import { type ImageUrls, viewerTag } from '../media-access/image-urls.js';
import type { TrashRepository } from './trash.repository.js';

export interface TrashPage {
  images: TrashedImage[];
  pagination: { currentPage: number; hasMore: boolean; totalImages: number };
  trashDays: number;
}

/** Images deleted for good per transaction (emptying the Trash, the purge). */
export const DELETE_BATCH = 200;

/**
 * The Trash (DECISIONS §3 for who): a deleted image waits here for TRASH_DAYS, seen only by its
 * uploader and admins, who may restore it or delete it for good. Deleting for good is the images'
 * one delete path: rows in one transaction, then the files no other image uses, by the process
 * holding each media row (`MediaProcessor.removeDeleted`).
 */
export class TrashService {
  constructor(
    private readonly deps: {
      trash: TrashRepository;
      images: ImagesRepository;
      presenter: ImagePresenter;
      urls: ImageUrls;
      processor: Pick<MediaProcessor, 'removeDeleted'>;
      trashDays: number;
    },
  ) {}

  async list(user: AuthUser, page: number, limit: number): Promise<TrashPage> {
    const offset = (page - 1) * limit;
    const { entries, total } = await this.deps.trash.page(user, offset, limit);
    const rows = await this.deps.images.withMedia(entries.map((entry) => entry.id));
    const presented = new Map((await this.deps.presenter.present(rows, user)).map((image) => [image._id, image]));
    const exp = this.deps.presenter.urlWindow() / 1000;
    const byId = new Map(rows.map((row) => [row.id, row]));
    const images = entries.flatMap((entry) => {
      const image = presented.get(String(entry.id));
      if (!image) return [];
      // A trashed image is served only as its `trash` thumbnail, to whom sees it here (media-access).
      const thumbnailURL = byId.get(entry.id)?.thumbnail_key ? this.deps.urls.url(entry.id, 'trash', viewerTag(user), exp) : null;
      return [{ ...image, trimmedURL: null, thumbnailURL, trashedAt: entry.trashedAt, trashedBy: entry.trashedBy }];
    });
    return { images, pagination: { currentPage: page, hasMore: offset + limit < total, totalImages: total }, trashDays: this.deps.trashDays };
  }

  /** Puts the images back, all or none: each must be in the person's Trash. */
  async restore(user: AuthUser, imageIds: readonly string[]): Promise<{ message: string }> {
    const ids = await this.requireInTrash(user, imageIds, 'restored');
    await this.deps.trash.restore(ids);
    return { message: ids.length === 1 ? 'Image restored.' : `${ids.length} images restored.` };
  }

  /** Deletes the images for good, all or none: each must be in the person's Trash. */
  async deleteForever(user: AuthUser, imageIds: readonly string[]): Promise<{ message: string }> {
    const ids = await this.requireInTrash(user, imageIds, 'deleted');
    await this.deleteFromTrash(ids);
    return { message: ids.length === 1 ? 'Image deleted for good.' : `${ids.length} images deleted for good.` };
  }

  /** Deletes for good everything in the person's Trash (an admin's: everyone's), in batches. */
  async empty(user: AuthUser): Promise<{ message: string }> {
    let deleted = 0;
    for (;;) {
      const ids = await this.deps.trash.idsInTrashOf(user, DELETE_BATCH);
      if (ids.length === 0) break;
      deleted += await this.deleteFromTrash(ids);
      if (ids.length < DELETE_BATCH) break;
    }
    return { message: deleted === 1 ? 'The Trash is empty: 1 image deleted for good.' : `The Trash is empty: ${deleted} images deleted for good.` };
  }

  /**
   * Deletes for good what was trashed at or before `cutoff`, in batches; returns how many. Safe with
   * several processes purging at once: each batch's delete re-reads its rows under the media locks and
   * takes only those still trashed before the cutoff, so a row is deleted once and a restore wins.
   */
  async purge(cutoff: string): Promise<number> {
    let deleted = 0;
    for (;;) {
      const ids = await this.deps.trash.trashedBefore(cutoff, DELETE_BATCH);
      if (ids.length === 0) break;
      const unused = await this.deps.images.deleteImages(ids, { before: cutoff });
      deleted += ids.length;
      await this.deps.processor.removeDeleted(unused);
      if (ids.length < DELETE_BATCH) break;
    }
    return deleted;
  }

  private async deleteFromTrash(ids: readonly number[]): Promise<number> {
    const unused = await this.deps.images.deleteImages(ids, {});
    // The rows are gone with the commit; a failure here leaves the files to the processor's sweep.
    await this.deps.processor.removeDeleted(unused);
    return ids.length;
  }

  private async requireInTrash(user: AuthUser, imageIds: readonly string[], done: string): Promise<number[]> {
    const ids = [...new Set(imageIds.map((id) => parseId(id) ?? -1))];
    const found = new Map((await this.deps.trash.inTrashAmong(user, ids)).map((row) => [row.id, row]));
    for (const [index, id] of ids.entries()) {
      const image = found.get(id);
      const shown = imageIds[index] ?? String(id);
      // 404 rather than 403 (the spec's client signs people out on any 403), and for anyone else's too.
      if (!image || !mayDelete(user, image)) throw notFound(`Image ${shown} is not in your Trash, so nothing was ${done}.`);
    }
    return ids;
  }
}

function parseId(id: string): number | undefined {
  return /^\d{1,15}$/.test(id) ? Number(id) : undefined;
}
