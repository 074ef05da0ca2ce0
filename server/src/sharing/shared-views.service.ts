import type { Image } from '@photo/contract';
import { provenAddress } from '../access/image-visibility.js';
import { linkStamp } from '../access/viewer.js';
import type { AuthUser } from '../auth/auth-user.js';
import { notFound } from '../http/errors.js';
import type { ImagePresenter, Viewer } from '../images/image-presenter.js';
import type { ImagesRepository } from '../images/images.repository.js';
import type { AccessRecordsRepository, ReceivedRecord } from './access-records.repository.js';
import { ShareLinks } from './share-links.js';

/** Lists are bounded: a folder or a shared page shows at most this many images, newest first. */
export const MAX_SHARED_LIST = 500;

/** Most access records one person's lists show (the mail limit allows 300 new ones an hour). */
export const MAX_ACCESS_RECORDS = 5000;

export const LINK_INACTIVE = 'This link is no longer active.';
export const LINK_UNKNOWN = 'This share link does not exist. Check that it was copied whole.';

interface Sharer {
  ownerId: number;
  name: string;
  allAccess: boolean;
  restrictedIds: number[];
}

/** What was shared, seen from either side, and the public all-access page. */
export class SharedViewsService {
  constructor(
    private readonly deps: { records: AccessRecordsRepository; images: ImagesRepository; presenter: ImagePresenter },
  ) {}

  /** GET /shared-images/:link: every image while the all-access record behind the link is active. */
  async byLink(link: string): Promise<{ success: boolean; images: Image[]; message: string }> {
    const linkHash = ShareLinks.hash(link);
    const record = await this.deps.records.findByLinkHash(linkHash);
    if (!record) throw notFound(LINK_UNKNOWN);
    if (record.active !== 1) throw notFound(LINK_INACTIVE);
    // URLs bound to this link of this record: they stop loading the moment it is switched off, and
    // do not load again when it is shared anew (with a new link).
    const images = await this.present(await this.deps.records.newestReady(MAX_SHARED_LIST), { linkRecordId: record.id, linkStamp: linkStamp(linkHash) });
    return { success: true, images, message: images.length === 0 ? 'Nothing has been added to the library yet.' : `${images.length} images shared with you.` };
  }

  /** GET /shared-images: the images others shared with the caller (newest first, bounded). */
  async sharedWithCaller(user: AuthUser): Promise<{ images: Image[]; message: string }> {
    const ids = await this.receivedIds(await this.sharers(user));
    const images = await this.present(ids, user);
    return { images, message: images.length === 0 ? 'No images have been shared with you yet.' : `${images.length} images shared with you.` };
  }

  /** GET /sharedWithMe: one folder per person sharing with the caller, plus the shared images. */
  async sharedWithMe(user: AuthUser) {
    const sharers = await this.sharers(user);
    const sharedBy = await Promise.all(
      sharers.map(async (sharer) => {
        const [total, ids] = sharer.allAccess
          ? await Promise.all([this.deps.records.countReady(), this.deps.records.newestReady(MAX_SHARED_LIST)])
          : await Promise.all([this.deps.records.countImagesOf(sharer.restrictedIds), this.deps.records.imageIdsOf(sharer.restrictedIds, MAX_SHARED_LIST)]);
        const images = await this.present(ids, user);
        return {
          sharedByUserName: sharer.name,
          totalImagesShared: total,
          images: images.map((image) => ({ imageId: image._id, imageName: image.imageName, imageThumbnail: image.thumbnailURL, tags: image.tags })),
        };
      }),
    );
    return {
      hasAccess: sharers.length > 0,
      data: { sharedBy },
      userAccessData: await this.present(await this.receivedIds(sharers), user),
    };
  }

  /** GET /api/users-i-shared-with: each person the caller shared with and how many images they get. */
  async usersISharedWith(user: AuthUser) {
    const owned = await this.deps.records.ownedBy(user.id, MAX_ACCESS_RECORDS);
    const counts = await this.deps.records.restrictedCountsOf(user.id);
    const library = owned.some((r) => r.kind === 'all') ? await this.deps.records.countReady() : 0;
    const byEmail = new Map<string, number>();
    for (const record of owned) {
      const count = record.kind === 'all' ? library : (counts.get(record.receiver_email) ?? 0);
      byEmail.set(record.receiver_email, Math.max(byEmail.get(record.receiver_email) ?? 0, count));
    }
    const sharedUsers = [...byEmail].map(([sharedWith, countImages]) => ({ sharedWith, countImages }));
    return { sharedUsers, count: sharedUsers.length };
  }

  /** POST /api/shared-with-user: what the caller shared with one address (404 if nothing). */
  async sharedWithUser(user: AuthUser, userName: string) {
    const email = userName.trim().toLowerCase();
    const records = await this.deps.records.ownedFor(user.id, email);
    if (records.length === 0) throw notFound(`You have not shared anything with ${userName}.`);
    const allAccess = records.some((r) => r.kind === 'all');
    const restrictedIds = records.filter((r) => r.kind === 'restricted').map((r) => r.id);
    const [count, ids] = allAccess
      ? await Promise.all([this.deps.records.countReady(), this.deps.records.newestReady(MAX_SHARED_LIST)])
      : await Promise.all([this.deps.records.countImagesOf(restrictedIds), this.deps.records.imageIdsOf(restrictedIds, MAX_SHARED_LIST)]);
    return {
      images: await this.present(ids, user),
      count,
      accessType: allAccess ? ('allAccess' as const) : ('restrictedAccess' as const),
      userEmail: email,
      sharedByName: user.username,
    };
  }

  /**
   * People with an active record for the caller's e-mail, one entry per person (their all-access
   * and restricted records merged). Two sharers with the same name are told apart by a number.
   */
  private async sharers(user: AuthUser): Promise<Sharer[]> {
    const byOwner = new Map<number, Sharer>();
    // Shares reach an account only once it has proven its address (decision 0006).
    const address = provenAddress(user);
    if (address === null) return [];
    for (const record of await this.deps.records.activeFor(address)) {
      if (record.owner_id === user.id) continue;
      const sharer = byOwner.get(record.owner_id) ?? { ownerId: record.owner_id, name: record.owner_username, allAccess: false, restrictedIds: [] };
      addRecord(sharer, record);
      byOwner.set(record.owner_id, sharer);
    }
    const sharers = [...byOwner.values()];
    const seen = new Map<string, number>();
    for (const sharer of sharers) {
      const times = (seen.get(sharer.name) ?? 0) + 1;
      seen.set(sharer.name, times);
      if (times > 1) sharer.name = `${sharer.name} (${times})`;
    }
    return sharers;
  }

  /** Newest-first ids over everything shared with the caller (bounded). */
  private async receivedIds(sharers: readonly Sharer[]): Promise<number[]> {
    if (sharers.some((s) => s.allAccess)) return this.deps.records.newestReady(MAX_SHARED_LIST);
    return this.deps.records.imageIdsOf(sharers.flatMap((s) => s.restrictedIds), MAX_SHARED_LIST);
  }

  /** On the public link page (a link viewer) nobody's own `liked` is shown. */
  private async present(ids: readonly number[], viewer: Viewer): Promise<Image[]> {
    return this.deps.presenter.presentIds(ids, viewer);
  }
}

function addRecord(sharer: Sharer, record: ReceivedRecord): void {
  if (record.kind === 'all') sharer.allAccess = true;
  else sharer.restrictedIds.push(record.id);
}
