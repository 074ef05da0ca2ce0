import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ImageInfo } from '@photo/contract';
import { describe, expect, it } from 'vitest';
import { setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { makeImage } from '@/testing/images';
import { renderApp } from '@/testing/render-app';
import { exposureLine, fileSize, shutter } from './info-format';

const image = makeImage('a', { sortedAt: '2020-05-04T22:39:11.000Z', dateSource: 'taken' });

function makeInfo(overrides: Partial<ImageInfo> = {}): ImageInfo {
  return {
    _id: 'a',
    fileName: 'IMG_2927.HEIC',
    fileSize: 2_400_000,
    width: 4032,
    height: 3024,
    takenAt: '2020-05-04T18:39:11',
    takenOffset: '-04:00',
    dateSource: 'taken',
    sortedAt: '2020-05-04T22:39:11.000Z',
    camera: 'Apple iPhone 11 Pro',
    lens: 'iPhone 11 Pro back triple camera 4.25mm f/1.8',
    aperture: 1.8,
    exposureTime: 0.004,
    iso: 100,
    focalLength: 4.2,
    place: null,
    uploadedAt: '2024-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function stub(info: ImageInfo) {
  return stubFetch({
    'GET /api/images/a': { body: image },
    'GET /api/images/a/info': { body: info },
  });
}

async function openInfo(path = '/image/a') {
  const user = userEvent.setup();
  renderApp(path);
  const toggle = await screen.findByRole('button', { name: 'Info' });
  expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await user.click(toggle);
  expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const region = screen.getByRole('region', { name: 'Info' });
  await within(region).findByText('File name');
  return { region, toggle, user };
}

const infoCalls = (mock: ReturnType<typeof stubFetch>) => mock.mock.calls.filter(([url]) => url === '/api/images/a/info');

describe('the info panel of the image detail', () => {
  it('asks for the facts only once opened, and shows date, camera, exposure, size and file', async () => {
    setToken(fakeToken());
    const fetchMock = stub(makeInfo());
    renderApp('/image/a');
    await screen.findByRole('img', { name: /photo-a/ });
    expect(infoCalls(fetchMock)).toHaveLength(0);
    expect(screen.queryByRole('region', { name: 'Info' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Info' }));

    const region = screen.getByRole('region', { name: 'Info' });
    expect(within(region).getByRole('heading', { name: 'Info' })).toBeInTheDocument();
    await within(region).findByText('Apple iPhone 11 Pro');
    expect(infoCalls(fetchMock)).toHaveLength(1);
    expect(region).toHaveTextContent(/2020/);
    expect(region).toHaveTextContent('(UTC-04:00)');
    expect(region).toHaveTextContent('iPhone 11 Pro back triple camera 4.25mm f/1.8');
    expect(region).toHaveTextContent('ƒ/1.8 · 1/250 s · ISO 100 · 4.2 mm');
    expect(region).toHaveTextContent('4032 × 3024 (12.2 MP)');
    expect(region).toHaveTextContent('2.4 MB');
    expect(region).toHaveTextContent('IMG_2927.HEIC');
    // No place recorded (or not for this viewer): no map.
    expect(within(region).queryByRole('link')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Info' }));
    expect(screen.queryByRole('region', { name: 'Info' })).not.toBeInTheDocument();
  });

  it('links the place to OpenStreetMap in a new tab', async () => {
    setToken(fakeToken());
    stub(makeInfo({ place: { latitude: 43.859469, longitude: 15.503283 } }));
    const { region } = await openInfo();
    expect(region).toHaveTextContent('43.85947, 15.50328');
    const link = within(region).getByRole('link', { name: 'Open in OpenStreetMap' });
    expect(link).toHaveAttribute('href', 'https://www.openstreetmap.org/?mlat=43.85947&mlon=15.50328#map=16/43.85947/15.50328');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
  });

  it('says when the date is unknown', async () => {
    setToken(fakeToken());
    stub(makeInfo({ takenAt: null, takenOffset: null, dateSource: 'upload', camera: null, lens: null, aperture: null, exposureTime: null, iso: null, focalLength: null }));
    const { region } = await openInfo();
    expect(region).toHaveTextContent('Date unknown');
    expect(region).toHaveTextContent('Sorted by upload date');
    expect(region).toHaveTextContent('Not recorded');
    expect(region).not.toHaveTextContent('Exposure');
  });

  it('says when the date is the file’s own', async () => {
    setToken(fakeToken());
    stub(makeInfo({ takenAt: null, takenOffset: null, dateSource: 'file', sortedAt: '2012-06-15T10:30:00.000Z' }));
    const { region } = await openInfo();
    expect(region).toHaveTextContent("The file's date: no date taken was recorded.");
    expect(region).toHaveTextContent(/2012/);
  });

  it('is on the older detail view too', async () => {
    setToken(fakeToken());
    stub(makeInfo());
    const { region } = await openInfo('/shared/image/a');
    expect(region).toHaveTextContent('Apple iPhone 11 Pro');
  });
});

describe('info formats', () => {
  it('writes exposures under a second as 1/N, longer ones in seconds', () => {
    expect(shutter(1 / 493)).toBe('1/493 s');
    expect(shutter(0.3)).toBe('1/3 s');
    expect(shutter(2)).toBe('2 s');
    expect(shutter(1.5)).toBe('1.5 s');
    expect(exposureLine(makeInfo({ aperture: 2.638671875, exposureTime: null, iso: null, focalLength: 35 }))).toBe('ƒ/2.6 · 35 mm');
  });

  it('writes file sizes in MB or KB', () => {
    expect(fileSize(2_366_947)).toBe('2.4 MB');
    expect(fileSize(721_093)).toBe('721 KB');
    expect(fileSize(184)).toBe('1 KB');
  });
});
