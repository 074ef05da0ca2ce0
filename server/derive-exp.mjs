import sharp from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';
import { deriveImages } from '/work/main/server/dist/images/processing/derive.js';
const files = ['Kodak PIXPRO FZ201.jpg', 'Oppo R7 Plus.jpg', 'canon-eos-5d-mark-iii-22mp.jpg'].map((f) => '/work/shared/testdata/images/large/' + f);
sharp.cache(false);
const webp = { quality: 80, effort: 2 };
const inside = { fit: 'inside', withoutEnlargement: true };
async function th(img) {
  const { data, info } = await img.resize(100, 100, { fit: 'inside' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return Buffer.from(rgbaToThumbHash(info.width, info.height, data)).toString('base64');
}
const variants = {
  reference: (f) => Promise.all([
    sharp(f).rotate().resize(1920, 1920, inside).webp(webp).toBuffer(),
    sharp(f).rotate().resize(400, 400, inside).webp(webp).toBuffer()]),
  current: (f) => deriveImages(f, 'sharp'),
  thumbFromFile: async (f) => {
    const [display, small] = await Promise.all([sharp(f, { sequentialRead: true }).rotate().resize(1920, 1920, inside).webp(webp).toBuffer({ resolveWithObject: true }),
      sharp(f, { sequentialRead: true }).rotate().resize(400, 400, inside).raw().toBuffer({ resolveWithObject: true })]);
    const raw = { raw: { width: small.info.width, height: small.info.height, channels: small.info.channels } };
    return Promise.all([sharp(small.data, raw).webp(webp).toBuffer(), th(sharp(small.data, raw))]);
  },
  decodeOnceRaw: async (f) => {
    const big = await sharp(f, { sequentialRead: true }).rotate().resize(1920, 1920, inside).raw().toBuffer({ resolveWithObject: true });
    const rawBig = { raw: { width: big.info.width, height: big.info.height, channels: big.info.channels } };
    const [display, small] = await Promise.all([sharp(big.data, rawBig).webp(webp).toBuffer(), sharp(big.data, rawBig).resize(400, 400, inside).raw().toBuffer({ resolveWithObject: true })]);
    const raw = { raw: { width: small.info.width, height: small.info.height, channels: small.info.channels } };
    return Promise.all([sharp(small.data, raw).webp(webp).toBuffer(), th(sharp(small.data, raw))]);
  },
};
const only = process.argv[2]?.split(',');
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const res = {};
for (let round = 0; round < 8; round++) for (const [name, fn] of Object.entries(variants)) {
  if (only && !only.includes(name)) continue;
  for (const f of files) await fn(f);
  const N = 3; const c0 = cpu(); const t0 = performance.now();
  for (let i = 0; i < N; i++) { await Promise.all([fn(files[0]), fn(files[1])]); await Promise.all([fn(files[2]), fn(files[0])]); await Promise.all([fn(files[1]), fn(files[2])]); }
  (res[name] ??= []).push(`${((cpu() - c0) / N / 6).toFixed(0)}/${((performance.now() - t0) / N / 6).toFixed(0)}`);
}
console.log('cpu ms per image / wall ms per image (2 in flight)');
for (const [k, v] of Object.entries(res)) console.log(k.padEnd(16), v.join('  '));
