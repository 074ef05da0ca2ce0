import type { AccessType } from '@photo/contract';
import type { Kysely } from 'kysely';
import { mayShareAll, mayShareSelectively } from '../access/image-visibility.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { LimitRule, Throttle } from '../auth/throttle.js';
import type { DB } from '../db/schema.js';
import { badRequest, notFound } from '../http/errors.js';
import { bumpLibraryVersion } from '../read-caches/library-version.js';
import type { ImagesRepository } from '../images/images.repository.js';
import { type Clock, isoNow } from '../shared/clock.js';
import type { AccessKind, AccessRecordsRepository } from './access-records.repository.js';
import { ShareLinks, shareLinkUrls } from './share-links.js';
import { MAX_ACCESS_RECORDS } from './shared-views.service.js';
import type { ShareNotice, ShareNotifier } from './share-notifier.js';
import type { AddressProofsService } from '../addresses/address-proofs.service.js';
import type { UsersRepository } from '../auth/users.repository.js';

export interface SharingServiceDeps {
  db: Kysely<DB>;
  records: AccessRecordsRepository;
  images: ImagesRepository;
  links: ShareLinks;
  notifier: ShareNotifier;
  throttle: Throttle;
  clock: Clock;
  publicUrl: string;
  users: UsersRepository;
  addresses: AddressProofsService;
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

  /**
   * Everything, for each address (admins only); answers the first address's public link. Each grant
   * makes a new link, so sharing again never revives one that was switched off.
   */
  async shareAll(user: AuthUser, emails: readonly string[]): Promise<{ link: string }> {
    if (!mayShareAll(user)) throw notFound();
    const { db, records, clock } = this.deps;
    const recipients = this.recipients(user, emails);
    await this.countMails(user, recipients);
    const now = isoNow(clock);
    const confirmed = await this.deps.users.confirmedAmong(recipients);
    const granted = await db.transaction().execute(async (trx) => {
      const out: { link: string; notice: ShareNotice }[] = [];
      for (const email of recipients) {
        const link = this.newLink();
        await records.grant(trx, { ownerId: user.id, kind: 'all', email, now, linkSalt: link.salt, linkHash: link.hash });
        out.push({ link: link.url, notice: await this.allAccessNotice(trx, email, link.url, confirmed) });
      }
      await bumpLibraryVersion(trx, 'reset');
      return out;
    });
    const count = await records.countReady();
    await this.deps.notifier.notify(user, granted.map(({ notice }) => ({ ...notice, count })));
    return { link: granted[0]?.link ?? '' };
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
    const confirmed = await this.deps.users.confirmedAmong(recipients);
    const notices = await db.transaction().execute(async (trx) => {
      const out: ShareNotice[] = [];
      for (const email of recipients) {
        await records.forgetImagesIfInactive(trx, user.id, email);
        const record = await records.grant(trx, { ownerId: user.id, kind: 'restricted', email, now });
        await records.addImages(trx, record.id, numeric, now);
        // An address not yet proven gets a link that proves it (decision 0006); others go straight in.
        const link = confirmed.has(email)
          ? shareLinkUrls.restricted(publicUrl)
          : this.deps.addresses.confirmUrl(await this.deps.addresses.issue(trx, email, 'share', '/sharedMedia'));
        out.push({ to: email, link, count: numeric.length });
      }
      await bumpLibraryVersion(trx, 'reset');
      return out;
    });
    await this.deps.notifier.notify(user, notices);
    const what = numeric.length === 1 ? '1 image' : `${numeric.length} images`;
    const whom = recipients.length === 1 ? recipients[0] : `${recipients.length} people`;
    return { message: `Shared ${what} with ${whom}.` };
  }

  /**
   * Spec §4 access status; only the record's owner may switch it (anyone else: 404). An all-access
   * record switched back on gets a new link, mailed to its recipient: the old link stays dead.
   */
  async updateStatus(user: AuthUser, id: string, status: boolean, type: AccessType): Promise<{ message: string }> {
    const { db, records, clock } = this.deps;
    const recordId = parseId(id);
    const record = recordId === undefined ? undefined : await records.ownedRecord(user.id, recordId, kindOf[type]);
    if (!record) throw notFound('Access record not found.');
    const relink = record.kind === 'all' && status && record.active !== 1;
    if (relink) await this.countMails(user, [record.receiver_email]);
    const confirmed = relink ? await this.deps.users.confirmedAmong([record.receiver_email]) : new Set<string>();
    const outcome = await db.transaction().execute(async (trx) => {
      if (!(await records.setActive(trx, user.id, record.id, record.kind, status, isoNow(clock)))) return { found: false as const };
      let notice: ShareNotice | undefined;
      if (relink) {
        const link = this.newLink();
        await records.replaceLink(trx, record.id, link.salt, link.hash);
        notice = await this.allAccessNotice(trx, record.receiver_email, link.url, confirmed);
      }
      await bumpLibraryVersion(trx, 'reset');
      return { found: true as const, notice };
    });
    if (!outcome.found) throw notFound('Access record not found.');
    if (outcome.notice) await this.deps.notifier.notify(user, [{ ...outcome.notice, count: await records.countReady() }]);
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

  /** A fresh all-access link: a random salt, the token derived from it, the hash the database keeps. */
  private newLink(): { salt: string; hash: string; url: string } {
    const salt = this.deps.links.newSalt();
    const token = this.deps.links.tokenFor(salt);
    return { salt, hash: ShareLinks.hash(token), url: shareLinkUrls.allAccess(this.deps.publicUrl, token) };
  }

  /**
   * The mail for an all-access recipient: the public link, plus a proof of the address
   * (`?confirm=`) when no confirmed account holds it yet. The sharer is only ever shown the bare link.
   */
  private async allAccessNotice(trx: Kysely<DB>, email: string, url: string, confirmed: ReadonlySet<string>): Promise<ShareNotice> {
    if (confirmed.has(email)) return { to: email, link: url, count: 0 };
    const proof = await this.deps.addresses.issue(trx, email, 'share', '/');
    return { to: email, link: `${url}?confirm=${proof}`, count: 0 };
  }

  /** Counts the mails a share is about to send; over the limit it is refused before anything is written. */
  private async countMails(user: AuthUser, recipients: readonly string[]): Promise<void> {
    for (let i = 0; i < recipients.length; i += 1) await this.deps.throttle.consume(shareMailLimit, String(user.id));
  }
}

export function parseId(id: string): number | undefined {
  return /^\d{1,15}$/.test(id) ? Number(id) : undefined;
}
