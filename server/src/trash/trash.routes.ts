import { calls, TRASH_PAGE_SIZE } from '@photo/contract';
import type { FastifyInstance } from 'fastify';
import { type Authenticate, registerCall } from '../http/route.js';
import type { TrashService } from './trash.service.js';

export function registerTrashRoutes(app: FastifyInstance, authenticate: Authenticate, trash: TrashService): void {
  registerCall(app, authenticate, calls.listTrash, ({ user, query }) => trash.list(user, query.page ?? 1, query.limit ?? TRASH_PAGE_SIZE));
  registerCall(app, authenticate, calls.restoreTrash, ({ user, body }) => trash.restore(user, body.imageIds));
  registerCall(app, authenticate, calls.deleteTrashForever, ({ user, body }) => trash.deleteForever(user, body.imageIds));
  registerCall(app, authenticate, calls.emptyTrash, ({ user }) => trash.empty(user));
}
