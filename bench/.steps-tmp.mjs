import sharp from 'sharp';
sharp.concurrency(1); sharp.cache(false);
const f = process.argv[2];
const meta = await sharp(f).metadata();
const half = Math.ceil(meta.width / 2);
async function cpu(name, fn, n = 8) {
  await fn();
  const u0 = process.cpuUsage();
  for (let i = 0; i < n; i++) await fn();
  const u = process.cpuUsage(u0);
  console.log(name.padEnd(40), ((u.user + u.system) / n / 1000).toFixed(1), 'ms');
}
await cpu('decode shrink2 only (resize to half)', () => sharp(f, { sequentialRead: true }).resize(half).raw().toBuffer());
await cpu('raw step (rotate, 1920 inside)', () => sharp(f, { sequentialRead: true }).rotate().resize(1920, 1920, { fit: 'inside', withoutEnlargement: true }).raw().toBuffer());
await cpu('raw step no rotate', () => sharp(f, { sequentialRead: true }).resize(1920, 1920, { fit: 'inside', withoutEnlargement: true }).raw().toBuffer());
await cpu('raw step mitchell', () => sharp(f, { sequentialRead: true }).rotate().resize(1920, 1920, { fit: 'inside', withoutEnlargement: true, kernel: 'mitchell' }).raw().toBuffer());
await cpu('ref display (rotate,resize,webp)', () => sharp(f).rotate().resize(1920, 1920, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 80, effort: 2 }).toBuffer());
const raw = await sharp(f).rotate().resize(1920, 1920, { fit: 'inside', withoutEnlargement: true }).raw().toBuffer({ resolveWithObject: true });
const ri = { raw: { width: raw.info.width, height: raw.info.height, channels: raw.info.channels } };
await cpu('webp from raw', () => sharp(raw.data, ri).webp({ quality: 80, effort: 2 }).toBuffer());
await cpu('thumb from raw', () => sharp(raw.data, ri).resize(400, 400, { fit: 'inside' }).webp({ quality: 80, effort: 2 }).toBuffer());
await cpu('thumbhash input from raw', () => sharp(raw.data, ri).resize(48, 48, { fit: 'inside' }).ensureAlpha().raw().toBuffer());
