import { calls, type TimelineMonth } from '@photo/contract';
import type { AuthUser } from '../auth/auth-user.js';
import type { JsonBytes } from '../shared/json-bytes.js';
import type { ImagePresenter } from '../images/image-presenter.js';
import type { ImagesRepository } from '../images/images.repository.js';
import { PageCache } from '../read-caches/page-cache.js';
import type { VisibleIdList, VisibleIds } from '../read-caches/visible-ids.js';
import { monthRange, monthsOf } from './months.js';

/**
 * The timeline (issue 11, decision 0009): the months of what a person may see, and a page of one
 * month. Both are read off the visible-id list (read-caches/visible-ids.ts), so they cost what a gallery
 * page costs — a version check, then binary searches — and are answered serialized from a cache
 * per person and library version, like gallery pages.
 */
export class TimelineService {
  /**
   * The months of each visible-id list, made once per list of keys: key arrays are replaced, never
   * changed, and a version bump that added nothing (a like, a tag) keeps the same array.
   */
  private readonly monthsByKeys = new WeakMap<Float64Array, string>();
  private readonly pages = new PageCache<JsonBytes>(300, { admitSecondAsk: true });

  constructor(
    private readonly deps: { images: ImagesRepository; visibleIds: VisibleIds; presenter: ImagePresenter },
  ) {}

  /** `{ totalImages, months }` as JSON text. */
  async monthsJson(user: AuthUser): Promise<string> {
    const list = await this.deps.visibleIds.of(user);
    let json = this.monthsByKeys.get(list.keys);
    if (json === undefined) {
      const months: TimelineMonth[] = monthsOf(list.keys);
      json = JSON.stringify(calls.getTimeline.response.parse({ totalImages: list.ids.length, months }));
      this.monthsByKeys.set(list.keys, json);
    }
    return json;
  }

  /** One page of a month, as JSON (UTF-8). */
  async monthPageJson(user: AuthUser, month: string, page: number, limit: number): Promise<JsonBytes> {
    const list = await this.deps.visibleIds.of(user);
    const key = `${user.id}|${month}|${page}|${limit}|${this.deps.presenter.urlWindow()}`;
    const cached = this.pages.get(key, list.version);
    if (cached !== undefined) return cached;
    const json = await this.monthPage(user, list, month, page, limit);
    this.pages.set(key, list.version, json);
    return json;
  }

  /** The contract's `getTimelineMonth` answer as text, its images written by ImagePresenter.presentIdsJson. */
  private async monthPage(user: AuthUser, list: VisibleIdList, month: string, page: number, limit: number): Promise<JsonBytes> {
    const { start, end } = monthRange(list.keys, month);
    const from = Math.min(start + (page - 1) * limit, end);
    const to = Math.min(from + limit, end);
    const facts = JSON.stringify({ month, count: end - start, offset: start, galleryPage: Math.floor(start / limit) + 1 });
    const pagination = JSON.stringify({ currentPage: page, hasMore: to < end, totalImages: end - start });
    // The month facts, their closing brace dropped, then the images and pagination in the contract's order.
    return this.deps.presenter.presentIdsJson(Array.from(list.ids.subarray(from, to)), user, {
      before: `${facts.slice(0, -1)},"images":`,
      after: `,"pagination":${pagination}}`,
    });
  }
}
