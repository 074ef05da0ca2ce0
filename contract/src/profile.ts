import { z } from 'zod';
import { image } from './images.js';
import { defineCall } from './call.js';
import { messageResponse } from './common.js';
import { username } from './auth.js';

export const role = z.enum(['admin', 'user']);
export type Role = z.infer<typeof role>;

export const PROFILE_UPLOADS_LIMIT = 1000;

/** Spec §3 "User profile"; `name` and `image` repeat `username` and `profileImage` as the screens read both. */
export const profile = z.object({
  id: z.string(),
  username: z.string(),
  name: z.string(),
  email: z.string(),
  role,
  profileImage: z.string().nullable(),
  image: z.string().nullable(),
  bulkTags: z.array(z.string()),
  /** Whether the account has proven its e-mail address; until then nothing shared with it shows. */
  emailConfirmed: z.boolean(),
  /** The person's own uploads, newest first (at most PROFILE_UPLOADS_LIMIT). */
  userUploadedImages: z.array(image),
});
export type Profile = z.infer<typeof profile>;

export const getApiProfile = defineCall({
  method: 'GET', path: '/api/profile', tag: 'profile', access: 'user',
  summary: 'The signed-in person\'s profile', response: profile,
});

export const getProfile = defineCall({
  method: 'GET', path: '/profile', tag: 'profile', access: 'user',
  summary: 'The signed-in person\'s profile (JSON for API clients; browsers navigating here get the web app)',
  response: profile,
});

export const getMe = defineCall({
  method: 'GET', path: '/api/users/me', tag: 'profile', access: 'user',
  summary: 'Name and avatar for the header',
  response: z.object({ name: z.string(), image: z.string().nullable(), role, email: z.string(), emailConfirmed: z.boolean() }),
});

export const updateProfile = defineCall({
  method: 'PUT', path: '/update-profile', tag: 'profile', access: 'user',
  summary: 'Change the username',
  body: z.object({ username }),
  response: messageResponse,
});

export const uploadProfileImage = defineCall({
  method: 'POST', path: '/upload-profile-image', tag: 'profile', access: 'user',
  summary: 'Replace the profile image (multipart field profileImage, one image)',
  multipart: { fields: 'profileImage: one image file' },
  response: z.object({ message: z.string(), profileImage: z.string().nullable() }),
});

/** Path → display name, for the breadcrumb bar (spec §2 General). */
export const breadcrumbs = z.record(z.string(), z.string());

export const getBreadcrumbs = defineCall({
  method: 'GET', path: '/breadcrumbs', tag: 'profile', access: 'public',
  summary: 'Display names for breadcrumb path segments',
  response: breadcrumbs,
});
