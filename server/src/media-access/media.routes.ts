import type { FastifyInstance } from 'fastify';
import { type Clock, unixNow } from '../shared/clock.js';
import { IMMUTABLE_CACHE_CONTROL, type MediaStorage } from '../storage/storage.js';
import type { UrlSigner } from '../storage/url-signer.js';
import { VARIANTS, type Variant } from './image-urls.js';
import type { MediaAccessService } from './media-access.service.js';
import { notFoundReply, sendStored } from './send-stored.js';

/**
 * Photos: the browser may keep its copy but must ask again before each use (a 304 with no body when
 * unchanged), so a viewer who lost access never sees the photo again, not even from their own
 * cache, while everyone else re-downloads nothing. `private`: shared caches never keep them.
 */
export const PHOTO_CACHE_CONTROL = 'private, no-cache';

/** Only profile pictures are served by storage key; photos only through viewer-bound URLs. */
const PROFILE_KEY = /^profiles\/[0-9a-f]{64}\.webp$/;

/**
 * The media `<img>` tags load; they cannot send a bearer token, so each URL carries a signature
 * and an expiry (DECISIONS §4). Both storages are streamed through the app.
 */
export function registerMediaRoutes(
  app: FastifyInstance,
  deps: { access: MediaAccessService; storage: MediaStorage; profileSigner: UrlSigner; clock: Clock },
): void {
  app.get<{ Params: { imageId: string; variant: string }; Querystring: Record<string, unknown> }>(
    '/media/i/:imageId/:variant',
    { schema: { hide: true } },
    async (request, reply) => {
      const { imageId, variant } = request.params;
      if (!/^\d{1,15}$/.test(imageId) || !isVariant(variant)) return notFoundReply(reply);
      const key = await deps.access.keyFor({
        imageId: Number(imageId),
        variant,
        viewerTag: text(request.query['v']),
        exp: Number(text(request.query['exp'])),
        sig: text(request.query['sig']),
      });
      if (key === null) return notFoundReply(reply);
      return sendStored(request, reply, deps.storage, key, PHOTO_CACHE_CONTROL);
    },
  );

  // Profile pictures are not shared photos: anyone holding the signed URL may load it until it
  // expires, and its content-addressed key lets browsers keep it for a year.
  app.get<{ Params: { '*': string }; Querystring: Record<string, unknown> }>(
    '/media/*',
    { schema: { hide: true } },
    async (request, reply) => {
      const key = request.params['*'];
      const exp = Number(text(request.query['exp']));
      const valid = PROFILE_KEY.test(key) && deps.profileSigner.verify(key, exp, text(request.query['sig']), unixNow(deps.clock));
      if (!valid) return notFoundReply(reply);
      return sendStored(request, reply, deps.storage, key, IMMUTABLE_CACHE_CONTROL);
    },
  );
}

/** A query parameter given once, or '' (missing, or repeated: `?sig=a&sig=b` arrives as an array). */
function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function isVariant(value: string): value is Variant {
  return (VARIANTS as readonly string[]).includes(value);
}
