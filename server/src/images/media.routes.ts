import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../shared/clock.js';
import type { LocalStorage } from '../storage/local-storage.js';
import { IMMUTABLE_CACHE_CONTROL } from '../storage/storage.js';
import type { UrlSigner } from '../storage/url-signer.js';

const contentTypes: Record<string, string> = {
  '.webp': 'image/webp',
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
};

/**
 * `GET /media/<key>?exp=&sig=`: local-storage files for `<img>` tags, which cannot send a bearer
 * token. Only a URL the server signed, and only until it expires (DECISIONS §4). Keys are
 * content-addressed, so the answer may be cached for a year and revalidated by ETag.
 */
export function registerMediaRoutes(app: FastifyInstance, storage: LocalStorage, signer: UrlSigner, clock: Clock): void {
  app.get<{ Params: { '*': string }; Querystring: { exp?: string; sig?: string } }>(
    '/media/*',
    { schema: { hide: true } },
    async (request, reply) => {
      const key = request.params['*'];
      const exp = Number(request.query.exp);
      const sig = request.query.sig ?? '';
      const nowSeconds = Math.floor(clock.now().getTime() / 1000);
      if (!signer.verify(key, exp, sig, nowSeconds)) {
        return reply.code(404).send({ message: 'This image link is not valid or has expired.', msg: 'Not found.' });
      }
      const file = storage.pathFor(key);
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) return reply.code(404).send({ message: 'Image not found', msg: 'Not found.' });
      const etag = `"${key.replace(/[^a-z0-9]/gi, '')}"`;
      reply
        .header('cache-control', IMMUTABLE_CACHE_CONTROL)
        .header('etag', etag)
        .header('content-type', contentTypes[path.extname(key)] ?? 'application/octet-stream')
        // The CSP and sniffing guards of the API also hold for media.
        .header('x-content-type-options', 'nosniff');
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      reply.header('content-length', info.size);
      return reply.send(createReadStream(file));
    },
  );
}
