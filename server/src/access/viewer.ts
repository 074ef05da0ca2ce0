import type { AuthUser } from '../auth/auth-user.js';

/** The public share-all link page (`GET /shared-images/:link`), known by its access record. */
export interface LinkViewer {
  linkRecordId: number;
  /**
   * Which of the record's links this is (linkStamp below): a record switched off and shared again
   * gets a new link, and the photo URLs the old link's page handed out must not load again with it.
   */
  linkStamp: string;
}

/** A link's stamp: the start of its hash (the token's SHA-256, as stored); the token stays secret. */
export function linkStamp(linkHash: string): string {
  return linkHash.slice(0, 16);
}

/**
 * Whom images are presented to: a signed-in person (callers pass their AuthUser) or a share-all
 * link page. Image URLs are bound to the viewer (media-access/), and what an answer may show
 * depends on it (location, below; `liked`).
 */
export type Viewer = Pick<AuthUser, 'id' | 'role'> | LinkViewer;

export function isLinkViewer(viewer: Viewer): viewer is LinkViewer {
  return 'linkRecordId' in viewer;
}

/**
 * Where a photo was taken (GPS) tells where someone lives or was: only the person who uploaded it
 * and admins see it. Recipients of a share and link pages get camera and date, never the position.
 */
export function maySeeLocation(viewer: Viewer, image: { uploaded_by: number }): boolean {
  if (isLinkViewer(viewer)) return false;
  return viewer.role === 'admin' || viewer.id === image.uploaded_by;
}
