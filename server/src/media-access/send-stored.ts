import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MediaStorage } from '../storage/storage.js';

const contentTypes: Record<string, string> = {
  '.webp': 'image/webp',
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
};

/** Keys are content-addressed, so the key itself is a strong validator. */
export function etagOf(key: string): string {
  return `"${key.replace(/[^a-z0-9]/gi, '')}"`;
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value === etag || value === `W/${etag}`;
  });
}

export function notFoundReply(reply: FastifyReply, message = 'This image link is not valid or has expired.'): FastifyReply {
  return reply.code(404).header('cache-control', 'no-store').send({ message, msg: 'Not found.' });
}

/**
 * Streams a stored object (from disk or the bucket, never read whole into memory), or answers 304
 * when the browser's copy is current. Callers decide who may have it *before* calling this, so a
 * 304 is never an answer to someone who lost access.
 */
export async function sendStored(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: MediaStorage,
  key: string,
  cacheControl: string,
): Promise<FastifyReply> {
  const etag = etagOf(key);
  const headers = {
    'cache-control': cacheControl,
    etag,
    'content-type': contentTypes[path.extname(key)] ?? 'application/octet-stream',
    // The CSP and sniffing guards of the API also hold for media.
    'x-content-type-options': 'nosniff',
  };
  if (matches(request.headers['if-none-match'], etag)) return reply.code(304).headers(headers).send();
  const object = await storage.read(key);
  if (!object) return notFoundReply(reply, 'Image not found');
  reply.headers(headers);
  if (object.size !== undefined) reply.header('content-length', object.size);
  return reply.send(object.body);
}
