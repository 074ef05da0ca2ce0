import { createCipheriv, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { isLinkViewer, type Viewer } from '../access/viewer.js';

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

/** One photo URL to make: which image, which of its files. */
export interface UrlRequest {
  imageId: number;
  variant: Variant;
}

const BLOCK = 16;
const VARIANT_CODE: Record<Variant, number> = { thumb: 1, display: 2, trash: 3 };
/** Fills the rest of each block: these blocks mean nothing but a photo URL (any other use of the key would differ here). */
const DOMAIN = Buffer.from('photo-u', 'latin1');

/**
 * Photo URLs bound to one image, one variant and one viewer:
 * `/media/i/<imageId>/<thumb|display>?v=<viewer>&exp=<unix seconds>&sig=<MAC>`. The signature
 * proves the server handed this URL to that viewer; it does not grant access by itself: every
 * request asks again whether the viewer may still see the image (media-access.service.ts), so a
 * revoked share or a deleted image stops loading at once, wherever the URL was copied to.
 *
 * How a URL is signed (decision 0027): a key for the viewer and the expiry is derived with
 * HMAC-SHA256 from the server's URL key (the viewer and expiry are in it), and the image id and
 * variant — one 16-byte block — are encrypted with AES-128 under that key; the block is the
 * signature (base64url, 22 characters). AES is a pseudorandom permutation, so without the key
 * nobody can make the block of another image, variant, viewer or expiry. Why not HMAC per URL, as
 * before: a page shows 50 images, two URLs each, and one HMAC (~2–7 µs, most of it the crossing
 * into OpenSSL) per URL made signing the first look at every page the largest cost of a crowd's
 * first seconds (issue 13's soak: 400,000 URLs for 20 people, before the presenter's cache of
 * them fills). Here a page's hundred URLs cost one HMAC and one AES call over all their blocks
 * (~0.4 µs a URL).
 */
export class ImageUrls {
  private readonly key: Buffer;

  constructor(secret: string | Uint8Array, purpose = 'image-url-signing') {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'photo-library', purpose, 32));
  }

  url(imageId: number, variant: Variant, tag: string, expiresAtSeconds: number): string {
    return this.urls([{ imageId, variant }], tag, expiresAtSeconds)[0] as string;
  }

  /** The URLs of many images for one viewer and expiry, in the same order: one MAC call for them all. */
  urls(requests: readonly UrlRequest[], tag: string, expiresAtSeconds: number): string[] {
    if (requests.length === 0) return [];
    const macs = this.macs(requests, tag, expiresAtSeconds);
    const query = `?v=${tag}&exp=${expiresAtSeconds}&sig=`;
    return requests.map(({ imageId, variant }, index) =>
      // Joined, not templated: V8 keeps a template of this length as a tree of string pieces.
      ['/media/i/', imageId, '/', variant, query, macs.toString('base64url', index * BLOCK, (index + 1) * BLOCK)].join(''),
    );
  }

  verify(imageId: number, variant: Variant, tag: string, expiresAtSeconds: number, signature: string, nowSeconds: number): boolean {
    if (!Number.isSafeInteger(expiresAtSeconds) || expiresAtSeconds < nowSeconds) return false;
    if (!Number.isSafeInteger(imageId) || imageId < 0) return false;
    const given = Buffer.from(signature, 'base64url');
    // base64url decoding skips what is not base64url: compare the text too, so only the one spelling passes.
    if (given.length !== BLOCK || given.toString('base64url') !== signature) return false;
    return timingSafeEqual(given, this.macs([{ imageId, variant }], tag, expiresAtSeconds));
  }

  /** The 16-byte MAC of each request, one after another in one buffer. */
  private macs(requests: readonly UrlRequest[], tag: string, expiresAtSeconds: number): Buffer {
    const blocks = Buffer.alloc(requests.length * BLOCK);
    requests.forEach(({ imageId, variant }, index) => {
      const at = index * BLOCK;
      // Ids are safe integers (< 2^53): high and low 32 bits.
      blocks.writeUInt32BE(Math.floor(imageId / 0x1_0000_0000), at);
      blocks.writeUInt32BE(imageId >>> 0, at + 4);
      blocks[at + 8] = VARIANT_CODE[variant];
      DOMAIN.copy(blocks, at + 9);
    });
    const viewerKey = createHmac('sha256', this.key).update(`${tag}\n${expiresAtSeconds}`).digest().subarray(0, 16);
    const cipher = createCipheriv('aes-128-ecb', viewerKey, null).setAutoPadding(false);
    return Buffer.concat([cipher.update(blocks), cipher.final()]);
  }
}
