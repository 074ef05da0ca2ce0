import { PROFILE_UPLOADS_LIMIT, type Profile } from '@photo/contract';
import type { AuthUser } from '../auth/auth-user.js';
import type { UsersRepository } from '../auth/users.repository.js';
import type { UserRow } from '../db/schema.js';
import { notFound } from '../http/errors.js';
import type { ImagePresenter } from '../images/image-presenter.js';
import type { ImagesRepository } from '../images/images.repository.js';
import { type Clock, isoNow } from '../shared/clock.js';
import type { MediaStorage } from '../storage/storage.js';
import type { TagsRepository } from '../tags/tags.repository.js';
import { MAX_TAG_LIST } from '../tags/tags.service.js';
import { urlExpiry } from '../storage/url-signer.js';

export class ProfileService {
  constructor(
    private readonly users: UsersRepository,
    private readonly clock: Clock,
    private readonly images: ImagesRepository,
    private readonly presenter: ImagePresenter,
    private readonly storage: MediaStorage,
    private readonly tags: TagsRepository,
  ) {}

  async profile(user: AuthUser): Promise<Profile> {
    const row = await this.load(user);
    const [image, uploads, bulkTags] = await Promise.all([
      this.imageUrl(row),
      this.images.uploadedBy(user.id, PROFILE_UPLOADS_LIMIT).then((ids) => this.presenter.presentIds(ids, user)),
      // The tags this person has put on images (the same list as GET /user-tags).
      this.tags.usedBy(user, MAX_TAG_LIST),
    ]);
    return {
      id: String(row.id),
      username: row.username,
      name: row.username,
      email: row.email,
      role: row.role,
      profileImage: image,
      image,
      bulkTags,
      emailConfirmed: row.email_confirmed_at !== null,
      userUploadedImages: uploads,
    };
  }

  async me(user: AuthUser): Promise<{ name: string; image: string | null; role: Profile['role']; email: string; emailConfirmed: boolean }> {
    const row = await this.load(user);
    return { name: row.username, image: await this.imageUrl(row), role: row.role, email: row.email, emailConfirmed: row.email_confirmed_at !== null };
  }

  /** The profile image as a signed URL (DECISIONS §4), or null for the default avatar. */
  async imageUrl(row: Pick<UserRow, 'profile_image_key'>): Promise<string | null> {
    return row.profile_image_key ? this.storage.signedUrl(row.profile_image_key, urlExpiry(this.clock.now())) : null;
  }

  async rename(user: AuthUser, username: string): Promise<void> {
    await this.users.updateUsername(user.id, username, isoNow(this.clock));
  }

  private async load(user: AuthUser): Promise<UserRow> {
    const row = await this.users.findById(user.id);
    if (!row) throw notFound('This account no longer exists.');
    return row;
  }
}
