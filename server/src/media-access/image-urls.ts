import { isLinkViewer, type Viewer } from '../access/viewer.js';
import type { UrlSigner } from '../storage/url-signer.js';

/** `trash`: the thumbnail of an image in the Trash, as its Trash page shows it (trash/); no other URL serves it. */
export const VARIANTS = ['thumb', 'display', 'trash'] as const;
export type Variant = (typeof VARIANTS)[number];

/**
 * The viewer as it travels in a URL: `u<userId>`, or `l<accessRecordId>.<linkStamp>` for a share-all
 * link page (the stamp names which of the record's links handed the URL out: access/viewer.ts).
 */
export type ViewerRef = { kind: 'user'; id: number } | { kind: 'link'; id: number; stamp: string };

export function viewerTag(viewer: Viewer): string {
  return isLinkViewer(viewer) ? `l${viewer.linkRecordId}.${viewer.linkStamp}` : `u${viewer.id}`;
}

export function parseViewerTag(tag: string): ViewerRef | undefined {
  const person = /^u(\d{1,15})$/.exec(tag);
  if (person) return { kind: 'user', id: Number(person[1]) };
  const link = /^l(\d{1,15})\.([0-9a-f]{16})$/.exec(tag);
  return link ? { kind: 'link', id: Number(link[1]), stamp: link[2] as string } : undefined;
}

/**
 * Photo URLs bound to one image, one variant and one viewer:
 * `/media/i/<imageId>/<thumb|display>?v=<viewer>&exp=<unix seconds>&sig=<HMAC>`. The signature
 * proves the server handed this URL to that viewer; it does not grant access by itself: every
 * request asks again whether the viewer may still see the image (media-access.service.ts), so a
 * revoked share or a deleted image stops loading at once, wherever the URL was copied to.
 */
export class ImageUrls {
  constructor(private readonly signer: UrlSigner) {}

  url(imageId: number, variant: Variant, tag: string, expiresAtSeconds: number): string {
    const sig = this.signer.sign(subject(imageId, variant, tag), expiresAtSeconds);
    // Joined, not templated: V8 builds a template of this length as a tree of string pieces (and the
    // signature as a slice of a longer one), and presenters keep hundreds of thousands of these URLs
    // (image-presenter.ts): a tree costs ~4× the flat text a join makes.
    return ['/media/i/', imageId, '/', variant, '?v=', tag, '&exp=', expiresAtSeconds, '&sig=', sig].join('');
  }

  verify(imageId: number, variant: Variant, tag: string, expiresAtSeconds: number, signature: string, nowSeconds: number): boolean {
    return this.signer.verify(subject(imageId, variant, tag), expiresAtSeconds, signature, nowSeconds);
  }
}

const subject = (imageId: number, variant: Variant, tag: string) => `${imageId}/${variant}/${tag}`;
