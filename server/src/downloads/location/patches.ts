import { type Edit, MAX_READ } from './byte-window.js';
import type { Patch } from './find-location.js';

/** What a TIFF value is blanked with: a zero count, a zero offset, zero rationals read as nothing. */
export const ZERO = 0x00;
/** What XMP text is blanked with: whitespace keeps the packet well-formed and UTF-8. */
export const SPACE = 0x20;

/**
 * Blank patches all point into one shared, never-written buffer per fill byte, at most MAX_READ
 * long: blanking a huge payload costs many small patch records, never a huge allocation.
 */
const blanks = new Map<number, Buffer>();
function blankBytes(fill: number, length: number): Buffer {
  let buffer = blanks.get(fill);
  if (!buffer) {
    buffer = Buffer.alloc(MAX_READ, fill);
    blanks.set(fill, buffer);
  }
  return buffer.subarray(0, length);
}

/**
 * The edits as patches the server can apply while streaming: sorted, non-overlapping, inside the
 * file. Where edits overlap (only a hostile file nests one structure inside another), the one that
 * starts first keeps the bytes: either way the overlapping bytes end up blanked.
 */
export function toPatches(edits: readonly Edit[], fileSize: number): Patch[] {
  const sorted = edits
    .filter((edit) => Number.isSafeInteger(edit.offset) && edit.offset >= 0 && edit.offset < fileSize)
    .sort((a, b) => a.offset - b.offset);
  const patches: Patch[] = [];
  let end = 0;
  for (const edit of sorted) {
    const editEnd = Math.min(edit.offset + ('fill' in edit ? edit.length : edit.bytes.length), fileSize);
    const start = Math.max(edit.offset, end);
    if (editEnd <= start) continue;
    if ('bytes' in edit) {
      patches.push({ offset: start, bytes: edit.bytes.subarray(start - edit.offset, editEnd - edit.offset) });
    } else {
      for (let at = start; at < editEnd; at += MAX_READ) {
        patches.push({ offset: at, bytes: blankBytes(edit.fill, Math.min(MAX_READ, editEnd - at)) });
      }
    }
    end = editEnd;
  }
  return patches;
}

/** `bytes`, read from the file at `offset`, as they are once `edits` are applied (a copy if any touch them). */
export function withEdits(bytes: Buffer, offset: number, edits: readonly Edit[]): Buffer {
  let out = bytes;
  for (const edit of edits) {
    const length = 'fill' in edit ? edit.length : edit.bytes.length;
    const from = Math.max(edit.offset, offset);
    const to = Math.min(edit.offset + length, offset + bytes.length);
    if (from >= to) continue;
    if (out === bytes) out = Buffer.from(bytes);
    if ('fill' in edit) out.fill(edit.fill, from - offset, to - offset);
    else edit.bytes.copy(out, from - offset, from - edit.offset, to - edit.offset);
  }
  return out;
}
