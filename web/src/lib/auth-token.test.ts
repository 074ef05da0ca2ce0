import { describe, expect, it } from 'vitest';
import { fakeToken } from '@/testing/fetch-stub';
import { clearToken, decodeToken, getToken, isTokenExpired, setToken } from './auth-token';

describe('auth token', () => {
  it('is kept in localStorage under "token"', () => {
    setToken('x');
    expect(window.localStorage.getItem('token')).toBe('x');
    expect(getToken()).toBe('x');
    clearToken();
    expect(getToken()).toBeNull();
  });

  it('decodes the payload without verifying it', () => {
    const decoded = decodeToken(fakeToken({ role: 'admin', username: 'Zoë' }, 2_000_000_000));
    expect(decoded).toEqual({ user: { id: 'u1', role: 'admin', username: 'Zoë' }, exp: 2_000_000_000 });
  });

  it('returns null for something that is not a JWT', () => {
    expect(decodeToken('nonsense')).toBeNull();
    expect(decodeToken('a.b.c')).toBeNull();
  });

  it('knows an expired token, and leaves an unreadable one to the server', () => {
    expect(isTokenExpired(fakeToken({}, 1000))).toBe(true);
    expect(isTokenExpired(fakeToken({}, Math.floor(Date.now() / 1000) + 60))).toBe(false);
    expect(isTokenExpired('nonsense')).toBe(false);
  });
});
