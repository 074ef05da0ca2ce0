import { z } from 'zod';
import { defineCall } from './call.js';
import { messageResponse } from './common.js';

/**
 * Proving an e-mail address (docs/decisions/0006). A share reaches an account only once the account
 * has shown it owns the receiving address by opening a link mailed to it: the confirmation mail sent
 * at sign-up, or any share mail. Each link carries a random single-use token (stored hashed).
 */

/** A token from a mailed link: 256 bits, base64url. */
export const proofToken = z.string().regex(/^[A-Za-z0-9_-]{20,128}$/, { message: 'This confirmation link is not valid.' });
export const proofParams = z.object({ token: proofToken });

/**
 * What a mailed link proves and what the web app offers for it:
 * - `signup`: no account has this address yet; sign up with it (the address is then confirmed);
 * - `pending`: an account has this address and is not confirmed; confirm it (or, when that account
 *   is not yours, release the address from it);
 * - `confirmed`: the account with this address is already confirmed.
 */
export const proofState = z.enum(['signup', 'pending', 'confirmed']);
export type ProofState = z.infer<typeof proofState>;

export const addressProof = z.object({
  email: z.string(),
  state: proofState,
  /** The account holding the address (pending or confirmed): its name and when it was created. */
  account: z.object({ username: z.string(), createdAt: z.string() }).nullable(),
  /** Where the person goes afterwards: `/sharedMedia` for a restricted share, else `/`. */
  next: z.string(),
});
export type AddressProof = z.infer<typeof addressProof>;

export const getAddressProof = defineCall({
  method: 'GET', path: '/api/address-proofs/:token', tag: 'addresses', access: 'public',
  summary: 'What a mailed confirmation or share link proves (404 when unknown, used or expired)',
  params: proofParams,
  response: addressProof,
});

export const confirmAddress = defineCall({
  method: 'POST', path: '/api/address-proofs/:token/confirm', tag: 'addresses', access: 'public',
  summary: 'Confirms the account holding the link\'s address; shares sent to it become visible at once',
  params: proofParams,
  response: z.object({ message: z.string(), email: z.string(), next: z.string() }),
});

export const releaseAddress = defineCall({
  method: 'POST', path: '/api/address-proofs/:token/release', tag: 'addresses', access: 'public',
  summary: 'Not my account: an unconfirmed account created by someone else with this address loses it (and its sessions)',
  params: proofParams,
  response: z.object({ message: z.string(), email: z.string() }),
});

export const resendConfirmation = defineCall({
  method: 'POST', path: '/api/address-confirmation/resend', tag: 'addresses', access: 'user',
  summary: 'Mails the signed-in person a new confirmation link (a few an hour)',
  response: messageResponse,
});
