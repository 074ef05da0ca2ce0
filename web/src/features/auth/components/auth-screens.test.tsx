import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { texts } from '@photo/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '@/testing/fetch-stub';
import { renderApp } from '@/testing/render-app';

vi.mock('@/lib/browser', () => ({ assignLocation: vi.fn(), reloadPage: vi.fn() }));
const browser = await import('@/lib/browser');

afterEach(() => vi.useRealTimers());

async function signIn(email: string, password: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Email'), email);
  await user.type(screen.getByLabelText('Password'), `${password}{Enter}`);
}

describe('sign in', () => {
  it('has a required e-mail field, a required password and the two links', async () => {
    stubFetch();
    renderApp('/signin');
    expect(await screen.findByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Email')).toBeRequired();
    expect(screen.getByLabelText('Password')).toBeRequired();
    expect(screen.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/signup');
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password');
  });

  it('stores the token and reloads at / on success', async () => {
    const fetchMock = stubFetch({ 'POST /signin': { body: { token: 'new.token.here' } } });
    renderApp('/signin');
    await signIn('ada@example.com', 'secret1');
    await waitFor(() => expect(browser.assignLocation).toHaveBeenCalledWith('/'));
    expect(window.localStorage.getItem('token')).toBe('new.token.here');
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({ email: 'ada@example.com', password: 'secret1' });
  });

  it('says the credentials were wrong on failure', async () => {
    stubFetch({ 'POST /signin': { status: 401, body: { message: 'Invalid e-mail or password.' } } });
    renderApp('/signin');
    await signIn('ada@example.com', 'wrong');
    expect(await screen.findByRole('alert')).toHaveTextContent(texts.SIGNIN_FAILED);
    expect(browser.assignLocation).not.toHaveBeenCalled();
    expect(window.localStorage.getItem('token')).toBeNull();
  });

  it("shows the server's message on 429", async () => {
    stubFetch({ 'POST /signin': { status: 429, body: { message: texts.TOO_MANY_ATTEMPTS } } });
    renderApp('/signin');
    await signIn('ada@example.com', 'wrong');
    expect(await screen.findByRole('alert')).toHaveTextContent(texts.TOO_MANY_ATTEMPTS);
  });
});

describe('sign up', () => {
  it('shows the spec text plus the field message of a 400', async () => {
    stubFetch({
      'POST /signup': {
        status: 400,
        body: { message: 'Invalid input', issues: [{ path: 'password', message: 'Password must be at least 6 characters.' }] },
      },
    });
    renderApp('/signup');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Username'), 'ada');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'longenough{Enter}');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(texts.SIGNUP_FAILED);
    expect(alert).toHaveTextContent('Password must be at least 6 characters.');
  });
});

describe('forgot password', () => {
  it("shows the server's msg and goes to /signin after 5 seconds", async () => {
    stubFetch({ 'POST /forgot-password': { body: { message: texts.RESET_MAIL_SENT, msg: texts.RESET_MAIL_SENT } } });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { router } = renderApp('/forgot-password');
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com{Enter}');
    expect(await screen.findByText(texts.RESET_MAIL_SENT)).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(4900));
    expect(router.state.location.pathname).toBe('/forgot-password');
    act(() => vi.advanceTimersByTime(200));
    expect(router.state.location.pathname).toBe('/signin');
  });

  it("shows 'An error occurred' when the server gives no msg", async () => {
    stubFetch({ 'POST /forgot-password': { status: 500, body: { message: 'boom' } } });
    renderApp('/forgot-password');
    await userEvent.type(await screen.findByLabelText('Email'), 'ada@example.com{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(texts.GENERIC_ERROR);
  });
});

describe('reset password', () => {
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));

  async function fill(first: string, second: string) {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.type(await screen.findByLabelText('New password'), first);
    await user.type(screen.getByLabelText('Confirm new password'), `${second}{Enter}`);
  }

  it('requires both fields with at least 6 characters', async () => {
    stubFetch();
    renderApp('/reset-password/tok');
    for (const label of ['New password', 'Confirm new password']) {
      const input = await screen.findByLabelText(label);
      expect(input).toBeRequired();
      expect(input).toHaveAttribute('minLength', '6');
    }
  });

  it('says the passwords do not match and does not call the server', async () => {
    const fetchMock = stubFetch();
    renderApp('/reset-password/tok');
    await fill('secret1', 'secret2');
    expect(await screen.findByRole('alert')).toHaveTextContent(texts.PASSWORDS_DO_NOT_MATCH);
    expect(fetchMock.mock.calls.some(([url]) => url === '/reset-password')).toBe(false);
  });

  it('refuses a password shorter than 6 characters without calling the server', async () => {
    const fetchMock = stubFetch();
    renderApp('/reset-password/tok');
    await fill('abc', 'abc');
    // A browser blocks this submit by minLength already; the screen's own check covers the rest.
    expect(await screen.findByRole('alert')).toHaveTextContent('Password must be at least 6 characters.');
    expect(fetchMock.mock.calls.some(([url]) => url === '/reset-password')).toBe(false);
  });

  it('sends {token, newPassword}, shows msg, and goes to /signin after 3 seconds', async () => {
    const fetchMock = stubFetch({ 'POST /reset-password': { body: { message: 'Done', msg: texts.PASSWORD_RESET_DONE } } });
    const { router } = renderApp('/reset-password/the%20token');
    await fill('secret1', 'secret1');
    expect(await screen.findByText(texts.PASSWORD_RESET_DONE)).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([url]) => url === '/reset-password');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ token: 'the token', newPassword: 'secret1' });
    act(() => vi.advanceTimersByTime(2900));
    expect(router.state.location.pathname).toBe('/reset-password/the%20token');
    act(() => vi.advanceTimersByTime(200));
    expect(router.state.location.pathname).toBe('/signin');
  });

  it("shows the server's msg on failure", async () => {
    stubFetch({ 'POST /reset-password': { status: 400, body: { message: 'x', msg: texts.RESET_TOKEN_INVALID } } });
    renderApp('/reset-password/tok');
    await fill('secret1', 'secret1');
    expect(await screen.findByRole('alert')).toHaveTextContent(texts.RESET_TOKEN_INVALID);
  });
});
