import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { texts } from '@photo/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_RELOAD_GUARD_MS, CHUNK_RELOAD_KEY, isChunkLoadError } from './chunk-load';
import { AppErrorFallback } from './error-fallback';
import { lazyScreen } from './routes';

vi.mock('@/lib/browser', () => ({ assignLocation: vi.fn(), reloadPage: vi.fn() }));
const browser = await import('@/lib/browser');

const chunkError = () => new TypeError('Failed to fetch dynamically imported module: http://localhost/assets/profile-screen-joT9i-aJ.js');

/** A route whose screen is lazily loaded by `load`, under the app's error screen. */
function renderLazyRoute(load: () => Promise<never>) {
  const router = createMemoryRouter([{ path: '/', element: lazyScreen(load), errorElement: <AppErrorFallback /> }]);
  render(<RouterProvider router={router} />);
}

beforeEach(() => {
  vi.mocked(browser.reloadPage).mockClear();
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  window.sessionStorage.clear();
  vi.restoreAllMocks();
});

describe('a screen whose code fails to load', () => {
  it('reloads the page once by itself, showing the spinner meanwhile', async () => {
    renderLazyRoute(() => Promise.reject(chunkError()));
    await vi.waitFor(() => expect(browser.reloadPage).toHaveBeenCalledTimes(1));
    expect(window.sessionStorage.getItem(CHUNK_RELOAD_KEY)).not.toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    expect(screen.queryByText(texts.APP_ERROR_TITLE)).not.toBeInTheDocument();
  });

  it('after a reload that did not cure it, shows the error screen with Reload instead of reloading again', async () => {
    window.sessionStorage.setItem(CHUNK_RELOAD_KEY, String(Date.now() - 2000));
    renderLazyRoute(() => Promise.reject(chunkError()));
    expect(await screen.findByRole('heading', { level: 1, name: texts.APP_ERROR_TITLE })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('Failed to fetch dynamically imported module');
    expect(screen.getByText(/could not be loaded/)).toBeInTheDocument();
    expect(browser.reloadPage).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(browser.reloadPage).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('link', { name: 'Back to the gallery' })).toHaveAttribute('href', '/');
  });

  it('reloads by itself again once the last reload is long past', async () => {
    window.sessionStorage.setItem(CHUNK_RELOAD_KEY, String(Date.now() - CHUNK_RELOAD_GUARD_MS - 1));
    renderLazyRoute(() => Promise.reject(chunkError()));
    await vi.waitFor(() => expect(browser.reloadPage).toHaveBeenCalledTimes(1));
  });

  it('does not reload by itself while offline (the browser would show its own error page), but does once back online', async () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    renderLazyRoute(() => Promise.reject(chunkError()));
    expect(await screen.findByRole('button', { name: 'Reload' })).toBeInTheDocument();
    expect(browser.reloadPage).not.toHaveBeenCalled();
    onLine.mockReturnValue(true);
    // The screen listens from its effect, which React may run a moment after the button shows
    // (the clean-clone CI once sent the event first): sent again until heard. Once it is, the
    // reload guard keeps any later one from reloading a second time.
    await vi.waitFor(() => {
      window.dispatchEvent(new Event('online'));
      expect(browser.reloadPage).toHaveBeenCalledTimes(1);
    });
  });

  it('does not reload by itself for other failures, but offers Reload', async () => {
    renderLazyRoute(() => Promise.reject(new Error('Boom while loading')));
    expect(await screen.findByText('Boom while loading')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
    expect(browser.reloadPage).not.toHaveBeenCalled();
  });

  it('recognises how Chromium, Firefox and Safari word it', () => {
    expect(isChunkLoadError(chunkError())).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module: http://x/a.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Request failed with status 500'))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
  });
});

describe('the error screen', () => {
  it('offers no Reload for an unknown path (404)', async () => {
    const router = createMemoryRouter([{ path: '/', element: <p>home</p>, errorElement: <AppErrorFallback /> }], { initialEntries: ['/nowhere'] });
    render(<RouterProvider router={router} />);
    expect(await screen.findByText('404 Not Found')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reload' })).not.toBeInTheDocument();
  });
});
