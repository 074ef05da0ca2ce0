import { calls } from '@photo/contract';
import type { FastifyInstance } from 'fastify';
import { type Authenticate, registerCall } from '../http/route.js';
import type { AddressProofsService } from './address-proofs.service.js';

export function registerAddressRoutes(app: FastifyInstance, authenticate: Authenticate, addresses: AddressProofsService): void {
  registerCall(app, authenticate, calls.getAddressProof, ({ params }) => addresses.describe(params.token));
  registerCall(app, authenticate, calls.confirmAddress, ({ params }) => addresses.confirm(params.token));
  registerCall(app, authenticate, calls.releaseAddress, ({ params }) => addresses.release(params.token));
  registerCall(app, authenticate, calls.resendConfirmation, ({ user }) => addresses.resend(user));
}
