import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToken, setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { DownloadButton } from './download-button';
import { LinkDownloads } from './link-downloads';
import { LinkDownloadsSwitch } from './link-downloads-switch';

const ticket = { url: '/downloads/tok', fileName: 'photos-2026-11-23.zip', expiresAt: '2026-11-23T00:05:00.000Z' };

function withQueries(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={client}>{children}</QueryClientProvider>);
}

/** The anchors the browser was asked to follow (href + download name). */
function spyOnSaves() {
  const saves: { href: string; download: string }[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saves.push({ href: this.getAttribute('href') ?? '', download: this.download });
  });
  return saves;
}

const bodyOf = (mock: ReturnType<typeof stubFetch>, path: string) =>
  JSON.parse(String(mock.mock.calls.find(([url]) => String(url) === path)?.[1]?.body)) as unknown;

beforeEach(() => setToken(fakeToken()));
afterEach(() => {
  clearToken();
  vi.restoreAllMocks();
});

describe('DownloadButton', () => {
  it('asks for a download URL with the session, then hands it to the browser (original)', async () => {
    const saves = spyOnSaves();
    const fetchMock = stubFetch({ 'POST /api/downloads/original': { body: { ...ticket, fileName: 'IMG_1.jpg' } } });
    withQueries(<DownloadButton kind="original" imageId="42" />);
    await userEvent.click(screen.getByRole('button', { name: 'Download original' }));
    await waitFor(() => expect(saves).toEqual([{ href: '/downloads/tok', download: 'IMG_1.jpg' }]));
    expect(bodyOf(fetchMock, '/api/downloads/original')).toEqual({ id: '42' });
    expect(new Headers(fetchMock.mock.calls[0]?.[1]?.headers).get('Authorization')).toMatch(/^Bearer /);
  });

  it('zips the selection, and says why when nothing is selected or the server refuses', async () => {
    const saves = spyOnSaves();
    let answer: { status?: number; body: unknown } = { body: ticket };
    const fetchMock = stubFetch({ 'POST /api/downloads/zip': () => answer });
    const { rerender } = withQueries(<DownloadButton kind="zip" imageIds={[]} />);
    await userEvent.click(screen.getByRole('button', { name: 'Download as zip' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please select at least one image.');
    expect(fetchMock).not.toHaveBeenCalled();

    rerender(
      <QueryClientProvider client={new QueryClient()}>
        <DownloadButton kind="zip" imageIds={['1', '2']} />
      </QueryClientProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Download as zip' }));
    await waitFor(() => expect(saves).toEqual([{ href: '/downloads/tok', download: 'photos-2026-11-23.zip' }]));
    expect(bodyOf(fetchMock, '/api/downloads/zip')).toEqual({ ids: ['1', '2'] });

    answer = { status: 404, body: { message: 'Image 2 was not found.' } };
    await userEvent.click(screen.getByRole('button', { name: 'Download as zip' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Image 2 was not found.');
    expect(saves).toHaveLength(1);
  });
});

describe('share-all link downloads', () => {
  it('offers all and one photo while the owner allows it, nothing when switched off', async () => {
    stubFetch({ 'GET /shared-images/abc/downloads': { body: { allowDownloads: true } } });
    const images = [{ _id: '7', FileName: 'beach.jpg' }];
    const { unmount } = withQueries(<LinkDownloads link="abc" images={images} />);
    expect(await screen.findByRole('link', { name: 'Download all' })).toHaveAttribute('href', '/shared-images/abc/download');
    expect(screen.getByRole('link', { name: 'beach.jpg' })).toHaveAttribute('href', '/shared-images/abc/download/7');
    unmount();

    stubFetch({ 'GET /shared-images/abc/downloads': { body: { allowDownloads: false } } });
    withQueries(<LinkDownloads link="abc" images={images} />);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('link', { name: 'Download all' })).toBeNull();
  });

  it('lets the owner switch downloads off for one all-access link', async () => {
    let allow = true;
    const fetchMock = stubFetch({
      'GET /api/access-records/downloads': () => ({ body: { records: [{ _id: '5', allowDownloads: allow }] } }),
      'PUT /api/access-records/5/downloads': ({ init }) => {
        allow = (JSON.parse(String(init?.body)) as { allow: boolean }).allow;
        return { body: { message: 'ok' } };
      },
    });
    withQueries(<LinkDownloadsSwitch recordId="5" receiver="gran@example.com" />);
    await userEvent.click(await screen.findByRole('button', { name: 'gran@example.com: downloads allowed' }));
    expect(await screen.findByRole('button', { name: 'gran@example.com: downloads off' })).toHaveAttribute('aria-pressed', 'false');
    expect(bodyOf(fetchMock, '/api/access-records/5/downloads')).toEqual({ allow: false });
  });
});
