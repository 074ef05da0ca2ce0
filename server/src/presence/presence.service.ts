import type { AuthUser } from '../auth/auth-user.js';
import type { ImagePresenter } from '../images/image-presenter.js';
import type { ImagesRepository } from '../images/images.repository.js';
import { requireVisibleImage, stillVisible, type VisibleImageSource } from '../images/visible-image.js';
import { type Clock, isoNow } from '../shared/clock.js';
import type { PresenceRepository } from './presence.repository.js';

/** Most photos "Photos I'm in" lists, and most names listed for one photo. */
export const MAX_PRESENCE_LIST = 1000;

/** "I'm in this photo!" on any image the person may see (DECISIONS §3); others answer 404. */
export class PresenceService {
  constructor(
    private readonly deps: { presence: PresenceRepository; images: ImagesRepository; visible: VisibleImageSource; presenter: ImagePresenter; clock: Clock },
  ) {}

  async mark(user: AuthUser, imageId: string): Promise<{ message: string }> {
    const row = await requireVisibleImage(this.deps.visible, user, imageId);
    await this.deps.presence.mark(row.id, user.id, isoNow(this.deps.clock));
    return { message: "You're marked in this photo." };
  }

  async isIn(user: AuthUser, imageId: string): Promise<{ isUserInPhoto: boolean }> {
    const row = await requireVisibleImage(this.deps.visible, user, imageId);
    return { isUserInPhoto: await this.deps.presence.isMarked(row.id, user.id) };
  }

  async namesIn(user: AuthUser, imageId: string): Promise<string[]> {
    const row = await requireVisibleImage(this.deps.visible, user, imageId);
    return this.deps.presence.namesIn(row.id, MAX_PRESENCE_LIST);
  }

  /** "Photos I'm in": photos the person marked themselves in and may still see, with thumbnail and tags. */
  async photosOf(user: AuthUser) {
    const candidates = await this.deps.presence.imagesOf(user.id, MAX_PRESENCE_LIST);
    const rows = await stillVisible(this.deps.images, user, candidates);
    const images = await this.deps.presenter.present(rows, user);
    return {
      data: images.map((image) => ({ id: image._id, imageUrl: image.thumbnailURL ?? image.trimmedURL, imageName: image.imageName, tags: image.tags })),
    };
  }
}
