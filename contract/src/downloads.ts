import { z } from 'zod';
import { defineCall } from './call.js';
import { id, idParams, messageResponse } from './common.js';

/** Most images in one zip: "a zip of 10,000 photos" (the usual list bound is 1,000). */
export const MAX_ZIP_IMAGES = 10_000;

/**
 * A browser cannot send a bearer token with a plain link, so a download is two steps: the web app
 * asks with its token (these POSTs) and gets a short-lived URL bound to the person and the exact
 * images, then navigates to it. The URL is checked against the access layer again when used.
 */
export const downloadTicket = z.object({
  /** Absolute path on this server: `/downloads/<token>`; works without a token for a few minutes. */
  url: z.string(),
  fileName: z.string(),
  expiresAt: z.string(),
});

/** What a download GET answers: the file's bytes (documented; not JSON). */
const fileBytes = z.string().describe('The file: the original as uploaded, or a ZIP (ZIP64) of originals');

export const createOriginalDownload = defineCall({
  method: 'POST', path: '/api/downloads/original', tag: 'downloads', access: 'user',
  summary: 'A short-lived URL to download one image\'s original file, as uploaded (404 if the caller may not see it)',
  body: z.object({ id }),
  response: downloadTicket,
});

export const createZipDownload = defineCall({
  method: 'POST', path: '/api/downloads/zip', tag: 'downloads', access: 'user',
  summary: `A short-lived URL to download a ZIP of the originals of up to ${MAX_ZIP_IMAGES} images (404 naming an image the caller may not see)`,
  body: z.object({ ids: z.array(id).min(1).max(MAX_ZIP_IMAGES) }),
  response: downloadTicket,
});

export const download = defineCall({
  method: 'GET', path: '/downloads/:ticket', tag: 'downloads', access: 'public',
  summary: 'The file behind a download URL (attachment; the ZIP is streamed as it is built). 404 once expired or when access was lost',
  params: z.object({ ticket: z.string().min(1).max(128) }),
  response: fileBytes,
});

export const linkDownloads = defineCall({
  method: 'GET', path: '/shared-images/:link/downloads', tag: 'downloads', access: 'public',
  summary: 'Whether the share-all link\'s page may download (the owner can switch it off)',
  params: z.object({ link: z.string().min(1).max(128) }),
  response: z.object({ allowDownloads: z.boolean() }),
});

export const linkDownloadAll = defineCall({
  method: 'GET', path: '/shared-images/:link/download', tag: 'downloads', access: 'public',
  summary: 'A ZIP of every image the share-all link shows (404 when the link is inactive or downloads are off)',
  params: z.object({ link: z.string().min(1).max(128) }),
  response: fileBytes,
});

export const linkDownloadOriginal = defineCall({
  method: 'GET', path: '/shared-images/:link/download/:id', tag: 'downloads', access: 'public',
  summary: 'One original through a share-all link (404 when the link is inactive or downloads are off)',
  params: z.object({ link: z.string().min(1).max(128), id }),
  response: fileBytes,
});

export const getDownloadSettings = defineCall({
  method: 'GET', path: '/api/access-records/downloads', tag: 'downloads', access: 'user',
  summary: 'For each of the caller\'s all-access records: whether its link may download',
  response: z.object({ records: z.array(z.object({ _id: id, allowDownloads: z.boolean() })) }),
});

export const setAllowDownloads = defineCall({
  method: 'PUT', path: '/api/access-records/:id/downloads', tag: 'downloads', access: 'user',
  summary: 'Switch downloads on or off for one of the caller\'s all-access links',
  params: idParams,
  body: z.object({ allow: z.boolean() }),
  response: messageResponse,
});
