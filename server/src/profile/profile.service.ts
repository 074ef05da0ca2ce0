import type { Profile } from '@photo/contract';
import type { AuthUser } from '../auth/auth-user.js';
import type { UsersRepository } from '../auth/users.repository.js';
import type { UserRow } from '../db/schema.js';
import { notFound } from '../http/errors.js';
import { type Clock, isoNow } from '../shared/clock.js';

export class ProfileService {
  constructor(
    private readonly users: UsersRepository,
    private readonly clock: Clock,
  ) {}

  async profile(user: AuthUser): Promise<Profile> {
    return toProfile(await this.load(user));
  }

  async me(user: AuthUser): Promise<{ name: string; image: string | null; role: Profile['role'] }> {
    const row = await this.load(user);
    return { name: row.username, image: profileImageUrl(row), role: row.role };
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

// Profile images arrive with the image pipeline; until one is stored, the screens show the default avatar.
function profileImageUrl(row: UserRow): string | null {
  return row.profile_image_key ? `/media/${row.profile_image_key}` : null;
}

function toProfile(row: UserRow): Profile {
  const image = profileImageUrl(row);
  return {
    id: String(row.id),
    username: row.username,
    name: row.username,
    email: row.email,
    role: row.role,
    profileImage: image,
    image,
    bulkTags: [],
    userUploadedImages: [],
  };
}
