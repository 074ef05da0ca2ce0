import { type Cipher, createCipheriv, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
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

/** One image's URLs for `urlsJsonPieces`: which of its files exist yet. */
export interface UrlsOf {
  imageId: number;
  display: boolean;
  thumb: boolean;
}

const BLOCK = 16;
/** Viewers' ciphers kept (a few hundred bytes of native state each). */
const MAX_CIPHERS = 1_000;
/** A 16-byte MAC in base64url, unpadded. */
const SIGNATURE_CHARS = 22;
const EMPTY = Buffer.alloc(0);
const QUOTE = 0x22;
const URL_START = Buffer.from('"/media/i/', 'latin1');
const NULL = Buffer.from('null', 'latin1');
const THUMB_KEY = Buffer.from(',"thumbnailURL":', 'latin1');
const BASE64URL = Buffer.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_', 'latin1');

const VARIANT_CODE: Record<Variant, number> = { thumb: 1, display: 2, trash: 3 };
/** Fills the rest of each block: these blocks mean nothing but a photo URL (any other use of the key would differ here). */
const DOMAIN = Buffer.from('photo-u', 'latin1');

/** Writes the 16 bytes at `from` in base64url without padding (22 characters) at `at`; the index after. */
function writeBase64url(source: Buffer, from: number, out: Buffer, at: number): number {
  let i = from;
  const end = from + BLOCK;
  // Five groups of three bytes, four characters each, then the sixteenth byte as two characters.
  for (; i + 3 <= end; i += 3) {
    const n = ((source[i] as number) << 16) | ((source[i + 1] as number) << 8) | (source[i + 2] as number);
    out[at++] = BASE64URL[(n >>> 18) & 63] as number;
    out[at++] = BASE64URL[(n >>> 12) & 63] as number;
    out[at++] = BASE64URL[(n >>> 6) & 63] as number;
    out[at++] = BASE64URL[n & 63] as number;
  }
  const last = source[i] as number;
  out[at++] = BASE64URL[last >>> 2] as number;
  out[at++] = BASE64URL[(last & 3) << 4] as number;
  return at;
}

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
  /** Per viewer and expiry (cipherFor), oldest dropped first. */
  private readonly ciphers = new Map<string, Cipher>();

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

  /**
   * The two URLs of each image for one viewer as they stand in its JSON — `"<display>","thumbnailURL":"<thumb>"`,
   * `null` for a file not made yet — written straight into one Buffer (views of it, in order; the
   * same text as `urls()` gives, quoted): one MAC call for them all, no string made per URL.
   *
   * Why: the presenter keeps each viewer's pieces, but under issue 13's crowd, 20 viewers × 10,000
   * images meant ~60,000 URLs signed a second in the crowd's first seconds while those caches
   * filled, each a joined string and its own `Buffer.from` (decision 0037).
   */
  urlsJsonPieces(images: readonly UrlsOf[], tag: string, expiresAtSeconds: number): Buffer[] {
    const requests: UrlRequest[] = [];
    for (const { imageId, display, thumb } of images) {
      if (display) requests.push({ imageId, variant: 'display' });
      if (thumb) requests.push({ imageId, variant: 'thumb' });
    }
    const macs = requests.length > 0 ? this.macs(requests, tag, expiresAtSeconds) : EMPTY;
    // Each URL: `"/media/i/`, its id, then `/<variant>?v=…&exp=…&sig=` (the same for every image of
    // the call), its signature and `"`; `null` for a file not made yet.
    const query = `?v=${tag}&exp=${expiresAtSeconds}&sig=`;
    const displayTail = Buffer.from(`/display${query}`, 'latin1');
    const thumbTail = Buffer.from(`/thumb${query}`, 'latin1');
    const ids = new Array<string>(images.length);
    let length = 0;
    for (let index = 0; index < images.length; index += 1) {
      const { imageId, display, thumb } = images[index] as UrlsOf;
      const id = String(imageId);
      ids[index] = id;
      const url = URL_START.length + id.length + SIGNATURE_CHARS + 1;
      length += (display ? url + displayTail.length : NULL.length) + THUMB_KEY.length + (thumb ? url + thumbTail.length : NULL.length);
    }
    const out = Buffer.allocUnsafe(length);
    // One loop with its position in a local. Written through closures, as before, every byte went
    // through their shared context: a page's 100 URLs took 81–94 µs against 48–62 µs now, the same
    // bytes (side by side on a busy 2-core VM; the MACs alone ~17 µs; decision 0040).
    let at = 0;
    let mac = 0;
    const pieces = new Array<Buffer>(images.length);
    for (let index = 0; index < images.length; index += 1) {
      const { display, thumb } = images[index] as UrlsOf;
      const id = ids[index] as string;
      const start = at;
      for (let second = 0; second < 2; second += 1) {
        if (second === 1) {
          out.set(THUMB_KEY, at);
          at += THUMB_KEY.length;
        }
        if (!(second === 0 ? display : thumb)) {
          out.set(NULL, at);
          at += NULL.length;
          continue;
        }
        out.set(URL_START, at);
        at += URL_START.length;
        for (let i = 0; i < id.length; i += 1) out[at++] = id.charCodeAt(i);
        const tail = second === 0 ? displayTail : thumbTail;
        out.set(tail, at);
        at += tail.length;
        at = writeBase64url(macs, mac * BLOCK, out, at);
        mac += 1;
        out[at++] = QUOTE;
      }
      pieces[index] = out.subarray(start, at);
    }
    return pieces;
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
    const blocks = Buffer.allocUnsafe(requests.length * BLOCK);
    for (let index = 0; index < requests.length; index += 1) {
      const { imageId, variant } = requests[index] as UrlRequest;
      const at = index * BLOCK;
      // Ids are safe integers (< 2^53): high and low 32 bits.
      blocks.writeUInt32BE(Math.floor(imageId / 0x1_0000_0000), at);
      blocks.writeUInt32BE(imageId >>> 0, at + 4);
      blocks[at + 8] = VARIANT_CODE[variant];
      for (let i = 0; i < DOMAIN.length; i += 1) blocks[at + 9 + i] = DOMAIN[i] as number;
    }
    return this.cipherFor(tag, expiresAtSeconds).update(blocks);
  }

  /**
   * The AES key of a viewer and expiry, derived with HMAC, as a cipher kept for the next page of the
   * same viewer (ECB holds no state between blocks, and no final block is ever asked for: every
   * input is whole blocks). Deriving it and making the cipher was most of a page's signing.
   */
  private cipherFor(tag: string, expiresAtSeconds: number): Cipher {
    const name = `${tag}\n${expiresAtSeconds}`;
    let cipher = this.ciphers.get(name);
    if (!cipher) {
      const viewerKey = createHmac('sha256', this.key).update(name).digest().subarray(0, 16);
      cipher = createCipheriv('aes-128-ecb', viewerKey, null).setAutoPadding(false);
      if (this.ciphers.size >= MAX_CIPHERS) this.ciphers.delete(this.ciphers.keys().next().value as string);
      this.ciphers.set(name, cipher);
    }
    return cipher;
  }
}
