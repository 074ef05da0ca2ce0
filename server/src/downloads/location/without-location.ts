import type { Readable } from 'node:stream';
import type { MediaStorage } from '../../storage/storage.js';
import type { OriginalFile } from '../downloads.repository.js';
import { patchedStream } from './apply-patches.js';
import { locationPatches, type Patch } from './find-location.js';

/** Most originals whose patches are kept (a few small buffers each; keys never change). */
const MAX_KEPT = 5_000;

/**
 * Originals as they are downloaded. For their uploader and admins, the stored bytes untouched. For
 * anyone else (a share's recipient, a share-all link), the same bytes with the photo's position
 * blanked wherever the file holds it (EXIF GPS, XMP GPS: find-location.ts), the length unchanged:
 * a photo's location only ever reaches its uploader and admins (DECISIONS §3, decision 0006).
 * Where the position lies is found from a few small reads of the stored file, and kept per
 * original (content-addressed: its bytes never change), so a zip read again costs no reads.
 */
export class Originals {
  private readonly kept = new Map<string, readonly Patch[]>();

  constructor(private readonly storage: MediaStorage) {}

  /** The original's bytes, or null when it is missing from storage. */
  async open(file: OriginalFile, keepLocation: boolean): Promise<{ body: Readable; size: number | undefined } | null> {
    const patches = keepLocation ? [] : await this.patchesFor(file);
    if (patches === null) return null;
    const object = await this.storage.read(file.original_key);
    if (!object) return null;
    if (patches.length === 0) return object;
    const patched = patchedStream(patches);
    object.body.once('error', (error) => patched.destroy(error));
    patched.once('close', () => object.body.destroy());
    return { body: object.body.pipe(patched), size: object.size };
  }

  private async patchesFor(file: OriginalFile): Promise<readonly Patch[] | null> {
    const known = this.kept.get(file.original_key);
    if (known) return known;
    let missing = false;
    const patches = await locationPatches(
      {
        size: file.byte_size,
        read: async (offset, length) => {
          const bytes = await this.storage.readRange(file.original_key, offset, length);
          if (bytes === null) missing = true;
          return bytes ?? Buffer.alloc(0);
        },
      },
      file.mime,
    );
    if (missing) return null;
    if (this.kept.size >= MAX_KEPT) this.kept.delete(this.kept.keys().next().value as string);
    this.kept.set(file.original_key, patches);
    return patches;
  }
}
