import type { ImageWithMedia } from '../images/images.repository.js';
import { keyToIso } from '../timeline/taken-key.js';
import { type CardFacts, NO_FACTS } from './image-cards.js';
import { keepOn, type Kept } from '../shared/kept-on.js';

/**
 * An image as the contract's JSON text (`image`, keys in the schema's order), joined from pieces
 * kept with its card: what the row shows (kept per row object), what its tags and likes show (per
 * facts object), and only the viewer's own parts — URLs, location, `liked` — made per request.
 * Cards change by being replaced, never in place (image-cards.ts), so a piece kept for a card
 * object is that card's for good.
 *
 * Why: under a crowd (issue 13's soak), presenting 50 images as objects, checking them against the
 * contract with zod and stringifying them was a good part of every page, and the objects were most
 * of the garbage the collector then spent a fifth of the server's time on. The text built here is
 * the same text (server/test/card-json.test.ts compares it with the zod-checked answer).
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
  head: string;
  /** `,"placeholder":…,"camera":…,"gps":` */
  middle: string;
  /** `{"latitude":…,"longitude":…}`, or `null` when the photo has no position. */
  gps: string;
  /** `,"uploadedBy":…,"createdAt":…}` */
  tail: string;
}

/** Kept on each row and facts object (shared/kept-on.ts: not in WeakMaps, which slowed every full collection). */
const ROW_PARTS: unique symbol = Symbol('JSON pieces of the row');
/** `,"tags":…,"allTags":…,"customTags":…,"likes":…,"liked":` */
const FACTS_PART: unique symbol = Symbol('JSON piece of the facts');

const text = JSON.stringify;

function partsOf(row: ImageWithMedia): RowParts {
  return (row as Kept<ImageWithMedia, typeof ROW_PARTS, RowParts>)[ROW_PARTS] ?? keepOn(row, ROW_PARTS, makeRowParts(row));
}

function makeRowParts(row: ImageWithMedia): RowParts {
  // Joined, not templated: templates leave trees of string pieces, ~4× the flat text, and these are kept.
  return {
    head: ['{"_id":', text(String(row.id)), ',"imageName":', text(row.image_name), ',"FileName":', text(row.file_name), ',"trimmedURL":'].join(''),
    middle: [
      ',"placeholder":', text(row.placeholder), ',"width":', text(row.media_width), ',"height":', text(row.media_height),
      ',"takenAt":', text(row.taken_at), ',"sortedAt":', text(keyToIso(row.taken_key)), ',"dateSource":', text(row.date_source),
      ',"camera":', text(row.camera), ',"gps":',
    ].join(''),
    gps:
      row.gps_latitude !== null && row.gps_longitude !== null
        ? ['{"latitude":', text(row.gps_latitude), ',"longitude":', text(row.gps_longitude), '}'].join('')
        : 'null',
    tail: [',"uploadedBy":', text(String(row.uploaded_by)), ',"createdAt":', text(row.created_at), '}'].join(''),
  };
}

function makeFactsPart(facts: CardFacts): string {
  const tags = text(facts.tags);
  return [',"tags":', tags, ',"allTags":', tags, ',"customTags":', text(facts.customTags), ',"likes":', facts.likers.length, ',"liked":'].join('');
}

/** The facts of images nobody tagged or liked are one frozen object: its piece is made once. */
const NO_FACTS_PART = makeFactsPart(NO_FACTS);

function factsPart(facts: CardFacts): string {
  if (facts === NO_FACTS) return NO_FACTS_PART;
  return (facts as Kept<CardFacts, typeof FACTS_PART, string>)[FACTS_PART] ?? keepOn(facts, FACTS_PART, makeFactsPart(facts));
}

/**
 * Appends the pieces of one image's JSON text for one viewer to `out`, which the caller joins once
 * for the whole answer (a page's 50 images, a search's 500): no string is made per image, and the
 * join copies each piece once (joining per image first made a tree of pieces per image, which
 * joining the answer then walked).
 */
export function appendCardJson(out: string[], row: ImageWithMedia, facts: CardFacts, viewer: ViewerParts): void {
  const parts = partsOf(row);
  out.push(parts.head);
  if (viewer.display === null) out.push('null');
  else out.push('"', viewer.display, '"');
  out.push(',"thumbnailURL":');
  if (viewer.thumb === null) out.push('null');
  else out.push('"', viewer.thumb, '"');
  out.push(parts.middle, viewer.location ? parts.gps : 'null', factsPart(facts), viewer.liked ? 'true' : 'false', parts.tail);
}

/** One image's JSON text for one viewer. */
export function cardJson(row: ImageWithMedia, facts: CardFacts, viewer: ViewerParts): string {
  const out: string[] = [];
  appendCardJson(out, row, facts, viewer);
  return out.join('');
}
