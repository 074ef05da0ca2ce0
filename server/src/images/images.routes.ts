import { GALLERY_PAGE_SIZE, calls } from '@photo/contract';
import type { FastifyInstance } from 'fastify';
import { type Authenticate, PreSerialized, registerCall } from '../http/route.js';
import type { ImagesService } from './images.service.js';
import type { SearchService } from './search.service.js';

export function registerImageRoutes(
  app: FastifyInstance,
  authenticate: Authenticate,
  images: ImagesService,
  search: SearchService,
): void {
  registerCall(app, authenticate, calls.getGridImages, async ({ user, query }) => {
    if (query.page === undefined && query.limit === undefined) return new PreSerialized(await images.allJson(user, { before: '{"images":', after: '}' }));
    const json = await images.pageJson(user, query.page ?? 1, query.limit ?? GALLERY_PAGE_SIZE);
    return new PreSerialized(json);
  });
  registerCall(app, authenticate, calls.getGridImagesOld, async ({ user }) => new PreSerialized(await images.allJson(user)));
  registerCall(app, authenticate, calls.getImage, ({ user, params }) => images.one(user, params.id));
  registerCall(app, authenticate, calls.getImageNeighbours, ({ user, params }) => images.neighbours(user, params.id));
  registerCall(app, authenticate, calls.getLibrary, ({ user, query }) =>
    images.page(user, query.page ?? 1, query.limit ?? GALLERY_PAGE_SIZE),
  { alsoWebScreen: true });
  registerCall(app, authenticate, calls.searchImages, async ({ user, query }) => new PreSerialized(await search.searchJson(user, query.query)));
  registerCall(app, authenticate, calls.deleteImages, ({ user, body }) => images.delete(user, body.imageIds));
}
