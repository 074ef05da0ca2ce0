import { GALLERY_PAGE_SIZE, calls } from '@photo/contract';
import type { FastifyInstance } from 'fastify';
import { type Authenticate, PreSerialized, registerCall } from '../http/route.js';
import type { TimelineService } from './timeline.service.js';

export function registerTimelineRoutes(app: FastifyInstance, authenticate: Authenticate, timeline: TimelineService): void {
  registerCall(app, authenticate, calls.getTimeline, async ({ user }) => new PreSerialized(await timeline.monthsJson(user)));
  registerCall(app, authenticate, calls.getTimelineMonth, async ({ user, params, query }) =>
    new PreSerialized(await timeline.monthPageJson(user, params.month, query.page ?? 1, query.limit ?? GALLERY_PAGE_SIZE)),
  );
}
