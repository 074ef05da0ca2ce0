import { render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, data, RouterProvider } from 'react-router';
import { texts } from '@photo/contract';
import { describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { renderApp } from '@/testing/render-app';
import { AppErrorFallback } from './error-fallback';

describe('route guard', () => {
  it.each(['/', '/profile', '/library', "/photos-i'm-in", '/image/42', '/sharedMedia/sharedWithMe/bob'])(
    'sends %s to /signin without a token, replacing history',
    async (path) => {
      stubFetch();
      const { router } = renderApp(path);
      expect(await screen.findByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/signin');
      expect(router.state.historyAction).toBe('REPLACE');
    },
  );

  it('drops a token that has expired and goes to /signin', async () => {
    stubFetch();
    setToken(fakeToken({}, 1000));
    const { router } = renderApp('/profile');
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin'));
    expect(window.localStorage.getItem('token')).toBeNull();
  });

  it('lets a signed-in person through', async () => {
    stubFetch({ 'GET /breadcrumbs': { body: {} } });
    setToken(fakeToken());
    const { router } = renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Gallery' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it.each(['/signin', '/signup', '/forgot-password', '/reset-password/abc'])('leaves %s open', async (path) => {
    stubFetch();
    const { router } = renderApp(path);
    await screen.findByRole('button', { name: /sign|send|reset/i });
    expect(router.state.location.pathname).toBe(path);
  });

  it('leaves the public share-all page open', async () => {
    stubFetch({ 'GET /shared-images/xyz': { body: { success: true, images: [], message: '' } } });
    const { router } = renderApp('/share-all/xyz');
    expect(await screen.findByRole('heading', { name: 'Shared Images' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/share-all/xyz');
  });
});

describe('error fallback', () => {
  it('shows the title and 404 for an unknown path', async () => {
    stubFetch();
    setToken(fakeToken());
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: texts.APP_ERROR_TITLE })).toBeInTheDocument();
    expect(screen.getByText('404 Not Found')).toBeInTheDocument();
  });

  it('shows the message of an error thrown while rendering', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const Broken = () => {
      throw new Error('Boom in a screen');
    };
    const router = createMemoryRouter([{ path: '/', element: <Broken />, errorElement: <AppErrorFallback /> }]);
    render(<RouterProvider router={router} />);
    expect(await screen.findByRole('heading', { name: texts.APP_ERROR_TITLE })).toBeInTheDocument();
    expect(screen.getByText('Boom in a screen')).toBeInTheDocument();
  });

  it('shows status and status text of a thrown response', async () => {
    const router = createMemoryRouter([
      {
        path: '/',
        loader: () => {
          throw data(null, { status: 503, statusText: 'Service Unavailable' });
        },
        element: <p>never</p>,
        HydrateFallback: () => null,
        errorElement: <AppErrorFallback />,
      },
    ]);
    render(<RouterProvider router={router} />);
    expect(await screen.findByText('503 Service Unavailable')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(texts.APP_ERROR_TITLE);
  });
});
