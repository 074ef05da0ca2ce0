import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { texts } from '@photo/contract';
import { describe, expect, it } from 'vitest';
import { unconfirmedSharesText } from '@/lib/address-proofs';
import { setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { makeImage, timelineRoutes } from '@/testing/images';
import { renderApp } from '@/testing/render-app';
import { makeMe } from '@/testing/users';

const NOTICE_TEXT =
  'Confirm your e-mail address alice@example.com: we sent you a link. Until you open it, photos shared with this address stay hidden.';
const notice = () => screen.queryByRole('region', { name: 'E-mail confirmation' });

function signedIn(me = makeMe({ emailConfirmed: false }), overrides: Parameters<typeof stubFetch>[0] = {}) {
  setToken(fakeToken());
  return stubFetch({ 'GET /api/users/me': { body: me }, ...overrides });
}

const calls = (mock: ReturnType<typeof stubFetch>, path: string) =>
  mock.mock.calls.filter(([url]) => String(url).split('?')[0] === path);

describe('the notice of an unconfirmed address', () => {
  it('shows under the header on signed-in pages, with the address', async () => {
    const fetchMock = signedIn();
    renderApp('/');
    const region = await screen.findByRole('region', { name: 'E-mail confirmation' });
    expect(within(region).getByText((_, element) => element?.tagName === 'P' && element.textContent === NOTICE_TEXT)).toBeInTheDocument();
    expect(within(region).getByRole('button', { name: 'Resend' })).toBeInTheDocument();
    // The header's query: one request for both.
    await screen.findByText('alice', { selector: 'span' });
    expect(calls(fetchMock, '/api/users/me')).toHaveLength(1);
  });

  it('toasts the server’s message after Resend', async () => {
    const fetchMock = signedIn(undefined, {
      'POST /api/address-confirmation/resend': { body: { message: 'We sent a new link to alice@example.com.' } },
    });
    renderApp('/library');
    await userEvent.click(await screen.findByRole('button', { name: 'Resend' }));
    expect(await screen.findByText('We sent a new link to alice@example.com.')).toBeInTheDocument();
    expect(calls(fetchMock, '/api/address-confirmation/resend')).toHaveLength(1);
  });

  it('toasts the server’s message of a 429', async () => {
    signedIn(undefined, {
      'POST /api/address-confirmation/resend': { status: 429, body: { message: 'Too many links asked for. Please wait an hour.' } },
    });
    renderApp('/');
    await userEvent.click(await screen.findByRole('button', { name: 'Resend' }));
    expect(await screen.findByText('Too many links asked for. Please wait an hour.')).toBeInTheDocument();
    expect(window.localStorage.getItem('token')).not.toBeNull();
  });

  it('is not shown once the address is confirmed, nor on the auth pages, nor signed out', async () => {
    signedIn(makeMe({ emailConfirmed: true }));
    const { unmount } = renderApp('/');
    await screen.findByText('alice', { selector: 'span' });
    expect(notice()).not.toBeInTheDocument();
    unmount();

    signedIn();
    renderApp('/signin');
    await screen.findByRole('heading', { name: 'Sign In' });
    expect(notice()).not.toBeInTheDocument();
  });

  it('goes away when the link was opened in another tab, and the lists are read again', async () => {
    let me = makeMe({ emailConfirmed: false });
    const fetchMock = signedIn(undefined, {
      'GET /api/users/me': () => ({ body: me }),
      ...timelineRoutes([makeImage('a')]),
    });
    const { client } = renderApp('/');
    await screen.findByRole('region', { name: 'E-mail confirmation' });
    const galleryReads = calls(fetchMock, '/api/timeline').length;

    me = makeMe({ emailConfirmed: true });
    // What coming back to the tab does (refetch on focus while unconfirmed).
    await client.refetchQueries({ queryKey: ['users', 'me'] });
    await waitFor(() => expect(notice()).not.toBeInTheDocument());
    await waitFor(() => expect(calls(fetchMock, '/api/timeline').length).toBeGreaterThan(galleryReads));
  });
});

describe('empty screens of an unconfirmed account say why', () => {
  it('/sharedMedia keeps the spec texts and adds a line about confirming', async () => {
    signedIn();
    renderApp('/sharedMedia');
    expect(await screen.findByRole('heading', { name: texts.NO_ACCESS_TITLE })).toBeInTheDocument();
    expect(screen.getByText(texts.NO_ACCESS_TEXT)).toBeInTheDocument();
    expect(await screen.findByText(unconfirmedSharesText('alice@example.com'))).toBeInTheDocument();
  });

  it('/sharedMedia says nothing more once confirmed', async () => {
    signedIn(makeMe({ emailConfirmed: true }));
    renderApp('/sharedMedia');
    expect(await screen.findByRole('heading', { name: texts.NO_ACCESS_TITLE })).toBeInTheDocument();
    await screen.findByText('alice', { selector: 'span' });
    expect(screen.queryByText(unconfirmedSharesText('alice@example.com'))).not.toBeInTheDocument();
  });

  it('the empty gallery says it too', async () => {
    signedIn();
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'No photos yet' })).toBeInTheDocument();
    expect(await screen.findByText(unconfirmedSharesText('alice@example.com'))).toBeInTheDocument();
  });
});
