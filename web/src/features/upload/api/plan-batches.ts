/**
 * Files go up in batches, one request after another, rather than in one request:
 * - a file is only reported done when the server has kept (or refused) it, not when its bytes left;
 * - a dropped connection or a server error costs one batch, not the whole selection;
 * - no single request holds gigabytes (the server takes at most 1000 files per request).
 */
export const MAX_FILES_PER_BATCH = 20;
export const MAX_BYTES_PER_BATCH = 50 * 1024 * 1024;

type Limits = { maxFiles: number; maxBytes: number };

/** Consecutive groups of file indexes, each within both limits (a larger file goes alone). */
export function planBatches(sizes: readonly number[], { maxFiles, maxBytes }: Limits = { maxFiles: MAX_FILES_PER_BATCH, maxBytes: MAX_BYTES_PER_BATCH }): number[][] {
  const batches: number[][] = [];
  let current: number[] = [];
  let bytes = 0;
  sizes.forEach((size, index) => {
    if (current.length > 0 && (current.length >= maxFiles || bytes + size > maxBytes)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(index);
    bytes += size;
  });
  if (current.length > 0) batches.push(current);
  return batches;
}
