import { Transform } from 'node:stream';
import type { Patch } from './find-location.js';

/**
 * Passes a file's bytes through, with `patches` (sorted, non-overlapping) written over them as they
 * go by: the length never changes, so a zip entry's announced size still holds. Only a chunk a patch
 * touches is copied (never written in place: the store's stream may still hold it).
 */
export function patchedStream(patches: readonly Patch[]): Transform {
  let position = 0;
  let next = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const start = position;
      const end = start + chunk.length;
      position = end;
      while (next < patches.length && patches[next]!.offset + patches[next]!.bytes.length <= start) next += 1;
      let out = chunk;
      for (let i = next; i < patches.length && patches[i]!.offset < end; i += 1) {
        const patch = patches[i]!;
        if (out === chunk) out = Buffer.from(chunk);
        const from = Math.max(patch.offset, start);
        const to = Math.min(patch.offset + patch.bytes.length, end);
        patch.bytes.copy(out, from - start, from - patch.offset, to - patch.offset);
      }
      done(null, out);
    },
  });
}
