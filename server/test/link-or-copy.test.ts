import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkOrCopy } from '../src/shared/link-or-copy.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'link-or-copy-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('linkOrCopy', () => {
  it('links on the same file system, replacing a file already under the new name (as copyFile would)', async () => {
    const from = path.join(dir, 'from');
    const to = path.join(dir, 'to');
    await writeFile(from, 'the upload');
    await writeFile(to, 'something older');
    await linkOrCopy(from, to);
    expect(await readFile(to, 'utf8')).toBe('the upload');
    expect((await stat(to)).ino).toBe((await stat(from)).ino);
  });

  it('fails loudly when the file to link is missing', async () => {
    await expect(linkOrCopy(path.join(dir, 'missing'), path.join(dir, 'nowhere'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
