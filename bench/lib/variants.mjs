// Distinct copies of the test photos: the same JPEG bytes with unique bytes appended after the
// end-of-image marker, so every copy has its own content hash while decoding to the same pixels.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const TESTDATA_DIR = '/work/shared/testdata/images/large';

export function sourcePhotos(dir = TESTDATA_DIR) {
  if (!existsSync(dir)) throw new Error(`Test photos not found: ${dir}`);
  const files = readdirSync(dir)
    .filter((f) => /\.jpe?g$/i.test(f))
    .sort()
    .map((f) => path.join(dir, f));
  if (files.length === 0) throw new Error(`No JPEGs in ${dir}`);
  return files;
}

const cache = new Map();
function bytesOf(file) {
  if (!cache.has(file)) cache.set(file, readFileSync(file));
  return cache.get(file);
}

/**
 * Writes `count` distinct variants into `outDir`, cycling through `sources` (so the mix is kept).
 * Returns their paths. `tag` keeps names (and bytes) distinct between sets.
 */
export function writeVariants(sources, count, outDir, tag) {
  const salt = randomBytes(8).toString('hex');
  const files = [];
  for (let i = 0; i < count; i += 1) {
    const source = sources[i % sources.length];
    const stem = path.basename(source, path.extname(source)).replace(/[^A-Za-z0-9]+/g, '-');
    const file = path.join(outDir, `${tag}-${String(i).padStart(4, '0')}-${stem}.jpg`);
    const trailer = Buffer.from(`\nphoto-library-bench ${tag} ${i} ${salt}\n`);
    writeFileSync(file, Buffer.concat([bytesOf(source), trailer]));
    files.push(file);
  }
  return files;
}
