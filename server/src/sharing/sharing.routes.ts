import { calls } from '@photo/contract';
import type { FastifyInstance } from 'fastify';
import { type Authenticate, registerCall } from '../http/route.js';
import type { SharedViewsService } from './shared-views.service.js';
import type { SharingService } from './sharing.service.js';

export function registerSharingRoutes(
  app: FastifyInstance,
  authenticate: Authenticate,
  sharing: SharingService,
  views: SharedViewsService,
): void {
  registerCall(app, authenticate, calls.shareAll, ({ user, body }) => sharing.shareAll(user, body.accessTo));
  registerCall(app, authenticate, calls.shareRestricted, ({ user, body }) => sharing.shareRestricted(user, body.imageIds, body.emails));
  registerCall(app, authenticate, calls.shareImg, ({ user, body }) => sharing.shareRestricted(user, body.imageIds, body.emails));
  registerCall(app, authenticate, calls.updateUserStatus, ({ user, params, body }) => sharing.updateStatus(user, params.id, body.status, body.type));
  registerCall(app, authenticate, calls.getUserAccessData, async ({ user }) => sharing.accessData(user));
  registerCall(app, authenticate, calls.getSharedImagesByLink, ({ params }) => views.byLink(params.link));
  registerCall(app, authenticate, calls.getSharedImages, ({ user }) => views.sharedWithCaller(user));
  registerCall(app, authenticate, calls.getSharedWithMe, ({ user }) => views.sharedWithMe(user));
  registerCall(app, authenticate, calls.usersISharedWith, ({ user }) => views.usersISharedWith(user));
  registerCall(app, authenticate, calls.sharedWithUser, ({ user, body }) => views.sharedWithUser(user, body.userName));
}
