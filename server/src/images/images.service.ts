import type { Image } from '@photo/contract';
import { mayDelete } from '../access/image-visibility.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { JsonBytes } from '../shared/json-bytes.js';
import { notFound } from '../http/errors.js';
import { type Clock, isoNow } from '../shared/clock.js';
import type { ImagePresenter } from './image-presenter.js';
import type { ImagesRepository } from './images.repository.js';
import type { MediaProcessor } from '../image-processing/media-processor.js';
import { MAX_UNPAGED_IMAGES } from './limits.js';
import type { VisibleImageSource } from './visible-image.js';
import { PageCache } from '../read-caches/page-cache.js';
import type { VisibleIdList, VisibleIds } from '../read-caches/visible-ids.js';

export interface GridPage {
  images: Image[];
  pagination: { currentPage: number; hasMore: boolean; totalImages: number };
}

/** Viewing, listing and deleting images, always as seen by one person (DECISIONS §3). */
export class ImagesService {
  private readonly pages = new PageCache<JsonBytes>(500, { admitSecondAsk: true });

  constructor(
    private readonly deps: {
      images: ImagesRepository;
      visibleIds: VisibleIds;
      /** One image a person may see, from the read caches (read-caches/visible-image-finder.ts). */
      visible: VisibleImageSource;
      presenter: ImagePresenter;
      /** Removes the files of media no image uses any more (and must not race their processing). */
      processor: Pick<MediaProcessor, 'removeDeleted'>;
      clock: Clock;
      /** 0: a delete is final at once; otherwise images go to the Trash (trash/) for this many days. */
      trashDays: number;
    },
  ) {}

  /**
   * One gallery page as JSON, UTF-8 (the contract's `getGridImages` answer, written without objects:
   * ImagePresenter.presentIdsJson). Pages are kept, serialized, per person and page until the
   * library version or the URL-signing window changes: the gallery's first pages are read on every
   * visit and rarely change, so most reads cost a version check and a lookup.
   */
  async pageJson(user: AuthUser, page: number, limit: number): Promise<JsonBytes> {
    const { version, ids } = await this.deps.visibleIds.of(user);
    const key = `${user.id}|${page}|${limit}|${this.deps.presenter.urlWindow()}`;
    const cached = this.pages.get(key, version);
    if (cached !== undefined) return cached;
    const slice = pageSlice(ids, page, limit);
    const json = await this.deps.presenter.presentIdsJson(slice.ids, user, { before: '{"images":', after: `,"pagination":${JSON.stringify(slice.pagination)}}` });
    this.pages.set(key, version, json);
    return json;
  }

  /** The same page as objects (`GET /library` for API clients). */
  async page(user: AuthUser, page: number, limit: number): Promise<GridPage> {
    const slice = pageSlice((await this.deps.visibleIds.of(user)).ids, page, limit);
    return { images: await this.deps.presenter.presentIds(slice.ids, user), pagination: slice.pagination };
  }

  /**
   * The whole visible list for previous/next (newest first, capped for very large libraries) as
   * JSON, UTF-8, written from the cards' kept pieces like a page (`around`: the text before and
   * after the array). As objects checked and stringified by the contract's serializer, 10,000
   * images (~6.7 MB) took ~200 ms of the event loop, which every other request waited out.
   */
  async allJson(user: AuthUser, around?: { before: string; after: string }): Promise<JsonBytes> {
    const ids = Array.from((await this.deps.visibleIds.of(user)).ids.subarray(0, MAX_UNPAGED_IMAGES));
    return this.deps.presenter.presentIdsJson(ids, user, around);
  }

  async one(user: AuthUser, id: string): Promise<Image> {
    const numeric = parseId(id);
    const row = numeric === undefined ? undefined : await this.deps.visible.findVisible(user, numeric);
    if (!row) throw notFound('Image not found');
    const [image] = await this.deps.presenter.present([row], user);
    if (!image) throw notFound('Image not found');
    return image;
  }

  /** Previous and next for the detail view, without the whole list (404 for an invisible image). */
  async neighbours(user: AuthUser, id: string): Promise<{ previous: string | null; next: string | null }> {
    const numeric = parseId(id);
    const row = numeric === undefined ? undefined : await this.deps.visible.findVisible(user, numeric);
    if (!row) throw notFound('Image not found');
    const [previous, next] = await Promise.all([
      this.deps.images.neighbour(user, row, 'newer'),
      this.deps.images.neighbour(user, row, 'older'),
    ]);
    return { previous: previous === undefined ? null : String(previous), next: next === undefined ? null : String(next) };
  }

  /**
   * Deletes all the given images or none (DECISIONS §3): each must be visible to the person and
   * theirs (or they are an admin). With TRASH_DAYS they go to the Trash (trash/): gone from every
   * list, search, share and URL at once, restorable by the uploader or an admin until purged.
   * With TRASH_DAYS=0 the delete is final: stored files no other upload uses are removed after the
   * commit (by the process holding each media row: MediaProcessor.removeDeleted).
   */
  async delete(user: AuthUser, imageIds: readonly string[]): Promise<{ message: string }> {
    const ids = [...new Set(imageIds.map((id) => parseId(id) ?? -1))];
    const visible = new Map((await this.deps.images.visibleAmong(user, ids)).map((row) => [row.id, row]));
    for (const [index, id] of ids.entries()) {
      const image = visible.get(id);
      const shown = imageIds[index] ?? String(id);
      if (!image) throw notFound(`Image ${shown} was not found, so nothing was deleted.`);
      // 404 rather than 403: the spec's client signs people out on any 403.
      if (!mayDelete(user, image)) throw notFound(`Image ${shown} can only be deleted by the person who uploaded it, so nothing was deleted.`);
    }
    if (this.deps.trashDays > 0) {
      await this.deps.images.trashImages(ids, user.id, isoNow(this.deps.clock));
    } else {
      const unused = await this.deps.images.deleteImages(ids);
      // The images are gone with the commit; a failure here leaves the files to the processor's sweep.
      await this.deps.processor.removeDeleted(unused);
    }
    return { message: ids.length === 1 ? 'Image deleted successfully.' : `${ids.length} images deleted successfully.` };
  }
}

function parseId(id: string): number | undefined {
  return /^\d{1,15}$/.test(id) ? Number(id) : undefined;
}

/** The ids on one page of a visible list, and the spec's pagination for it. */
function pageSlice(all: VisibleIdList['ids'], page: number, limit: number): { ids: number[]; pagination: GridPage['pagination'] } {
  const offset = (page - 1) * limit;
  return {
    ids: Array.from(all.subarray(offset, offset + limit)),
    pagination: { currentPage: page, hasMore: offset + limit < all.length, totalImages: all.length },
  };
}
