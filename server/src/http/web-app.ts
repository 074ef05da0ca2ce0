import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

let indexHtml: string | undefined;

/** True for a browser navigation: the request asks for HTML ahead of JSON. */
export function prefersHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  const html = accept.indexOf('text/html');
  if (html === -1) return false;
  const json = accept.indexOf('application/json');
  return json === -1 || html < json;
}

export function sendWebApp(reply: FastifyReply): FastifyReply {
  if (indexHtml === undefined) {
    return reply.code(503).send({
      message: 'The web app has not been built. Run `npm start` (or `npm run build`) and reload.',
      msg: 'The web app has not been built.',
    });
  }
  // index.html names the hashed bundles of the current build: never cache it.
  return reply.code(200).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml);
}

/**
 * Serves the built web app from the same origin as the API (DECISIONS §2): hashed assets with a
 * year-long immutable cache, and index.html for every other GET that prefers HTML, so client-side
 * routes such as /photos-i'm-in load on refresh.
 */
export async function registerWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  const indexFile = path.join(webDist, 'index.html');
  indexHtml = existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : undefined;
  if (indexHtml === undefined) app.log.warn({ webDist }, 'web app not built; browser pages will answer 503');
  if (!existsSync(webDist)) return;
  await app.register(fastifyStatic, {
    root: webDist,
    index: false,
    wildcard: false,
    cacheControl: false,
    // Vite puts content-hashed files under /assets: they never change, so browsers may keep them.
    setHeaders(res, filePath) {
      const immutable = filePath.startsWith(path.join(webDist, 'assets') + path.sep);
      res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
    },
  });
}

export function isWebAppNavigation(request: FastifyRequest): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && prefersHtml(request);
}
