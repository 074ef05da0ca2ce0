import { calls } from '@photo/contract';
import type { FastifyInstance } from 'fastify';
import { type Authenticate, registerCall } from '../http/route.js';
import type { TemplatesService } from './templates.service.js';

export function registerTemplateRoutes(app: FastifyInstance, authenticate: Authenticate, templates: TemplatesService): void {
  registerCall(app, authenticate, calls.listTemplates, ({ user }) => templates.list(user));
  registerCall(app, authenticate, calls.createTemplate, ({ user, body }) => templates.create(user, body), { successStatus: 201 });
  registerCall(app, authenticate, calls.updateTemplate, ({ user, params, body }) => templates.update(user, params.id, body));
  registerCall(app, authenticate, calls.setDefaultTemplate, ({ user, params }) => templates.setDefault(user, params.id));
}
