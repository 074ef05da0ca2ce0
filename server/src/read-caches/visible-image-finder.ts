import type { AuthUser } from '../auth/auth-user.js';
import type { ImageCards } from '../image-cards/image-cards.js';
import type { ImagesRepository, ImageWithMedia } from '../images/images.repository.js';
import type { VisibleIdList, VisibleIds } from './visible-ids.js';

/**
 * One image a person may see, from the caches a gallery page reads: the person's id list (is the
 * image in it?) and the image's card (its row). A detail, a like, a tag or an "I'm in this photo"
 * first asks whether the person may see the image; under a crowd (issue 13's soak: a fifth of the
 * requests) that was a query joining the image, its media and the access rules, each time.
 *
 * The answer is as of the request's library version, like every cached read (decision 0011): the
 * list and the card are at least that new. An image found in neither way is asked of the database
 * (`ImagesRepository.findVisible`), so a 404 is always the database's word, and a row newer than the
 * list (its date read again since) cannot hide an image.
 */
export class VisibleImageFinder {
  constructor(
    private readonly deps: {
      visibleIds: Pick<VisibleIds, 'of'>;
      cards: Pick<ImageCards, 'rows'>;
      images: Pick<ImagesRepository, 'findVisible'>;
    },
  ) {}

  /** The image if it is ready and the person may see it, else undefined. */
  async findVisible(user: AuthUser, id: number): Promise<ImageWithMedia | undefined> {
    const list = await this.deps.visibleIds.of(user);
    const [row] = await this.deps.cards.rows([id], list.version);
    if (row && row.ready === 1 && row.trashed_at === null && listed(list, row.id, row.taken_key)) return row;
    return this.deps.images.findVisible(user, id);
  }
}

/** Whether (key, id) is in the list: a binary search over its keys (newest first, ties by id, descending). */
export function listed(list: Pick<VisibleIdList, 'ids' | 'keys'>, id: number, key: number): boolean {
  const { ids, keys } = list;
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const k = keys[middle] as number;
    const i = ids[middle] as number;
    // Is the entry at `middle` before (key, id) in gallery order?
    if (k > key || (k === key && i > id)) low = middle + 1;
    else high = middle;
  }
  return low < ids.length && ids[low] === id && keys[low] === key;
}
