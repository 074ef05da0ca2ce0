import type { ImageWithMedia } from '../images/images.repository.js';
import { keyToIso } from '../timeline/taken-key.js';
import { type CardFacts, NO_FACTS } from './image-cards.js';
import { keepOn, type Kept } from '../shared/kept-on.js';
import type { JsonBytes } from '../shared/json-bytes.js';

/**
 * An image as the contract's JSON text (`image`, keys in the schema's order, UTF-8), copied from
 * pieces kept with its card: what the row shows (kept per row object), what its tags and likes show (per
 * facts object), and only the viewer's own parts — URLs, location, `liked` — made per request.
 * Cards change by being replaced, never in place (image-cards.ts), so a piece kept for a card
 * object is that card's for good.
 *
 * Why: under a crowd (issue 13's soak), presenting 50 images as objects, checking them against the
 * contract with zod and stringifying them was a good part of every page, and the objects were most
 * of the garbage the collector then spent a fifth of the server's time on. The text built here is
 * the same text (server/test/card-json.test.ts compares it with the zod-checked answer).
 *
 * The pieces are kept as UTF-8 bytes, not text: an answer is then one copy of its pieces into one
 * Buffer, which the socket sends as it is. Joining text pieces made a string the socket then encoded
 * again, and for a search's 500 images (~300 KB) joining and encoding took ~0.5 ms against ~0.08 ms
 * for the copy (issue 13's soak: searches were a fifth of the server's time; decision 0032).
 */
export interface ViewerParts {
  /** Signed URLs (URL-safe text: nothing to escape), null while the derived file is missing. */
  display: string | null;
  thumb: string | null;
  /** The viewer may see where the photo was taken (access/viewer.ts: maySeeLocation). */
  location: boolean;
  liked: boolean;
}

interface RowParts {
  /** `{"_id":…,"imageName":…,"FileName":…,"trimmedURL":` */
  head: Buffer;
  /** `,"placeholder":…,"camera":…,"gps":null` */
  middle: Buffer;
  /** The same with the position, `…,"gps":{"latitude":…,"longitude":…}` (the same bytes when the photo has none). */
  middleWithPosition: Buffer;
  /** `,"uploadedBy":…,"createdAt":…}` */
  tail: Buffer;
}

/** What a facts object shows, for a viewer who likes the image and for one who does not. */
interface FactsParts {
  /** `,"tags":…,"allTags":…,"customTags":…,"likes":…,"liked":true` */
  liked: Buffer;
  /** `…,"liked":false` */
  notLiked: Buffer;
}

/** Kept on each row and facts object (shared/kept-on.ts: not in WeakMaps, which slowed every full collection). */
const ROW_PARTS: unique symbol = Symbol('JSON pieces of the row');
const FACTS_PARTS: unique symbol = Symbol('JSON pieces of the facts');

const text = JSON.stringify;

function partsOf(row: ImageWithMedia): RowParts {
  return (row as Kept<ImageWithMedia, typeof ROW_PARTS, RowParts>)[ROW_PARTS] ?? keepOn(row, ROW_PARTS, makeRowParts(row));
}

function makeRowParts(row: ImageWithMedia): RowParts {
  // Joined, not templated (templates leave trees of string pieces), then kept as UTF-8 bytes.
  const middle = [
    ',"placeholder":', text(row.placeholder), ',"width":', text(row.media_width), ',"height":', text(row.media_height),
    ',"takenAt":', text(row.taken_at), ',"sortedAt":', text(keyToIso(row.taken_key)), ',"dateSource":', text(row.date_source),
    ',"camera":', text(row.camera), ',"gps":',
  ].join('');
  const hasPosition = row.gps_latitude !== null && row.gps_longitude !== null;
  const [head, withoutPosition, tail, withPosition] = keptBytes(
    ['{"_id":', text(String(row.id)), ',"imageName":', text(row.image_name), ',"FileName":', text(row.file_name), ',"trimmedURL":'].join(''),
    `${middle}null`,
    [',"uploadedBy":', text(String(row.uploaded_by)), ',"createdAt":', text(row.created_at), '}'].join(''),
    ...(hasPosition ? [[middle, '{"latitude":', text(row.gps_latitude), ',"longitude":', text(row.gps_longitude), '}'].join('')] : []),
  ) as [Buffer, Buffer, Buffer, Buffer | undefined];
  return { head, middle: withoutPosition, middleWithPosition: withPosition ?? withoutPosition, tail };
}

function makeFactsParts(facts: CardFacts): FactsParts {
  const tags = text(facts.tags);
  const shown = [',"tags":', tags, ',"allTags":', tags, ',"customTags":', text(facts.customTags), ',"likes":', facts.likers.length, ',"liked":'].join('');
  const [liked, notLiked] = keptBytes(`${shown}true`, `${shown}false`) as [Buffer, Buffer];
  return { liked, notLiked };
}

/**
 * The UTF-8 bytes of a kept object's pieces, in one Buffer of their own (views of it, in order).
 * Not from Node's shared 8 KB pool, as `Buffer.from` takes small ones: a pooled piece gives its
 * bytes back only with its whole slab, so a card's facts, replaced with every like or tag, could be
 * held by whatever long-lived piece shared their slab. Here they go with their object.
 */
function keptBytes(...texts: string[]): Buffer[] {
  const lengths = texts.map((piece) => Buffer.byteLength(piece));
  const all = Buffer.allocUnsafeSlow(lengths.reduce((sum, n) => sum + n, 0));
  let at = 0;
  return texts.map((piece, index) => {
    const length = lengths[index] as number;
    all.write(piece, at, length, 'utf8');
    const view = all.subarray(at, at + length);
    at += length;
    return view;
  });
}

/** The facts of images nobody tagged or liked are one frozen object: its pieces are made once. */
const NO_FACTS_PARTS = makeFactsParts(NO_FACTS);

function factsParts(facts: CardFacts): FactsParts {
  if (facts === NO_FACTS) return NO_FACTS_PARTS;
  return (facts as Kept<CardFacts, typeof FACTS_PARTS, FactsParts>)[FACTS_PARTS] ?? keepOn(facts, FACTS_PARTS, makeFactsParts(facts));
}

/**
 * Makes and keeps the pieces of these cards now (what `appendCardJson` would make on their first
 * page): the read caches' warm-up does it before the server listens (read-caches/warm-at-start.ts).
 * Why: the warm-up's own requests reach ~3 of 4 cards of a 10,000-photo library within their
 * time, and issue 13's crowd made the rest on its first pages — ~2,600 cards' pieces in its
 * first two seconds, when every page already waited longest.
 */
export function prepareCardJson(rows: readonly ImageWithMedia[], facts: readonly CardFacts[]): void {
  for (const row of rows) partsOf(row);
  for (const card of facts) factsParts(card);
}

/**
 * Appends the five pieces of one image's JSON for one viewer to `out`, which the caller copies once
 * into the whole answer (a page's 50 images, a search's 500: JsonBytes): nothing is made per image,
 * and copying costs per piece, so each piece holds as much as can be kept whole — the row's parts
 * with and without the position, the facts' parts for a viewer who likes the image and one who does
 * not, the viewer's two URLs together (written for the page: media-access/image-urls.ts `urlsJsonPieces`).
 */
export function appendCardJson(out: JsonBytes, row: ImageWithMedia, facts: CardFacts, urls: Buffer, location: boolean, liked: boolean): void {
  const parts = partsOf(row);
  const shown = factsParts(facts);
  out.push5(parts.head, urls, location ? parts.middleWithPosition : parts.middle, liked ? shown.liked : shown.notLiked, parts.tail);
}
