import { createHash, randomBytes } from 'node:crypto';
import { MAX_ZIP_IMAGES } from '@photo/contract';
import { maySeeLocation } from '../access/viewer.js';
import { toAuthUser, type AuthUser } from '../auth/auth-user.js';
import { notFound } from '../http/errors.js';
import type { ImagesRepository } from '../images/images.repository.js';
import { type Clock, isoNow } from '../shared/clock.js';
import { LINK_INACTIVE, LINK_UNKNOWN } from '../sharing/shared-views.service.js';
import { ShareLinks } from '../sharing/share-links.js';
import type { DownloadsRepository, OriginalFile } from './downloads.repository.js';
import { safeFileName, zipName } from './file-names.js';

/** A download URL works this long: the web app navigates to it at once. */
export const TICKET_TTL_MS = 5 * 60_000;

/**
 * What to send: one original, or a zip of several (named). `keepsLocation`: whether a file goes
 * with its position (access/viewer.ts maySeeLocation: its uploader and admins), or without it
 * (location/without-location.ts).
 */
export type Download = ({ kind: 'original'; file: OriginalFile; fileName: string } | { kind: 'zip'; files: OriginalFile[]; fileName: string }) & {
  keepsLocation: (file: OriginalFile) => boolean;
};

/** A share-all link is no person: its downloads never carry a position. */
const NEVER = () => false;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Who may download what. A person downloads only images `onlyVisible` lets them see (through
 * `ImagesRepository.findVisible` / `visibleAmong`), asked when the URL is made AND again when it is
 * used, so a share switched off in between stops the download. A share-all link downloads what its
 * page shows, while its record is active and its owner allows downloads.
 */
export class DownloadsService {
  constructor(private readonly deps: { downloads: DownloadsRepository; images: ImagesRepository; clock: Clock }) {}

  async ticketForOriginal(user: AuthUser, id: string) {
    const [file] = await this.visibleOriginals(user, [id]);
    return this.issue(user, 'original', [file!.id], safeFileName(file!.file_name, `image-${file!.id}`));
  }

  async ticketForZip(user: AuthUser, ids: readonly string[]) {
    const files = await this.visibleOriginals(user, ids);
    return this.issue(user, 'zip', files.map((f) => f.id), zipName(this.deps.clock.now()));
  }

  /** The download behind a URL's token, checked against the access layer as it stands now. */
  async redeem(token: string): Promise<Download> {
    const ticket = await this.deps.downloads.ticket(hashOf(token), isoNow(this.deps.clock));
    if (!ticket) throw notFound('This download link is not valid or has expired.');
    const account = await this.deps.downloads.account(ticket.user_id);
    if (!account) throw notFound('This download link is not valid or has expired.');
    const ids = (JSON.parse(ticket.image_ids) as number[]).map(String);
    const user = toAuthUser(account);
    const files = await this.visibleOriginals(user, ids);
    const keepsLocation = (file: OriginalFile) => maySeeLocation(user, file);
    return ticket.kind === 'original'
      ? { kind: 'original', file: files[0]!, fileName: ticket.file_name, keepsLocation }
      : { kind: 'zip', files, fileName: ticket.file_name, keepsLocation };
  }

  async linkAllowsDownloads(link: string): Promise<boolean> {
    const record = await this.deps.downloads.linkRecord(ShareLinks.hash(link));
    if (!record) throw notFound(LINK_UNKNOWN);
    if (record.active !== 1) throw notFound(LINK_INACTIVE);
    return record.allow_downloads === 1;
  }

  /** Through a share-all link: one original, or (no id) every image the page shows. */
  async byLink(link: string, id?: string): Promise<Download> {
    if (!(await this.linkAllowsDownloads(link))) throw notFound('Downloads are switched off for this link.');
    if (id === undefined) {
      const files = await this.deps.downloads.originals(await this.deps.downloads.newestReady(MAX_ZIP_IMAGES));
      return { kind: 'zip', files, fileName: zipName(this.deps.clock.now()), keepsLocation: NEVER };
    }
    const imageId = toImageId(id);
    const [file] = imageId === null ? [] : await this.deps.downloads.originals([imageId]);
    if (!file) throw notFound(`Image ${id} was not found.`);
    return { kind: 'original', file, fileName: safeFileName(file.file_name, `image-${file.id}`), keepsLocation: NEVER };
  }

  async settings(user: AuthUser) {
    const records = await this.deps.downloads.allAccessOf(user.id);
    return { records: records.map((r) => ({ _id: String(r.id), allowDownloads: r.allow_downloads === 1 })) };
  }

  async setAllowDownloads(user: AuthUser, id: string, allow: boolean) {
    const recordId = toImageId(id);
    const done = recordId !== null && (await this.deps.downloads.setAllowDownloads(user.id, recordId, allow, isoNow(this.deps.clock)));
    if (!done) throw notFound('There is no such share-all link of yours.');
    return { message: allow ? 'Downloads are on for this link.' : 'Downloads are off for this link.' };
  }

  /** The originals of `ids` (duplicates once), or 404 naming the first the person may not see. */
  private async visibleOriginals(user: AuthUser, ids: readonly string[]): Promise<OriginalFile[]> {
    const unique = [...new Set(ids)];
    const numeric = unique.map(toImageId);
    const bad = unique.find((_, i) => numeric[i] === null);
    if (bad !== undefined) throw notFound(`Image ${bad} was not found.`);
    const wanted = numeric as number[];
    const visible = new Set((await this.deps.images.visibleAmong(user, wanted)).map((row) => row.id));
    const files = await this.deps.downloads.originals(wanted.filter((id) => visible.has(id)));
    const found = new Set(files.map((f) => f.id));
    const missing = wanted.find((id) => !found.has(id));
    if (missing !== undefined) throw notFound(`Image ${missing} was not found.`);
    return files;
  }

  private async issue(user: AuthUser, kind: 'original' | 'zip', ids: number[], fileName: string) {
    const token = randomBytes(32).toString('base64url');
    const now = this.deps.clock.now();
    const expiresAt = new Date(now.getTime() + TICKET_TTL_MS).toISOString();
    // Expired tickets go as new ones are made (one indexed delete), so the table stays small.
    await this.deps.downloads.deleteExpiredBefore(now.toISOString());
    await this.deps.downloads.addTicket({
      token_hash: hashOf(token), user_id: user.id, kind, image_ids: JSON.stringify(ids), file_name: fileName, created_at: now.toISOString(), expires_at: expiresAt,
    });
    return { url: `/downloads/${token}`, fileName, expiresAt };
  }
}

function toImageId(id: string): number | null {
  return /^\d{1,15}$/.test(id) ? Number(id) : null;
}
