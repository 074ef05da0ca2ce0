import { z } from 'zod';
import { defineCall } from './call.js';
import { email, id, idParams, messageResponse } from './common.js';
import { image } from './images.js';

export const accessType = z.enum(['allAccess', 'restrictedAccess']);
export type AccessType = z.infer<typeof accessType>;

const recipients = z.array(email).min(1, { message: 'Enter at least one e-mail address.' }).max(50);

export const shareAll = defineCall({
  method: 'POST', path: '/api/share-all', tag: 'sharing', access: 'admin',
  summary: 'Share the whole library with the given addresses; returns the public link',
  body: z.object({ accessTo: recipients }),
  response: z.object({ link: z.string() }),
});

const restrictedShareBody = z.object({ imageIds: z.array(id).min(1).max(1000), emails: recipients });

export const shareRestricted = defineCall({
  method: 'POST', path: '/api/share-restricted', tag: 'sharing', access: 'user',
  summary: 'Share the selected images with the given addresses',
  body: restrictedShareBody,
  response: messageResponse,
});

export const shareImg = defineCall({
  method: 'POST', path: '/share-img', tag: 'sharing', access: 'user',
  summary: 'Share the selected images with the given addresses (older path)',
  body: restrictedShareBody,
  response: messageResponse,
});

export const getSharedImages = defineCall({
  method: 'GET', path: '/shared-images', tag: 'sharing', access: 'user',
  summary: 'Images shared with the caller',
  response: z.object({ images: z.array(image), message: z.string() }),
});

export const getSharedImagesByLink = defineCall({
  method: 'GET', path: '/shared-images/:link', tag: 'sharing', access: 'public',
  summary: 'Everything shared through an active share-all link (no sign-in)',
  params: z.object({ link: z.string().min(1).max(128) }),
  response: z.object({ success: z.boolean(), images: z.array(image), message: z.string() }),
});

export const sharedByEntry = z.object({
  sharedByUserName: z.string(),
  totalImagesShared: z.number().int(),
  images: z.array(z.object({
    imageId: id, imageName: z.string(), imageThumbnail: z.string().nullable(), tags: z.array(z.string()),
  })),
});

export const getSharedWithMe = defineCall({
  method: 'GET', path: '/sharedWithMe', tag: 'sharing', access: 'user',
  summary: 'Who shared what with the caller',
  response: z.object({
    hasAccess: z.boolean(),
    data: z.object({ sharedBy: z.array(sharedByEntry) }),
    userAccessData: z.array(image),
  }),
});

export const accessRecord = z.object({ _id: id, accessTo: z.string(), status: z.boolean() });

export const getUserAccessData = defineCall({
  method: 'GET', path: '/getUserAccessData', tag: 'sharing', access: 'user',
  summary: 'The caller\'s access records of both kinds',
  response: z.object({ restrictedAccessUserData: z.array(accessRecord), allAccessUserData: z.array(accessRecord) }),
});

export const updateUserStatus = defineCall({
  method: 'PUT', path: '/updateUserStatus/:id', tag: 'sharing', access: 'user',
  summary: 'Switch one of the caller\'s access records on or off',
  params: idParams,
  body: z.object({ status: z.boolean(), type: accessType }),
  response: messageResponse,
});

export const usersISharedWith = defineCall({
  method: 'GET', path: '/api/users-i-shared-with', tag: 'sharing', access: 'user',
  summary: 'People the caller shared with, with image counts',
  response: z.object({
    sharedUsers: z.array(z.object({ sharedWith: z.string(), countImages: z.number().int() })),
    count: z.number().int(),
  }),
});

export const sharedWithUser = defineCall({
  method: 'POST', path: '/api/shared-with-user', tag: 'sharing', access: 'user',
  summary: 'Images the caller shared with one person',
  body: z.object({ userName: z.string().min(1).max(254) }),
  response: z.object({
    images: z.array(image), count: z.number().int(), accessType,
    userEmail: z.string(), sharedByName: z.string(),
  }),
});
