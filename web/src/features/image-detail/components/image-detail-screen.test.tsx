import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { texts } from '@photo/contract';
import { describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { makeImage, samplePlaceholder } from '@/testing/images';
import { renderApp } from '@/testing/render-app';

const images = Object.fromEntries(['a', 'b', 'c'].map((id) => [id, makeImage(id, { placeholder: samplePlaceholder() })]));

function stubImages(extra: Parameters<typeof stubFetch>[0] = {}) {
  return stubFetch({
    ...Object.fromEntries(Object.entries(images).map(([id, image]) => [`GET /api/images/${id}`, { body: image }])),
    ...extra,
  });
}

const entry = (id: string, state?: object) => ({ pathname: `/image/${id}`, state });
const frame = () => screen.getByTestId('zoom-frame');
const zoomLevel = () => within(screen.getByRole('group', { name: 'Zoom' })).getByRole('status');

async function openImage(...entries: Parameters<typeof renderApp>) {
  const view = renderApp(...entries);
  await screen.findByRole('img', { name: /^photo-/ });
  return { ...view, user: userEvent.setup() };
}

describe('image detail (/image/:id)', () => {
  it('shows "Loading...", then the display image over its placeholder in a modal', async () => {
    setToken(fakeToken());
    let release: () => void = () => {};
    const answered = new Promise<void>((resolve) => (release = resolve));
    const fetchMock = stubImages();
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) => {
      if (input === '/api/images/a') await answered;
      return answer(input, init);
    });
    renderApp('/image/a');
    const dialog = await screen.findByRole('dialog', { name: 'Image detail' });
    expect(within(dialog).getByRole('status')).toHaveTextContent('Loading...');
    release();
    const picture = await within(dialog).findByRole('img', { name: 'photo-a.jpg' });
    expect(picture).toHaveAttribute('src', images.a!.trimmedURL);
    expect(picture.parentElement!.style.backgroundImage).toMatch(/^url\("data:image\/png/);
    expect(picture.parentElement!.style.aspectRatio).toBe('400 / 300');
  });

  it('zooms from 0.5× to 2× in steps of 0.1 and resets to 1×', async () => {
    setToken(fakeToken());
    stubImages();
    const { user } = await openImage('/image/a');
    expect(zoomLevel()).toHaveTextContent('100%');
    for (let step = 0; step < 12; step += 1) await user.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(zoomLevel()).toHaveTextContent('200%');
    expect(screen.getByRole('button', { name: 'Zoom in' })).toBeDisabled();
    expect(frame().style.transform).toContain('scale(2)');
    await user.click(screen.getByRole('button', { name: 'Reset zoom' }));
    expect(zoomLevel()).toHaveTextContent('100%');
    for (let step = 0; step < 7; step += 1) await user.click(screen.getByRole('button', { name: 'Zoom out' }));
    expect(zoomLevel()).toHaveTextContent('50%');
    expect(screen.getByRole('button', { name: 'Zoom out' })).toBeDisabled();
  });

  it('pans by dragging only above 1×, within 200 × (zoom − 1) pixels on each axis', async () => {
    setToken(fakeToken());
    stubImages();
    const { user } = await openImage('/image/a');
    const stage = screen.getByTestId('zoom-stage');
    const drag = (from: [number, number], to: [number, number]) => {
      fireEvent.pointerDown(stage, { pointerId: 1, button: 0, clientX: from[0], clientY: from[1] });
      fireEvent.pointerMove(stage, { pointerId: 1, clientX: to[0], clientY: to[1] });
      fireEvent.pointerUp(stage, { pointerId: 1, clientX: to[0], clientY: to[1] });
    };
    drag([100, 100], [150, 150]);
    expect(frame().style.transform).toBe('translate(0px, 0px) scale(1)');

    for (let step = 0; step < 5; step += 1) await user.click(screen.getByRole('button', { name: 'Zoom in' }));
    drag([100, 100], [400, 0]);
    expect(frame().style.transform).toBe('translate(100px, -100px) scale(1.5)');
    drag([0, 0], [-30, 20]);
    expect(frame().style.transform).toBe('translate(70px, -80px) scale(1.5)');
    // Zooming out pulls the picture back within the smaller limit (80px at 1.4×).
    await user.click(screen.getByRole('button', { name: 'Zoom out' }));
    await user.click(screen.getByRole('button', { name: 'Zoom out' }));
    expect(frame().style.transform).toBe('translate(60px, -60px) scale(1.3)');
  });

  it('steps through the handed list with the arrow keys, wrapping, each image starting at 1×', async () => {
    setToken(fakeToken());
    stubImages();
    const state = { ids: ['a', 'b', 'c'], origin: '/search/cats', searchText: 'cats' };
    const { router, user } = await openImage(entry('c', state));
    await user.click(screen.getByRole('button', { name: 'Zoom in' }));
    await user.keyboard('{ArrowRight}');
    expect(router.state.location.pathname).toBe('/image/a');
    expect(router.state.location.state).toMatchObject(state);
    expect(await screen.findByRole('img', { name: 'photo-a.jpg' })).toBeInTheDocument();
    expect(zoomLevel()).toHaveTextContent('100%');
    await user.keyboard('{ArrowLeft}');
    expect(router.state.location.pathname).toBe('/image/c');
    await user.click(screen.getByRole('button', { name: 'Previous image' }));
    expect(router.state.location.pathname).toBe('/image/b');
  });

  it('without a handed list, steps through the whole gallery as the server orders it', async () => {
    setToken(fakeToken());
    const fetchMock = stubImages({
      'GET /api/images/b/neighbours': { body: { previous: 'c', next: 'a' } },
    });
    const { router, user } = await openImage('/image/b');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Next image' })).toBeInTheDocument());
    await user.keyboard('{ArrowRight}');
    expect(router.state.location.pathname).toBe('/image/a');
    expect(fetchMock.mock.calls.map(([url]) => url)).toContain('/api/images/b/neighbours');
    expect(fetchMock.mock.calls.map(([url]) => url)).not.toContain('/api/gridimages');
  });

  it('ignores the keys while typing in a field', async () => {
    setToken(fakeToken());
    stubImages();
    const { router, user } = await openImage(entry('a', { ids: ['a', 'b'], origin: '/' }));
    await user.click(screen.getByPlaceholderText('Add a new tag'));
    await user.keyboard('{ArrowRight}{Escape}');
    expect(router.state.location.pathname).toBe('/image/a');
  });

  it('Escape goes back to the screen the image came from, after any stepping', async () => {
    setToken(fakeToken());
    stubImages();
    const { router, user } = await openImage(['/', entry('a', { ids: ['a', 'b'], origin: '/' })]);
    await user.keyboard('{ArrowRight}');
    expect(router.state.location.pathname).toBe('/image/b');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('opened directly, Close goes to the origin rather than out of the app', async () => {
    setToken(fakeToken());
    stubImages();
    const { router, user } = await openImage(entry('a', { ids: ['a', 'b'], origin: '/search/cats' }));
    await user.keyboard('{ArrowRight}');
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/search/cats'));
  });

  it.each([
    ['/search/cats', 'Search'],
    ['/profile?tab=favorites', 'Favorites'],
    ['/profile?tab=tagged', 'My Tagged Images'],
    ['/profile?tab=uploaded', 'Uploaded Images'],
    ['/profile', 'Profile'],
    ['/', 'Gallery'],
  ])('labels the breadcrumb after the origin %s: %s', async (origin, label) => {
    setToken(fakeToken());
    stubImages();
    await openImage(entry('a', { origin }));
    const crumbs = screen.getByRole('navigation', { name: 'Image breadcrumb' });
    expect(within(crumbs).getByRole('link', { name: label })).toHaveAttribute('href', origin);
  });

  it('says Home when the origin is unknown', async () => {
    setToken(fakeToken());
    stubImages();
    await openImage("/image/a");
    const crumbs = screen.getByRole('navigation', { name: 'Image breadcrumb' });
    expect(within(crumbs).getAllByRole('link').map((link) => link.textContent)).toEqual(['Home']);
  });

  it('overlays the image name only for an admin', async () => {
    setToken(fakeToken({ role: 'admin' }));
    stubImages();
    const { unmount } = await openImage('/image/a');
    expect(within(screen.getByTestId('zoom-stage')).getByText('photo-a.jpg')).toBeInTheDocument();
    unmount();

    setToken(fakeToken({ role: 'user' }));
    await openImage('/image/a');
    expect(screen.queryByText('photo-a.jpg')).not.toBeInTheDocument();
  });

  it("offers Share only on the person's own photos, or on any photo to an admin (DECISIONS §3)", async () => {
    setToken(fakeToken({ id: 'u2' }));
    stubImages();
    const { unmount } = await openImage('/image/a');
    expect(screen.getByRole('button', { name: /Like/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Share' })).not.toBeInTheDocument();
    unmount();

    setToken(fakeToken({ id: 'u2', role: 'admin' }));
    await openImage('/image/a');
    expect(screen.getByRole('button', { name: 'Share' })).toBeInTheDocument();
  });

  it('shares the image; Escape then closes the share dialog, not the detail', async () => {
    setToken(fakeToken());
    const fetchMock = stubImages({ 'POST /api/share-restricted': { body: { message: 'Shared.' } } });
    const { router, user } = await openImage(entry('a', { origin: '/' }));
    await user.click(screen.getByRole('button', { name: 'Share' }));
    const dialog = screen.getByRole('dialog', { name: 'Share image' });
    await user.keyboard('{Escape}');
    expect(dialog).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/image/a');

    await user.click(screen.getByRole('button', { name: 'Share' }));
    await user.type(screen.getByRole('textbox', { name: /Share 1 image with/ }), 'bob@example.com');
    await user.click(within(screen.getByRole('dialog', { name: 'Share image' })).getByRole('button', { name: 'Share' }));
    expect(await screen.findByText(texts.EMAIL_SENT)).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([url]) => url === '/api/share-restricted');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ imageIds: ['a'], emails: ['bob@example.com'] });
  });

  it.each([
    [404, texts.IMAGE_NOT_FOUND],
    [500, texts.IMAGE_LOAD_FAILED],
  ])('answers %s with "%s" and a Go Back button', async (status, message) => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setToken(fakeToken());
    stubFetch({ 'GET /api/images/x': { status, body: { message: 'no' } } });
    const { router } = renderApp(['/library', entry('x', { origin: '/library' })]);
    expect(await screen.findByRole('heading', { name: message })).toBeInTheDocument();
    await act(() => userEvent.click(screen.getByRole('button', { name: 'Go Back' })));
    await waitFor(() => expect(router.state.location.pathname).toBe('/library'));
  });
});

describe('older image detail (/shared/image/:id)', () => {
  it('shows the picture, the likes heart and the tags with the custom tags', async () => {
    setToken(fakeToken());
    const fetchMock = stubFetch({
      'GET /api/images/a': { body: makeImage('a', { tags: ['beach'], customTags: ['summer'], likes: 1 }) },
      'POST /images/a/like': { body: { likes: 2, totalLikes: 2, liked: true } },
    });
    renderApp('/shared/image/a');
    expect(await screen.findByRole('heading', { name: 'photo-a.jpg' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'photo-a.jpg' })).toHaveAttribute('src', images.a!.trimmedURL);
    expect(within(screen.getByRole('list', { name: 'Tags' })).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['#beach', '#summer']);
    expect(screen.getByText('1 Like')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Like' }));
    expect(await screen.findByText('2 Likes')).toBeInTheDocument();
    expect(JSON.parse(String(fetchMock.mock.calls.find(([url]) => url === '/images/a/like')?.[1]?.body))).toEqual({ liked: true });
  });
});
