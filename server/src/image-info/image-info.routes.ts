import { calls } from '@photo/contract';
import type { FastifyInstance } from 'fastify';
import { type Authenticate, registerCall } from '../http/route.js';
import type { ImageInfoService } from './image-info.service.js';

export function registerImageInfoRoutes(app: FastifyInstance, authenticate: Authenticate, info: ImageInfoService): void {
  registerCall(app, authenticate, calls.getImageInfo, ({ user, params }) => info.info(user, params.id));
}
