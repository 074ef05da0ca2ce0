import { calls } from '@photo/contract';
import type { FastifyInstance } from 'fastify';
import { type Authenticate, registerCall } from '../http/route.js';
import type { LikesService } from './likes.service.js';

export function registerLikeRoutes(app: FastifyInstance, authenticate: Authenticate, likes: LikesService): void {
  registerCall(app, authenticate, calls.likeImage, ({ user, params, body }) => likes.like(user, params.id, body.liked));
  registerCall(app, authenticate, calls.likeStatus, ({ user, params }) => likes.status(user, params.id));
  registerCall(app, authenticate, calls.myLikedImages, ({ user }) => likes.likedBy(user));
}
