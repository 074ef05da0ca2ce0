import type { AccessType } from '@photo/contract';
import type { Kysely } from 'kysely';
import { mayShareAll, mayShareSelectively } from '../access/image-visibility.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { LimitRule, Throttle } from '../auth/throttle.js';
import type { DB } from '../db/schema.js';
import { badRequest, notFound } from '../http/errors.js';
import { bumpLibraryVersion } from '../images/library-version.js';
import type { ImagesRepository } from '../images/images.repository.js';
import { type Clock, isoNow } from '../shared/clock.js';
import type { AccessKind, AccessRecordsRepository } from './access-records.repository.js';
import { ShareLinks, shareLinkUrls } from './share-links.js';
import { MAX_ACCESS_RECORDS } from './shared-views.service.js';
import type { ShareNotice, ShareNotifier } from './share-notifier.js';

export interface SharingServiceDeps {
  db: Kysely<DB>;
  records: AccessRecordsRepository;
  images: ImagesRepository;
  links: ShareLinks;
  notifier: ShareNotifier;
  throttle: Throttle;
  clock: Clock;
  publicUrl: string;
}

/**
 * Share mail goes to any address with text the sharer wrote, so an account must not become a spam
 * relay: each recipient of a share counts, per sharer and hour, across processes (database-kept).
 */
export const shareMailLimit: LimitRule = {
  name: 'share-mail',
  max: 300,
  windowSeconds: 3600,
  message: 'Too many share e-mails from your account in the last hour. Please try again later.',
};

const kindOf: Record<AccessType, AccessKind> = { allAccess: 'all', restrictedAccess: 'restricted' };

/**
 * Granting and switching access (DECISIONS §3). Each change is one transaction that also bumps the
 * library version (a 'reset': what people see changed), and mail goes out only after it commits.
 */
export class SharingService {
  constructor(private readonly deps: SharingServiceDeps) {}

  /** Everything, for each address (admins only); answers the first address's public link. */
  async shareAll(user: AuthUser, emails: readonly string[]): Promise<{ link: string }> {
    if (!mayShareAll(user)) throw notFound();
    const { db, records, links, clock, publicUrl } = this.deps;
    const recipients = this.recipients(user, emails);
    await this.countMails(user, recipients);
    const now = isoNow(clock);
    const notices = await db.transaction().execute(async (trx) => {
      const granted: ShareNotice[] = [];
      for (const email of recipients) {
        const salt = links.newSalt();
        const record = await records.grant(trx, { ownerId: user.id, kind: 'all', email, now, linkSalt: salt, linkHash: ShareLinks.hash(links.tokenFor(salt)) });
        let token = links.tokenFor(record.link_salt ?? salt);
        // A link made under an earlier server secret cannot be given again: make a new one.
        if (ShareLinks.hash(token) !== record.link_hash) {
          token = links.tokenFor(salt);
          await records.replaceLink(trx, record.id, salt, ShareLinks.hash(token));
        }
        granted.push({ to: email, link: shareLinkUrls.allAccess(publicUrl, token), count: 0 });
      }
      await bumpLibraryVersion(trx, 'reset');
      return granted;
    });
    const count = await records.countReady();
    await this.deps.notifier.notify(user, notices.map((notice) => ({ ...notice, count })));
    return { link: notices[0]?.link ?? '' };
  }

  /**
   * The selected images, for each address. All or nothing: an id the sharer cannot see, or may not
   * share, is named in a 404 and nothing is written. Images already shared with a person stay as
   * they are (no duplicates).
   */
  async shareRestricted(user: AuthUser, imageIds: readonly string[], emails: readonly string[]): Promise<{ message: string }> {
    const { db, records, images, clock, publicUrl } = this.deps;
    const recipients = this.recipients(user, emails);
    const asked = [...new Set(imageIds)];
    const numeric = [...new Set(asked.map((id) => parseId(id) ?? -1))];
    const visible = new Map((await images.visibleAmong(user, numeric)).map((row) => [row.id, row]));
    for (const id of asked) {
      const image = visible.get(parseId(id) ?? -1);
      if (!image) throw notFound(`Image ${id} was not found, so nothing was shared.`);
      if (!mayShareSelectively(user, image)) {
        throw notFound(`Image ${id} can only be shared by the person who uploaded it, so nothing was shared.`);
      }
    }
    await this.countMails(user, recipients);
    const now = isoNow(clock);
    await db.transaction().execute(async (trx) => {
      for (const email of recipients) {
        const record = await records.grant(trx, { ownerId: user.id, kind: 'restricted', email, now });
        await records.addImages(trx, record.id, numeric, now);
      }
      await bumpLibraryVersion(trx, 'reset');
    });
    const link = shareLinkUrls.restricted(publicUrl);
    await this.deps.notifier.notify(user, recipients.map((to) => ({ to, link, count: numeric.length })));
    const what = numeric.length === 1 ? '1 image' : `${numeric.length} images`;
    const whom = recipients.length === 1 ? recipients[0] : `${recipients.length} people`;
    return { message: `Shared ${what} with ${whom}.` };
  }

  /** Spec §4 access status; only the record's owner may switch it (anyone else: 404). */
  async updateStatus(user: AuthUser, id: string, status: boolean, type: AccessType): Promise<{ message: string }> {
    const recordId = parseId(id);
    const changed =
      recordId !== undefined &&
      (await this.deps.db.transaction().execute(async (trx) => {
        const found = await this.deps.records.setActive(trx, user.id, recordId, kindOf[type], status, isoNow(this.deps.clock));
        if (found) await bumpLibraryVersion(trx, 'reset');
        return found;
      }));
    if (!changed) throw notFound('Access record not found.');
    return { message: status ? 'Access is active.' : 'Access is inactive.' };
  }

  async accessData(user: AuthUser) {
    const owned = await this.deps.records.ownedBy(user.id, MAX_ACCESS_RECORDS);
    const present = (kind: AccessKind) =>
      owned.filter((r) => r.kind === kind).map((r) => ({ _id: String(r.id), accessTo: r.receiver_email, status: r.active === 1 }));
    return { allAccessUserData: present('all'), restrictedAccessUserData: present('restricted') };
  }

  /** Distinct addresses (already trimmed and lower-cased by the contract), never the sharer's own. */
  private recipients(user: AuthUser, emails: readonly string[]): string[] {
    const unique = [...new Set(emails)];
    if (unique.includes(user.email)) throw badRequest('You already see your own images; share them with someone else.');
    return unique;
  }

  /** Counts the mails a share is about to send; over the limit it is refused before anything is written. */
  private async countMails(user: AuthUser, recipients: readonly string[]): Promise<void> {
    for (let i = 0; i < recipients.length; i += 1) await this.deps.throttle.consume(shareMailLimit, String(user.id));
  }
}

export function parseId(id: string): number | undefined {
  return /^\d{1,15}$/.test(id) ? Number(id) : undefined;
}
