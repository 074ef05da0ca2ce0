import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { UploadOutcome } from '@photo/contract';
import type { AuthUser } from '../auth/auth-user.js';
import type { Clock } from '../shared/clock.js';
import type { MediaRepository } from '../images/media.repository.js';
import { TooManyPixelsError, UnreadableImageError } from '../image-processing/image-errors.js';
import type { MediaProcessor } from '../image-processing/media-processor.js';
import type { ReceivedFile } from './receive-file.js';
import { cutAtCodePoint, withoutLoneSurrogates } from './whole-characters.js';

/** Why a file was refused, kept apart so the response status can follow the kind of refusal. */
export type RefusalKind = 'not-an-image' | 'too-large' | 'unreadable';

export type IngestOutcome = UploadOutcome & { refusal?: RefusalKind };

/**
 * Takes one received upload to its outcome (DECISIONS §4): refused (with the reason), a duplicate
 * of what this person already uploaded, or kept — stored once per distinct content, with its
 * derived images made before the outcome is reported.
 */
export class IngestService {
  constructor(
    private readonly deps: {
      media: MediaRepository;
      processor: MediaProcessor;
      clock: Clock;
    },
  ) {}

  /** `lastModified`: the file's last-modified time as the client sent it (ms since 1970), if it did. */
  async ingest(user: AuthUser, rawName: string, file: ReceivedFile, client: { lastModified?: string | undefined } = {}): Promise<IngestOutcome> {
    const fileName = cleanFileName(rawName);
    try {
      return await this.decide(user, fileName, file, fileModifiedAt(client.lastModified, this.deps.clock.now()));
    } finally {
      await rm(file.tempPath, { force: true });
    }
  }

  private async decide(user: AuthUser, fileName: string, file: ReceivedFile, fileModifiedAt: string | null): Promise<IngestOutcome> {
    const { media, processor, clock } = this.deps;
    const refuse = (reason: string, refusal: RefusalKind): IngestOutcome => ({ fileName, status: 'refused', reason, refusal });

    const type = await processor.sniff(file.head);
    if ('refused' in type) return refuse(type.refused, 'not-an-image');

    const link = async (row: Parameters<MediaRepository['linkImage']>[0]['media']) =>
      media.linkImage({ media: row, userId: user.id, fileName, imageName: imageNameOf(fileName), now: clock.now().toISOString(), fileModifiedAt });

    const answer = (linked: { imageId: number; created: boolean }): IngestOutcome => ({
      fileName,
      status: linked.created ? 'kept' : 'duplicate',
      imageId: String(linked.imageId),
    });

    // Content already stored (or being stored, or being removed) is settled first: the answer comes
    // once the image can be seen. A row that goes meanwhile (deleted, or given up by a process that
    // could not read it) sends this upload round again, to store its own copy afresh.
    let size;
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const known = await media.findByHash(file.sha256);
      if (known) {
        const linked = await link(known);
        if (!linked) {
          await processor.awaitGone(known);
          continue;
        }
        const settled = await processor.settle(known, file.tempPath, type.decoder);
        if (settled.state === 'ready') return answer(linked);
        if (settled.state === 'refused') return refuse(settled.reason, 'unreadable');
        if (settled.state === 'deleted') return refuse(DELETED_WHILE_PROCESSING, 'unreadable');
        continue;
      }

      try {
        size ??= await processor.probe(file.tempPath, type.decoder);
      } catch (error) {
        if (error instanceof UnreadableImageError) {
          return refuse(error.message, error instanceof TooManyPixelsError ? 'too-large' : 'unreadable');
        }
        throw error;
      }

      const { row, created } = await processor.createPending({
        contentHash: file.sha256,
        mime: type.mime,
        bytes: file.bytes,
        originalKey: `originals/${file.sha256}`,
        width: size.width,
        height: size.height,
        now: clock.now().toISOString(),
      });
      // Another upload of the same content created the row first: settled like any known row.
      if (!created) continue;
      const linked = await link(row);
      if (!linked) throw new Error(`media ${row.id} vanished before its first image was linked`);
      const result = await processor.process(row, file.tempPath, type.decoder, size).catch(async (error: unknown) => {
        // Storage or database trouble: this upload is refused ("try again"), so nothing of it may stay behind.
        await processor.forget(row);
        throw error;
      });
      if (result.state === 'ready') return answer(linked);
      return refuse(result.state === 'refused' ? result.reason : DELETED_WHILE_PROCESSING, 'unreadable');
    }
    return refuse('The upload was interrupted by deletions of the same picture; please upload it again.', 'unreadable');
  }
}

const DELETED_WHILE_PROCESSING = 'The image was deleted while it was being processed.';

/**
 * The client's `lastModified` (File.lastModified: ms since 1970) as ISO, the timeline's date for a
 * photo without one of its own (decision 0009). Anything else — not a number, 0 (no date known),
 * later than a day from now (a wrong clock) — is ignored: the upload time stands in.
 */
export function fileModifiedAt(lastModified: string | undefined, now: Date): string | null {
  if (lastModified === undefined || !/^\d{1,16}(\.\d+)?$/.test(lastModified.trim())) return null;
  const ms = Math.round(Number(lastModified));
  if (ms <= 0 || ms > now.getTime() + 86_400_000) return null;
  return new Date(ms).toISOString();
}

/**
 * The name as shown to people: no folders, no control characters, at most 255 UTF-16 units, cut
 * between characters (whole-characters.ts: half an emoji is not text a database can store).
 */
export function cleanFileName(raw: string): string {
  // eslint-disable-next-line no-control-regex
  const name = path.basename(withoutLoneSurrogates(raw).replace(/\\/g, '/')).replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return cutAtCodePoint(name || 'image', 255);
}

/** The spec's imageName: the file name without its extension. */
export function imageNameOf(fileName: string): string {
  const ext = path.extname(fileName);
  return (ext && ext.length < fileName.length ? fileName.slice(0, -ext.length) : fileName) || fileName;
}
