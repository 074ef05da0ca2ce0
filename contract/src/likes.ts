import { z } from 'zod';
import { defineCall } from './call.js';
import { idParams } from './common.js';
import { image } from './images.js';

export const likeImage = defineCall({
  method: 'POST', path: '/images/:id/like', tag: 'likes', access: 'user',
  summary: 'Set the caller\'s like on an image',
  params: idParams,
  body: z.object({ liked: z.boolean() }),
  response: z.object({
    likes: z.number().int(),
    totalLikes: z.number().int(),
    liked: z.boolean(),
    userAccessData: image.optional(),
  }),
});

export const likeStatus = defineCall({
  method: 'GET', path: '/images/:id/like-status', tag: 'likes', access: 'user',
  summary: 'Whether the caller likes the image, and the total',
  params: idParams,
  response: z.object({ liked: z.boolean(), likeCount: z.number().int() }),
});

export const myLikedImages = defineCall({
  method: 'GET', path: '/my-liked-images', tag: 'likes', access: 'user',
  summary: 'Images the caller liked ("My Favorite Images")',
  response: z.object({ data: z.array(image) }),
});
