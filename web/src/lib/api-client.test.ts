import { calls, texts } from '@photo/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authorizationOf, fakeToken, stubFetch } from '@/testing/fetch-stub';
import { ApiError, callApi, isAbortError, setSessionExpiredHandler } from './api-client';
import { getToken, setToken } from './auth-token';

const me = { name: 'Alice Smith', image: null, role: 'user', email: 'alice@example.com', emailConfirmed: true };

describe('callApi', () => {
  const onExpired = vi.fn();
  afterEach(() => onExpired.mockReset());
  setSessionExpiredHandler(onExpired);

  it('adds the bearer token when one is stored', async () => {
    setToken('abc.def.ghi');
    const fetchMock = stubFetch({ 'GET /api/users/me': { body: me } });
    await expect(callApi(calls.getMe)).resolves.toEqual(me);
    expect(authorizationOf(fetchMock)).toBe('Bearer abc.def.ghi');
  });

  it('sends no Authorization header without a token', async () => {
    const fetchMock = stubFetch({ 'GET /breadcrumbs': { body: {} } });
    await callApi(calls.getBreadcrumbs);
    expect(authorizationOf(fetchMock)).toBeNull();
  });

  it('fills path parameters, the query string and a JSON body', async () => {
    setToken('t');
    const fetchMock = stubFetch({
      'POST /images/a%2Fb/like': { body: { likes: 1, totalLikes: 1, liked: true } },
      'GET /api/gridimages': { body: { images: [] } },
    });
    await callApi(calls.likeImage, { params: { id: 'a/b' }, body: { liked: true } });
    await callApi(calls.getGridImages, { query: { page: 2, limit: 50 } });
    const [likeUrl, likeInit] = fetchMock.mock.calls[0]!;
    expect(likeUrl).toBe('/images/a%2Fb/like');
    expect(likeInit?.method).toBe('POST');
    expect(likeInit?.body).toBe(JSON.stringify({ liked: true }));
    expect(new Headers(likeInit?.headers).get('Content-Type')).toBe('application/json');
    expect(fetchMock.mock.calls[1]![0]).toBe('/api/gridimages?page=2&limit=50');
  });

  it('throws an ApiError with the status and the server message', async () => {
    stubFetch({ 'POST /signin': { status: 429, body: { message: 'Slow down', msg: 'Slow down' } } });
    const error = await callApi(calls.signin, { body: { email: 'a@b.c', password: 'x' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, body: { message: 'Slow down', msg: 'Slow down' } });
  });

  it.each([401, 403])('on %i clears the token, logs and goes to sign-in', async (status) => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    setToken(fakeToken());
    stubFetch({ 'GET /api/users/me': { status, body: { message: 'No' } } });
    await expect(callApi(calls.getMe)).rejects.toBeInstanceOf(ApiError);
    expect(getToken()).toBeNull();
    expect(log).toHaveBeenCalledWith(texts.SESSION_EXPIRED);
    expect(onExpired).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['breadcrumbs', 'GET /breadcrumbs', () => callApi(calls.getBreadcrumbs)],
    ['sharedWithMe', 'GET /sharedWithMe', () => callApi(calls.getSharedWithMe)],
  ])('keeps the session on a 401 from %s', async (_name, route, call) => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    setToken('kept');
    stubFetch({ [route]: { status: 401, body: { message: 'No' } } });
    await expect(call()).rejects.toMatchObject({ status: 401 });
    expect(getToken()).toBe('kept');
    expect(log).not.toHaveBeenCalled();
    expect(onExpired).not.toHaveBeenCalled();
  });

  it('acts once when several calls fail with the same expired token', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    setToken('old');
    stubFetch({ 'GET /api/users/me': { status: 401, body: { message: 'No' } } });
    await Promise.allSettled([callApi(calls.getMe), callApi(calls.getMe)]);
    expect(onExpired).toHaveBeenCalledTimes(1);
  });

  it('rejects an answer that does not match the contract', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    stubFetch({ 'GET /api/users/me': { body: { nope: true } } });
    await expect(callApi(calls.getMe)).rejects.toBeInstanceOf(ApiError);
  });

  it('lets an aborted request reject as an AbortError, not as a failure', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new DOMException('aborted', 'AbortError'))));
    const error = await callApi(calls.getMe).catch((e: unknown) => e);
    expect(isAbortError(error)).toBe(true);
    expect(error).not.toBeInstanceOf(ApiError);
  });

  it('reports an unreachable server as status 0', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(callApi(calls.getMe)).rejects.toMatchObject({ status: 0 });
  });
});
