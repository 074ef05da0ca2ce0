import { calls } from '@photo/contract';
import type { FastifyInstance } from 'fastify';
import { type Authenticate, registerCall } from '../http/route.js';
import type { PresenceService } from './presence.service.js';

export function registerPresenceRoutes(app: FastifyInstance, authenticate: Authenticate, presence: PresenceService): void {
  registerCall(app, authenticate, calls.markInPhoto, ({ user, body }) => presence.mark(user, body.imageId));
  registerCall(app, authenticate, calls.isUserInPhoto, ({ user, params }) => presence.isIn(user, params.id));
  registerCall(app, authenticate, calls.getTaggedUsers, ({ user, params }) => presence.namesIn(user, params.id));
  registerCall(app, authenticate, calls.photosUserTaggedIn, ({ user }) => presence.photosOf(user));
}
