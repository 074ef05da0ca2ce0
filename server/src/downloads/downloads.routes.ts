import { type CallDef, calls } from '@photo/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { type Authenticate, registerCall } from '../http/route.js';
import type { MediaStorage } from '../storage/storage.js';
import type { Clock } from '../shared/clock.js';
import type { Download, DownloadsService } from './downloads.service.js';
import { attachmentHeader } from './file-names.js';
import { zipOfOriginals } from './zip-stream.js';
import { Originals } from './location/without-location.js';
import type { OriginalFile } from './downloads.repository.js';

/**
 * Downloads are two steps (decision in README "Downloads"): the web app asks with its token for a
 * short-lived URL (POST, JSON), then navigates to it (GET, no token), which streams the file.
 * Share-all links download with plain GETs: the link's token is the credential, and dies with it.
 */
export function registerDownloadRoutes(
  app: FastifyInstance,
  authenticate: Authenticate,
  deps: { downloads: DownloadsService; storage: MediaStorage; clock: Clock },
): void {
  const { downloads } = deps;
  registerCall(app, authenticate, calls.createOriginalDownload, ({ user, body }) => downloads.ticketForOriginal(user, body.id));
  registerCall(app, authenticate, calls.createZipDownload, ({ user, body }) => downloads.ticketForZip(user, body.ids));
  registerCall(app, authenticate, calls.linkDownloads, async ({ params }) => ({ allowDownloads: await downloads.linkAllowsDownloads(params.link) }));
  registerCall(app, authenticate, calls.getDownloadSettings, ({ user }) => downloads.settings(user));
  registerCall(app, authenticate, calls.setAllowDownloads, ({ user, params, body }) => downloads.setAllowDownloads(user, params.id, body.allow));

  const originals = new Originals(deps.storage);
  const send = (reply: FastifyReply, download: Download) => sendDownload(reply, originals, download, deps.clock.now());
  fileRoute<{ ticket: string }>(app, calls.download, async (params, reply) => send(reply, await downloads.redeem(params.ticket)));
  fileRoute<{ link: string }>(app, calls.linkDownloadAll, async (params, reply) => send(reply, await downloads.byLink(params.link)));
  fileRoute<{ link: string; id: string }>(app, calls.linkDownloadOriginal, async (params, reply) => send(reply, await downloads.byLink(params.link, params.id)));
}

/** A GET answering a file, documented from its contract call (the JSON route helper cannot stream). */
function fileRoute<P>(app: FastifyInstance, call: CallDef, handler: (params: P, reply: FastifyReply) => Promise<FastifyReply>): void {
  app.get<{ Params: P }>(
    call.path,
    { schema: { summary: call.summary, tags: [call.tag], produces: ['application/octet-stream', 'application/zip'] } },
    async (request, reply) => handler(request.params as P, reply),
  );
}

async function sendDownload(reply: FastifyReply, originals: Originals, download: Download, now: Date): Promise<FastifyReply> {
  reply.headers({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'content-disposition': attachmentHeader(download.fileName) });
  if (download.kind === 'original') {
    const object = await originals.open(download.file, download.keepsLocation(download.file));
    if (!object) return reply.code(404).send({ message: 'This file is missing from storage.', msg: 'Not found.' });
    reply.type(download.file.mime);
    if (object.size !== undefined) reply.header('content-length', object.size);
    logBreakOff(reply, object.body, 'a download broke off');
    return reply.send(object.body);
  }
  const open = async (file: OriginalFile) => (await originals.open(file, download.keepsLocation(file)))?.body ?? null;
  const zip = await zipOfOriginals(open, download.files, now);
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) zip.abort();
  });
  reply.type('application/zip');
  if (zip.size !== undefined) reply.header('content-length', zip.size);
  logBreakOff(reply, zip.stream, 'a zip download broke off');
  return reply.send(zip.stream);
}

/**
 * Once its headers are out, a download that fails (an original missing or cut short in storage)
 * can only end early; the request log is off (app.ts), so it is said here, once.
 */
function logBreakOff(reply: FastifyReply, stream: NodeJS.ReadableStream, what: string): void {
  stream.once('error', (err: Error) => {
    if (reply.raw.headersSent) reply.log.warn({ err }, what);
  });
}
