import { copyFile, link, rm } from 'node:fs/promises';

/**
 * Errors of link(2) that mean "not here" rather than "broken": another file system (DATA_DIR/tmp or
 * DATA_DIR/tus mounted apart), one that has no hard links, or a file with too many.
 */
const CANNOT_LINK = new Set(['EXDEV', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK', 'ENOSYS']);

/**
 * Gives `from` a second name `to` (a hard link: no bytes written), or copies it where a link cannot
 * be made. For files nobody writes again once handed over (a received upload is only read, then
 * removed), so the two names may share their bytes. Like copyFile, an existing `to` is replaced.
 */
export function linkOrCopy(from: string, to: string): Promise<void> {
  return linkOrCopyOnce(from, to, true);
}

async function linkOrCopyOnce(from: string, to: string, replacing: boolean): Promise<void> {
  try {
    await link(from, to);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    // Once: a name that is back at once is someone else's, and their error is the answer.
    if (code === 'EEXIST' && replacing) {
      await rm(to, { force: true });
      return linkOrCopyOnce(from, to, false);
    }
    if (!CANNOT_LINK.has(code)) throw error;
    await copyFile(from, to);
  }
}
