import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { AuthUser } from '../auth/auth-user.js';
import type { UsersRepository } from '../auth/users.repository.js';
import { AppError } from '../http/errors.js';
import { receiveFile } from '../ingest/receive-file.js';
import type { ImageDecoder } from '../decoder-process/decoder-process.js';
import { TooManyPixelsError, UnreadableImageError } from '../image-processing/image-errors.js';
import type { TaskPool } from '../image-processing/task-pool.js';
import { type Clock, isoNow } from '../shared/clock.js';
import type { MediaStorage } from '../storage/storage.js';

const AVATAR_SIZE = 256;

/**
 * `POST /upload-profile-image`: the picture is checked like any upload (content, pixel limit), made
 * into a small square WebP, stored under a content-addressed key, and the old one removed unless
 * another account uses the same picture.
 */
export class ProfileImageService {
  constructor(
    private readonly deps: { users: UsersRepository; storage: MediaStorage; pool: TaskPool; decoder: ImageDecoder; clock: Clock; tempDir: string },
  ) {}

  async replace(user: AuthUser, stream: Readable & { truncated?: boolean }, maxBytes: number): Promise<string> {
    const received = await receiveFile(stream, this.deps.tempDir);
    try {
      if (stream.truncated) throw new AppError(413, `The file is larger than the ${Math.round(maxBytes / 1048576)} MB limit.`);
      const { pool, decoder } = this.deps;
      const type = await decoder.sniff(received.head);
      if ('refused' in type) throw new AppError(415, type.refused);
      const avatar = await decoder.probe(received.tempPath, type.decoder)
        // The decode's peak memory reserved in the pool, as for any upload (task-pool.ts).
        .then((probed) => pool.run(() => decoder.avatar(received.tempPath, type.decoder, AVATAR_SIZE, probed.processingBytes), probed.processingBytes))
        .catch((error: unknown) => {
          if (error instanceof UnreadableImageError) throw new AppError(error instanceof TooManyPixelsError ? 413 : 400, error.message);
          throw error;
        });
      const key = `profiles/${createHash('sha256').update(avatar).digest('hex')}.webp`;
      await this.deps.storage.putBuffer(key, avatar, 'image/webp');
      const previous = await this.deps.users.replaceProfileImage(user.id, key, isoNow(this.deps.clock));
      if (previous && previous !== key && !(await this.deps.users.profileImageInUse(previous))) {
        await this.deps.storage.delete([previous]);
      }
      return key;
    } finally {
      await rm(received.tempPath, { force: true });
    }
  }
}
