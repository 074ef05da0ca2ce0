import type { Image } from '@photo/contract';
import type { AuthUser } from '../auth/auth-user.js';
import type { ImageCards } from '../image-cards/image-cards.js';
import type { ImagePresenter } from '../images/image-presenter.js';
import type { ImagesRepository } from '../images/images.repository.js';
import { requireVisibleImage, stillVisible, type VisibleImageSource } from '../images/visible-image.js';
import { type Clock, isoNow } from '../shared/clock.js';
import type { LikesRepository } from './likes.repository.js';

/** Most images "My Favorite Images" lists, most recently liked first. */
export const MAX_LIKED_IMAGES = 1000;

/** Likes per person (DECISIONS §3) on any image the person may see; others answer 404. */
export class LikesService {
  constructor(
    private readonly deps: {
      likes: LikesRepository;
      images: ImagesRepository;
      visible: VisibleImageSource;
      presenter: ImagePresenter;
      /** Told of each like committed, so the cards move to its version without reading (image-cards/). */
      cards: Pick<ImageCards, 'likeCommitted'>;
      clock: Clock;
    },
  ) {}

  /** Sets (not toggles) the like, so a repeated request changes nothing; answers the presented image too. */
  async like(user: AuthUser, imageId: string, liked: boolean) {
    const row = await requireVisibleImage(this.deps.visible, user, imageId);
    const state = await this.deps.likes.set(row.id, user.id, liked, isoNow(this.deps.clock));
    if (state.version !== undefined) this.deps.cards.likeCommitted({ imageId: row.id, userId: user.id, liked, version: state.version, likes: state.likes });
    // Presented as of the like itself: the request's own version predates it (image-cards/).
    const [image] = await this.deps.presenter.present([row], user, { atLeast: state.version });
    return { likes: state.likes, totalLikes: state.likes, liked: state.liked, ...(image ? { userAccessData: image } : {}) };
  }

  async status(user: AuthUser, imageId: string): Promise<{ liked: boolean; likeCount: number }> {
    const row = await requireVisibleImage(this.deps.visible, user, imageId);
    const facts = (await this.deps.likes.factsOf([row.id], user.id)).get(row.id);
    return { liked: facts?.liked ?? false, likeCount: facts?.likes ?? 0 };
  }

  /** "My Favorite Images": liked images the person may still see. */
  async likedBy(user: AuthUser): Promise<{ data: Image[] }> {
    const candidates = await this.deps.likes.likedBy(user.id, MAX_LIKED_IMAGES);
    const rows = await stillVisible(this.deps.images, user, candidates);
    return { data: await this.deps.presenter.present(rows, user) };
  }
}
