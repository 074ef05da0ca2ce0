import type { FastifyInstance } from 'fastify';
import { calls } from '@photo/contract';
import { type Authenticate, registerCall } from '../http/route.js';
import { breadcrumbNames } from './breadcrumbs.js';
import type { ProfileService } from './profile.service.js';

export function registerProfileRoutes(app: FastifyInstance, authenticate: Authenticate, profiles: ProfileService): void {
  registerCall(app, authenticate, calls.getApiProfile, ({ user }) => profiles.profile(user));
  registerCall(app, authenticate, calls.getProfile, ({ user }) => profiles.profile(user), { alsoWebScreen: true });
  registerCall(app, authenticate, calls.getMe, ({ user }) => profiles.me(user));
  registerCall(app, authenticate, calls.updateProfile, async ({ user, body }) => {
    await profiles.rename(user, body.username);
    return { message: 'Profile updated.' };
  });
  registerCall(app, authenticate, calls.getBreadcrumbs, async ({ reply }) => {
    reply.header('cache-control', 'public, max-age=3600');
    return breadcrumbNames;
  });
}
