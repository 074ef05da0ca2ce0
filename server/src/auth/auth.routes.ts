import type { FastifyInstance } from 'fastify';
import { calls } from '@photo/contract';
import { type Authenticate, registerCall } from '../http/route.js';
import type { AuthService } from './auth.service.js';

export function registerAuthRoutes(app: FastifyInstance, authenticate: Authenticate, auth: AuthService): void {
  registerCall(app, authenticate, calls.signup, async ({ body, request }) => ({
    token: await auth.signUp(body, request.ip),
  }), { successStatus: 201 });

  registerCall(app, authenticate, calls.signin, async ({ body, request }) => ({
    token: await auth.signIn(body, request.ip),
  }));

  registerCall(app, authenticate, calls.forgotPassword, async ({ body, request }) => {
    const message = await auth.requestPasswordReset(body.email, request.ip);
    return { message, msg: message };
  });

  registerCall(app, authenticate, calls.resetPassword, async ({ body, request }) => {
    const message = await auth.resetPassword(body, request.ip);
    return { message, msg: message };
  });
}
