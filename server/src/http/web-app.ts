import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** True for a browser navigation: the request asks for HTML ahead of JSON. */
export function prefersHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  const html = accept.indexOf('text/html');
  if (html === -1) return false;
  const json = accept.indexOf('application/json');
  return json === -1 || html < json;
}

export function isWebAppNavigation(request: FastifyRequest): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && prefersHtml(request);
}

/**
 * index.html names the hashed bundles of the current build, so it is re-read when a rebuild
 * replaces it; one stat per page load is cheap next to the page itself.
 */
function indexHtmlReader(indexFile: string): () => string | undefined {
  let html: string | undefined;
  let mtimeMs = 0;
  return () => {
    try {
      const stat = statSync(indexFile);
      if (html === undefined || stat.mtimeMs !== mtimeMs) {
        html = readFileSync(indexFile, 'utf8');
        mtimeMs = stat.mtimeMs;
      }
    } catch {
      html = undefined;
    }
    return html;
  };
}

/**
 * Serves the built web app from the same origin as the API (DECISIONS §2): hashed assets with a
 * year-long immutable cache, and `reply.sendWebApp()` (index.html, never cached) for navigations,
 * so client-side routes such as /photos-i'm-in load on refresh.
 */
export async function registerWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  const readIndex = indexHtmlReader(path.join(webDist, 'index.html'));
  app.decorateReply('sendWebApp', function sendWebApp(this: FastifyReply) {
    const html = readIndex();
    if (html === undefined) {
      return this.code(503).send({
        message: 'The web app has not been built. Run `npm start` (or `npm run build`) and reload.',
        msg: 'The web app has not been built.',
      });
    }
    return this.code(200).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
  });
  if (readIndex() === undefined) app.log.warn({ webDist }, 'web app not built; browser pages will answer 503');
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

declare module 'fastify' {
  interface FastifyReply {
    sendWebApp(): FastifyReply;
  }
}
