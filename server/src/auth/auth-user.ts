import type { Role } from '@photo/contract';

/** The signed-in person, as every service sees them after the token was checked. */
export interface AuthUser {
  id: number;
  role: Role;
  username: string;
  email: string;
}
