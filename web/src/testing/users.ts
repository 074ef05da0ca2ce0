import type { calls, ResponseOf } from '@photo/contract';

type Me = ResponseOf<typeof calls.getMe>;

/** GET /api/users/me as the server answers it; a confirmed address unless a test says otherwise. */
export function makeMe(overrides: Partial<Me> = {}): Me {
  return { name: 'alice', image: null, role: 'user', email: 'alice@example.com', emailConfirmed: true, ...overrides };
}
