import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import yauzl from 'yauzl';
import { expect, newPerson, signInAs, signUpByApi, test, testPhoto, uploadByApi } from './fixtures.js';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Every entry of the ZIP file at `file`, by name, read with yauzl. */
async function unzipFile(file: string): Promise<Map<string, Buffer>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true }, (err, opened) => (err ? reject(err) : resolve(opened))),
  );
  const entries = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) =>
      zip.openReadStream(entry, (err, stream) => {
        if (err) return reject(err);
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          entries.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      }),
    );
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  return entries;
}

const png = (r: number) => sharp({ create: { width: 40, height: 30, channels: 3, background: { r, g: 90, b: 160 } } }).png().toBuffer();

test('downloads an original from the detail and a zip of a selection, byte for byte', async ({ page, app }) => {
  const token = await signUpByApi(app, newPerson('dl'));
  const photoPath = testPhoto('camera/Canon PowerShot A85.jpg');
  const photo = await readFile(photoPath);
  // Two different pictures with the same name (the zip must keep both); never the same colour twice.
  const red = Math.floor(Math.random() * 128);
  const pngs = [await png(red), await png(red + 128)];
  const uploaded = await uploadByApi(app.url, token, [
    { name: 'Canon A85.jpg', source: photoPath },
    { name: 'same.png', source: pngs[0]! },
    { name: 'same.png', source: pngs[1]! },
  ]);
  expect(uploaded.map((u) => u.status)).toEqual(['kept', 'kept', 'kept']);
  await signInAs(page, token);

  // The original, from the detail.
  await page.goto(`/image/${uploaded[0]!.imageId}`);
  const panel = page.getByRole('complementary', { name: 'Image actions' });
  const [original] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Download original' }).click()]);
  expect(original.suggestedFilename()).toBe('Canon A85.jpg');
  expect(sha256(await readFile(await original.path()))).toBe(sha256(photo));

  // A zip of a selection, from the gallery.
  await page.goto('/');
  const gallery = page.getByRole('list', { name: 'Gallery' });
  await expect(gallery.getByRole('listitem')).toHaveCount(3);
  for (const box of await gallery.getByRole('checkbox').all()) await box.check();
  const toolbar = page.getByRole('toolbar', { name: 'Gallery actions' });
  await expect(toolbar.getByText('3 selected')).toBeVisible();
  const [zip] = await Promise.all([page.waitForEvent('download'), toolbar.getByRole('button', { name: 'Download as zip' }).click()]);
  expect(zip.suggestedFilename()).toMatch(/^photos-\d{4}-\d{2}-\d{2}\.zip$/);
  const entries = await unzipFile(await zip.path());
  expect([...entries.keys()].sort()).toEqual(['Canon A85.jpg', 'same (2).png', 'same.png']);
  expect(sha256(entries.get('Canon A85.jpg')!)).toBe(sha256(photo));
  const pngHashes = [sha256(entries.get('same.png')!), sha256(entries.get('same (2).png')!)].sort();
  expect(pngHashes).toEqual(pngs.map(sha256).sort());
});
