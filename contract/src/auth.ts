import { z } from 'zod';
import { defineCall } from './call.js';
import { email, password } from './common.js';

export const USERNAME_MAX_LENGTH = 50;
export const username = z
  .string()
  .trim()
  .min(1, { message: 'Username is required.' })
  .max(USERNAME_MAX_LENGTH, { message: `Username must be at most ${USERNAME_MAX_LENGTH} characters.` })
  .regex(/^[^/\\\u0000-\u001f]+$/, { message: 'Username cannot contain slashes or control characters.' });

export const tokenResponse = z.object({ token: z.string() });

/** The JWT payload the web app decodes (spec §3: "Its decoded payload holds user.role"). */
export const tokenPayload = z.object({
  user: z.object({ id: z.string(), role: z.enum(['admin', 'user']), username: z.string() }),
});
export type TokenPayload = z.infer<typeof tokenPayload>;

export const signin = defineCall({
  method: 'POST',
  path: '/signin',
  tag: 'auth',
  summary: 'Sign in with e-mail and password; returns a session token',
  access: 'public',
  body: z.object({ email, password: z.string().min(1, { message: 'Password is required.' }).max(256) }),
  response: tokenResponse,
});

export const signup = defineCall({
  method: 'POST',
  path: '/signup',
  tag: 'auth',
  summary: 'Create an account (the first account becomes admin); returns a session token. A `proof` token from a share mail sent to the same address confirms it at once; otherwise a confirmation link is mailed',
  access: 'public',
  body: z.object({ username, email, password, proof: z.string().max(128).optional() }),
  response: tokenResponse,
});

const messageAndMsg = z.object({ message: z.string(), msg: z.string() });

export const forgotPassword = defineCall({
  method: 'POST',
  path: '/forgot-password',
  tag: 'auth',
  summary: 'E-mail a password reset link; answers the same whether or not the address has an account',
  access: 'public',
  body: z.object({ email }),
  response: messageAndMsg,
});

export const resetPassword = defineCall({
  method: 'POST',
  path: '/reset-password',
  tag: 'auth',
  summary: 'Set a new password with a single-use reset token',
  access: 'public',
  body: z.object({ token: z.string().min(1, { message: 'Reset token is required.' }).max(512), newPassword: password }),
  response: messageAndMsg,
});
