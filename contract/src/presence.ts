import { z } from 'zod';
import { defineCall } from './call.js';
import { id, idParams, messageResponse } from './common.js';

export const isUserInPhoto = defineCall({
  method: 'GET', path: '/isUserInPhoto/:id', tag: 'presence', access: 'user',
  summary: 'Whether the caller marked themselves in the photo',
  params: idParams,
  response: z.object({ isUserInPhoto: z.boolean() }),
});

export const getTaggedUsers = defineCall({
  method: 'GET', path: '/getTaggedUser/:id', tag: 'presence', access: 'user',
  summary: 'Names of the people marked in the photo',
  params: idParams,
  response: z.array(z.string()),
});

export const markInPhoto = defineCall({
  method: 'POST', path: '/inPhoto', tag: 'presence', access: 'user',
  summary: 'Mark the caller as present in the photo',
  body: z.object({ imageId: id }),
  response: messageResponse,
});

export const photosUserTaggedIn = defineCall({
  method: 'GET', path: '/photosUserTaggedIn', tag: 'presence', access: 'user',
  summary: 'Photos the caller is marked in',
  response: z.object({
    data: z.array(z.object({ id, imageUrl: z.string().nullable(), imageName: z.string(), tags: z.array(z.string()) })),
  }),
});
