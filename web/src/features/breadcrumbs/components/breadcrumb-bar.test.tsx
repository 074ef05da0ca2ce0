import { screen, waitFor, within } from '@testing-library/react';
import { texts } from '@photo/contract';
import { describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { renderApp } from '@/testing/render-app';
import { buildCrumbs } from './build-crumbs';

const names = {
  '/library': 'Image Library',
  '/sharedMedia': 'Shared Media',
  '/sharedMedia/sharedWithMe': 'Shared with me',
  'shared-photos': 'Shared Photos',
};

function crumbsOf(nav: HTMLElement) {
  return within(nav)
    .getAllByRole('link')
    .map((link) => [link.textContent, link.getAttribute('href')]);
}

describe('buildCrumbs', () => {
  it('prefers the cumulative path, then the bare segment, then the decoded segment', () => {
    expect(buildCrumbs('/sharedMedia/sharedWithMe/J%C3%BCrgen%20K', names)).toEqual([
      { label: 'Shared Media', href: '/sharedMedia' },
      { label: 'Shared with me', href: '/sharedMedia' },
      { label: 'Jürgen K', href: '/sharedMedia/sharedWithMe/J%C3%BCrgen%20K' },
    ]);
    expect(buildCrumbs('/shared-photos/bob', names)).toEqual([
      { label: 'Shared Photos', href: '/users-i-sharedWith' },
      { label: 'bob', href: '/shared-photos/bob' },
    ]);
  });

  it('has no crumbs on the home page', () => expect(buildCrumbs('/', names)).toEqual([]));

  it('links sharedWithMe back to /sharedMedia only under /sharedMedia', () => {
    expect(buildCrumbs('/other/sharedWithMe')[1]?.href).not.toBe('/sharedMedia');
  });

  it('does not link a segment that is no screen of its own', () => {
    expect(buildCrumbs('/image/42')).toEqual([
      { label: 'image', href: null },
      { label: '42', href: '/image/42' },
    ]);
  });
});

describe('breadcrumb bar', () => {
  it('starts with Home and names each segment from /breadcrumbs, fetched once', async () => {
    setToken(fakeToken());
    const fetchMock = stubFetch({ 'GET /breadcrumbs': { body: names } });
    const { router } = renderApp('/sharedMedia/sharedWithMe/bob');
    const nav = screen.getByRole('navigation', { name: 'Breadcrumb' });
    await waitFor(() =>
      expect(crumbsOf(nav)).toEqual([
        ['Home', '/'],
        ['Shared Media', '/sharedMedia'],
        ['Shared with me', '/sharedMedia'],
        ['bob', '/sharedMedia/sharedWithMe/bob'],
      ]),
    );
    expect(within(nav).getByRole('link', { name: 'Home' }).querySelector('svg')).not.toBeNull();
    await router.navigate('/library');
    await waitFor(() => expect(crumbsOf(nav)).toEqual([['Home', '/'], ['Image Library', '/library']]));
    const breadcrumbCalls = fetchMock.mock.calls.filter(([url]) => url === '/breadcrumbs');
    expect(breadcrumbCalls).toHaveLength(1);
  });

  it('links shared-photos to /users-i-sharedWith', async () => {
    setToken(fakeToken());
    stubFetch({ 'GET /breadcrumbs': { body: {} } });
    renderApp('/shared-photos/carol');
    const nav = screen.getByRole('navigation', { name: 'Breadcrumb' });
    await waitFor(() =>
      expect(crumbsOf(nav)).toEqual([
        ['Home', '/'],
        ['shared-photos', '/users-i-sharedWith'],
        ['carol', '/shared-photos/carol'],
      ]),
    );
  });

  it('logs a failed fetch and falls back to the segment names', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    setToken(fakeToken());
    stubFetch({ 'GET /breadcrumbs': { status: 500, body: { message: 'down' } } });
    renderApp("/photos-i'm-in");
    await waitFor(() => expect(error).toHaveBeenCalledWith(texts.BREADCRUMBS_ERROR_LOG, expect.anything()));
    const nav = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(crumbsOf(nav)).toEqual([['Home', '/'], ["photos-i'm-in", "/photos-i'm-in"]]);
  });

  it('is not shown on the auth pages', async () => {
    stubFetch();
    renderApp('/signup');
    await screen.findByRole('heading', { name: 'Sign Up' });
    expect(screen.queryByRole('navigation', { name: 'Breadcrumb' })).not.toBeInTheDocument();
  });
});
