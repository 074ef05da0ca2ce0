import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AddressProof } from '@photo/contract';
import { describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { renderApp } from '@/testing/render-app';
import { makeMe } from '@/testing/users';
import { INVALID_LINK_TEXT } from './proof-outcomes';

vi.mock('@/lib/browser', () => ({ assignLocation: vi.fn(), reloadPage: vi.fn() }));
const browser = await import('@/lib/browser');

const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz';
const CREATED = '2024-03-15T12:00:00Z';

function proof(overrides: Partial<AddressProof> = {}): AddressProof {
  return {
    email: 'ada@example.com',
    state: 'pending',
    account: { username: 'ada', createdAt: CREATED },
    next: '/sharedMedia',
    ...overrides,
  };
}

const confirmed = { message: 'Your address is confirmed.', email: 'ada@example.com', next: '/sharedMedia' };
const calledWith = (mock: ReturnType<typeof stubFetch>, method: string, path: string) =>
  mock.mock.calls.filter(([url, init]) => String(url).split('?')[0] === path && (init?.method ?? 'GET') === method);

/** The card's main sentence, whose address and name are in bold elements of their own. */
const sentence = (start: string) => screen.getByText((_, element) => element?.tagName === 'P' && element.textContent?.startsWith(start) === true);

describe('/confirm-email/:token, an unconfirmed account holds the address', () => {
  it('shows whose account it is and confirms only on a click; then offers to sign in', async () => {
    const fetchMock = stubFetch({
      [`GET /api/address-proofs/${TOKEN}`]: { body: proof() },
      [`POST /api/address-proofs/${TOKEN}/confirm`]: { body: confirmed },
    });
    renderApp(`/confirm-email/${TOKEN}`);
    expect(await screen.findByRole('button', { name: 'Confirm my address' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Confirm your e-mail address' })).toBeInTheDocument();
    const date = new Date(CREATED).toLocaleDateString(undefined, { dateStyle: 'long' });
    expect(sentence('The address').textContent).toBe(
      `The address ada@example.com belongs to an account named ada, created ${date}.`,
    );
    // A mail scanner opening the link confirms nothing.
    expect(calledWith(fetchMock, 'POST', `/api/address-proofs/${TOKEN}/confirm`)).toHaveLength(0);
    expect(screen.getByRole('button', { name: "This isn't my account" })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Confirm my address' }));
    expect(await screen.findByRole('heading', { name: 'Address confirmed' })).toBeInTheDocument();
    expect(sentence('Your address').textContent).toBe('Your address ada@example.com is confirmed.');
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/signin');
    expect(calledWith(fetchMock, 'POST', `/api/address-proofs/${TOKEN}/confirm`)).toHaveLength(1);
  });

  it('confirms at once when signed in as that very account, then reads every list again', async () => {
    setToken(fakeToken());
    const fetchMock = stubFetch({
      [`GET /api/address-proofs/${TOKEN}`]: { body: proof() },
      [`POST /api/address-proofs/${TOKEN}/confirm`]: { body: confirmed },
      'GET /api/users/me': { body: makeMe({ email: 'ADA@example.com', emailConfirmed: false }) },
    });
    const { client } = renderApp(`/confirm-email/${TOKEN}`);
    client.setQueryData(['shared-with-me'], { hasAccess: false, data: { sharedBy: [] }, userAccessData: [] });
    expect(await screen.findByRole('heading', { name: 'Address confirmed' })).toBeInTheDocument();
    expect(calledWith(fetchMock, 'POST', `/api/address-proofs/${TOKEN}/confirm`)).toHaveLength(1);
    // Signed in: on to where the mail meant to lead (a restricted share: /sharedMedia).
    expect(screen.getByRole('link', { name: 'Continue' })).toHaveAttribute('href', '/sharedMedia');
    expect(client.getQueryState(['shared-with-me'])?.isInvalidated).toBe(true);
    // The used token is not asked about again (it would answer 404).
    expect(calledWith(fetchMock, 'GET', `/api/address-proofs/${TOKEN}`)).toHaveLength(1);
  });

  it('asks a person signed in as another account to click, like anyone else', async () => {
    setToken(fakeToken());
    const fetchMock = stubFetch({
      [`GET /api/address-proofs/${TOKEN}`]: { body: proof() },
      'GET /api/users/me': { body: makeMe({ email: 'bob@example.com' }) },
    });
    renderApp(`/confirm-email/${TOKEN}`);
    expect(await screen.findByRole('button', { name: 'Confirm my address' })).toBeInTheDocument();
    expect(calledWith(fetchMock, 'POST', `/api/address-proofs/${TOKEN}/confirm`)).toHaveLength(0);
  });

  it("shows the server's message when confirming fails", async () => {
    stubFetch({
      [`GET /api/address-proofs/${TOKEN}`]: { body: proof() },
      [`POST /api/address-proofs/${TOKEN}/confirm`]: { status: 404, body: { message: 'This link has been used already.' } },
    });
    renderApp(`/confirm-email/${TOKEN}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm my address' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This link has been used already.');
  });

  it('"This isn\'t my account" frees the address and goes on to sign up with it', async () => {
    const fetchMock = stubFetch({
      [`GET /api/address-proofs/${TOKEN}`]: { body: proof() },
      [`POST /api/address-proofs/${TOKEN}/release`]: { body: { message: 'Released.', email: 'ada@example.com' } },
    });
    const { router } = renderApp(`/confirm-email/${TOKEN}`);
    await userEvent.click(await screen.findByRole('button', { name: "This isn't my account" }));
    expect(await screen.findByRole('heading', { name: 'Sign Up' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/signup');
    expect(router.state.location.search).toBe(`?proof=${TOKEN}`);
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.getByLabelText('Email')).toHaveAttribute('readonly');
    expect(calledWith(fetchMock, 'POST', `/api/address-proofs/${TOKEN}/release`)).toHaveLength(1);
  });
});

describe('/confirm-email/:token, the address is confirmed already', () => {
  it('continues to the link’s own next path when it is a path of this site', async () => {
    setToken(fakeToken());
    stubFetch({ [`GET /api/address-proofs/${TOKEN}`]: { body: proof({ state: 'confirmed', next: '/' }) } });
    renderApp(`/confirm-email/${TOKEN}?next=/share-all/abc`);
    expect(await screen.findByRole('heading', { name: 'Address confirmed' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Continue' })).toHaveAttribute('href', '/share-all/abc');
  });

  it.each(['//evil.example/x', 'https://evil.example/', '/\\evil.example'])('ignores a next of %s and uses the server’s', async (next) => {
    setToken(fakeToken());
    stubFetch({ [`GET /api/address-proofs/${TOKEN}`]: { body: proof({ state: 'confirmed' }) } });
    renderApp(`/confirm-email/${TOKEN}?next=${encodeURIComponent(next)}`);
    expect(await screen.findByRole('link', { name: 'Continue' })).toHaveAttribute('href', '/sharedMedia');
  });
});

describe('/confirm-email/:token, no account has the address yet', () => {
  it('goes to sign-up with the address fixed, and signs up with the proof', async () => {
    const fetchMock = stubFetch({
      [`GET /api/address-proofs/${TOKEN}`]: { body: proof({ state: 'signup', account: null, email: 'new@example.com' }) },
      'POST /signup': { body: { token: 'new.session.token' } },
    });
    const { router } = renderApp(`/confirm-email/${TOKEN}`);
    const email = await screen.findByLabelText('Email');
    expect(router.state.location.search).toBe(`?proof=${TOKEN}`);
    expect(router.state.historyAction).toBe('REPLACE');
    await waitFor(() => expect(email).toHaveValue('new@example.com'));
    expect(email).toHaveAttribute('readonly');

    const user = userEvent.setup();
    await user.type(email, 'changed');
    expect(email).toHaveValue('new@example.com');
    await user.type(screen.getByLabelText('Username'), 'newbie');
    await user.type(screen.getByLabelText('Password'), 'secret1{Enter}');
    await waitFor(() => expect(browser.assignLocation).toHaveBeenCalledWith('/'));
    expect(window.localStorage.getItem('token')).toBe('new.session.token');
    const [call] = calledWith(fetchMock, 'POST', '/signup');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({
      username: 'newbie',
      email: 'new@example.com',
      password: 'secret1',
      proof: TOKEN,
    });
  });

  it('signs up without the proof, address editable, when the link is not valid any more', async () => {
    const fetchMock = stubFetch({
      [`GET /api/address-proofs/${TOKEN}`]: { status: 404, body: { message: 'Unknown link.' } },
      'POST /signup': { body: { token: 't' } },
    });
    renderApp(`/signup?proof=${TOKEN}`);
    expect(await screen.findByRole('status')).toHaveTextContent('The link you opened is not valid any more.');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Username'), 'ada');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret1{Enter}');
    await waitFor(() => expect(calledWith(fetchMock, 'POST', '/signup')).toHaveLength(1));
    const [call] = calledWith(fetchMock, 'POST', '/signup');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ username: 'ada', email: 'ada@example.com', password: 'secret1' });
  });
});

describe('/confirm-email/:token, the link is unknown, used or expired', () => {
  it('says so and offers to sign in', async () => {
    stubFetch({ [`GET /api/address-proofs/${TOKEN}`]: { status: 404, body: { message: 'Unknown link.' } } });
    renderApp(`/confirm-email/${TOKEN}`);
    expect(await screen.findByText(INVALID_LINK_TEXT)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/signin');
    expect(screen.queryByRole('button', { name: 'Send me a new link' })).not.toBeInTheDocument();
  });

  it('lets a signed-in, unconfirmed person ask for a new link', async () => {
    setToken(fakeToken());
    const fetchMock = stubFetch({
      [`GET /api/address-proofs/${TOKEN}`]: { status: 404, body: { message: 'Unknown link.' } },
      'GET /api/users/me': { body: makeMe({ emailConfirmed: false }) },
      'POST /api/address-confirmation/resend': { body: { message: 'We sent a new link to alice@example.com.' } },
    });
    renderApp(`/confirm-email/${TOKEN}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Send me a new link' }));
    expect(await screen.findByText('We sent a new link to alice@example.com.')).toBeInTheDocument();
    expect(calledWith(fetchMock, 'POST', '/api/address-confirmation/resend')).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Go to the gallery' })).toHaveAttribute('href', '/');
  });

  it('offers to try again when the server could not be asked', async () => {
    let answers = 0;
    stubFetch({
      [`GET /api/address-proofs/${TOKEN}`]: () => (++answers === 1 ? { status: 502, body: null } : { body: proof({ state: 'confirmed' }) }),
    });
    renderApp(`/confirm-email/${TOKEN}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Address confirmed' })).toBeInTheDocument();
  });

  it('is a page of its own: no search box, no breadcrumbs, no notice', async () => {
    setToken(fakeToken());
    stubFetch({
      [`GET /api/address-proofs/${TOKEN}`]: { status: 404, body: { message: 'Unknown link.' } },
      'GET /api/users/me': { body: makeMe({ emailConfirmed: false }) },
    });
    renderApp(`/confirm-email/${TOKEN}`);
    const heading = await screen.findByRole('heading', { name: 'Link not valid' });
    expect(within(heading.closest('section')!).getByText(INVALID_LINK_TEXT)).toBeInTheDocument();
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: /breadcrumb/i })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'E-mail confirmation' })).not.toBeInTheDocument();
  });
});
