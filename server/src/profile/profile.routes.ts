import type { FastifyInstance } from 'fastify';
import { calls } from '@photo/contract';
import { type Authenticate, registerCall } from '../http/route.js';
import { breadcrumbNames } from './breadcrumbs.js';
import { AppError, badRequest } from '../http/errors.js';
import type { ProfileImageService } from './profile-image.service.js';
import type { ProfileService } from './profile.service.js';

export function registerProfileRoutes(
  app: FastifyInstance,
  authenticate: Authenticate,
  profiles: ProfileService,
  profileImages: ProfileImageService,
  maxFileBytes: number,
): void {
  registerCall(app, authenticate, calls.getApiProfile, ({ user }) => profiles.profile(user));
  registerCall(app, authenticate, calls.getProfile, ({ user }) => profiles.profile(user), { alsoWebScreen: true });
  registerCall(app, authenticate, calls.getMe, ({ user }) => profiles.me(user));
  registerCall(app, authenticate, calls.updateProfile, async ({ user, body }) => {
    await profiles.rename(user, body.username);
    return { message: 'Profile updated.' };
  });
  registerCall(app, authenticate, calls.uploadProfileImage, async ({ user, request }) => {
    if (!request.isMultipart()) throw new AppError(415, 'Send the picture as multipart/form-data in the field "profileImage".');
    const part = await request.file();
    if (!part) throw badRequest('Choose a picture for your profile.');
    const key = await profileImages.replace(user, part.file, maxFileBytes);
    return { message: 'Profile image updated.', profileImage: await profiles.imageUrl({ profile_image_key: key }) };
  });
  registerCall(app, authenticate, calls.getBreadcrumbs, async ({ reply }) => {
    reply.header('cache-control', 'public, max-age=3600');
    return breadcrumbNames;
  });
}
