import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { texts } from '@photo/contract';
import { describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { renderApp } from '@/testing/render-app';

/**
 * The calls behind most screens come in later issues and answer 404 today: every screen must
 * then show its honest empty or not-found state, never crash.
 */
const profile = {
  id: 'u1', username: 'ada', name: 'ada', email: 'ada@example.com', role: 'user',
  profileImage: null, image: null, bulkTags: [], emailConfirmed: true, userUploadedImages: [],
};

function signedIn(role: 'admin' | 'user' = 'user') {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  setToken(fakeToken({ role }));
  return stubFetch({ 'GET /api/profile': { body: profile } });
}

describe('screens whose calls answer 404', () => {
  it.each([
    ['/', 'No photos yet'],
    ['/library', 'No photos yet'],
    ['/random', 'No photos yet'],
    ['/sharedMedia', texts.NO_ACCESS_TITLE],
    ['/users-i-sharedWith', texts.NOTHING_SHARED_YET],
    ['/shared-photos/bob', texts.NO_IMAGES_FOR_USER],
    ['/sharedMedia/sharedWithMe/bob', texts.USER_NOT_FOUND],
    ["/photos-i'm-in", 'No photos yet'],
    ['/search/cats', texts.NO_RESULTS_TITLE],
    ['/image/abc', texts.IMAGE_NOT_FOUND],
    ['/shared/image/abc', texts.IMAGE_NOT_FOUND],
  ])('%s shows %s', async (path, heading) => {
    signedIn();
    renderApp(path);
    expect(await screen.findByRole('heading', { name: heading })).toBeInTheDocument();
  });

  it('/shared/:token says nothing was shared yet', async () => {
    signedIn();
    renderApp('/shared/tok');
    expect(await screen.findByText('No images have been shared with you yet.')).toBeInTheDocument();
  });

  it('/sharedMedia says nothing was shared', async () => {
    signedIn();
    renderApp('/sharedMedia');
    expect(await screen.findByText(texts.NO_ACCESS_TEXT)).toBeInTheDocument();
  });

  it('/sharedMedia/sharedWithMe/:userName names the sharer it could not find', async () => {
    signedIn();
    renderApp('/sharedMedia/sharedWithMe/bob');
    expect(await screen.findByText('No shared images were found for "bob".')).toBeInTheDocument();
  });

  it('/shared-photos/:userName counts 0 images', async () => {
    signedIn();
    renderApp('/shared-photos/bob');
    expect(await screen.findByText('Images: 0')).toBeInTheDocument();
  });

  it('/search/:query explains and leads back to the gallery', async () => {
    signedIn();
    renderApp('/search/cats');
    expect(await screen.findByText(texts.NO_RESULTS_TEXT)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Gallery' })).toHaveAttribute('href', '/');
  });

  it('/image/:id goes back from the error', async () => {
    signedIn();
    const { router } = renderApp('/image/abc');
    await userEvent.click(await screen.findByRole('button', { name: 'Go Back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('/image/:id says the load failed on a server error', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setToken(fakeToken());
    stubFetch({ 'GET /api/images/abc': { status: 500, body: { message: 'boom' } } });
    renderApp('/image/abc');
    expect(await screen.findByRole('heading', { name: texts.IMAGE_LOAD_FAILED })).toBeInTheDocument();
  });

  it('the gallery offers every action, and links to the shared media, all access and upload', async () => {
    signedIn('admin');
    renderApp('/');
    await screen.findByRole('heading', { name: 'No photos yet' });
    const bar = screen.getByRole('toolbar', { name: 'Gallery actions' });
    // Each opens its dialog, which explains that an image must be selected (gallery tests).
    for (const name of ['Add Tags', 'Delete', 'Selective Access', 'Show All Tags', 'Reset Filter']) {
      expect(within(bar).getByRole('button', { name })).toBeEnabled();
    }
    expect(within(bar).getByRole('link', { name: 'Shared Media' })).toHaveAttribute('href', '/sharedMedia');
    expect(within(bar).getByRole('link', { name: 'All Access' })).toHaveAttribute('href', '/all-access');
    expect(screen.getByRole('link', { name: 'Upload Images' })).toHaveAttribute('href', '/uploadImages');
  });

  it('the gallery hides All Access from a plain user', async () => {
    signedIn('user');
    renderApp('/');
    await screen.findByRole('heading', { name: 'No photos yet' });
    expect(screen.queryByRole('link', { name: 'All Access' })).not.toBeInTheDocument();
  });
});

describe('/profile', () => {
  it('shows the default avatar, username, actions and zero counts', async () => {
    signedIn();
    renderApp('/profile');
    expect(await screen.findByRole('heading', { name: 'ada' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Default avatar' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit Profile' })).toHaveAttribute('href', '/editProfile');
    expect(screen.getByRole('link', { name: 'Upload Images' })).toHaveAttribute('href', '/uploadImages');
    expect(await screen.findByRole('tab', { name: 'My Favorite Images (0)' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'My Tagged Images (0)' })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: /Uploaded Images/ })).not.toBeInTheDocument();
  });
});

describe('/user-access-data', () => {
  it('shows zero users, no templates, and saves a new template', async () => {
    const fetchMock = signedIn();
    renderApp('/user-access-data');
    expect(await screen.findByText('Total Users: 0')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'All Access Users' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Restricted Access Users' })).toBeInTheDocument();
    expect(await screen.findByText(texts.NO_TEMPLATES)).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'New Template' }));
    const dialog = screen.getByRole('dialog', { name: 'New Template' });
    await user.type(within(dialog).getByPlaceholderText('Name of the template'), 'Family');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Set as Default' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => url === '/api/emailTemplate')).toBe(true));
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/emailTemplate');
    expect(call?.[1]?.method).toBe('POST');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ templateName: 'Family', subjectEmail: '', bodyEmail: '', isDefault: true });

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('/admin', () => {
  it('shows 0 tags and the letter index to an admin', async () => {
    signedIn('admin');
    renderApp('/admin');
    expect(await screen.findByRole('heading', { name: '0 Tags' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Show All Tags' })).toBeInTheDocument();
    const index = screen.getByRole('navigation', { name: 'Tag index' });
    expect(within(index).getAllByRole('button').map((b) => b.textContent)).toEqual(['#', ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ']);
  });
});

describe('/all-access', () => {
  it('shares with one address and shows the share link', async () => {
    setToken(fakeToken({ role: 'admin' }));
    const fetchMock = stubFetch({ 'POST /api/share-all': { body: { link: 'http://server/share-all/abc123' } } });
    renderApp('/all-access');
    const input = await screen.findByPlaceholderText('Enter receiver email');
    expect(input).toHaveAttribute('type', 'email');
    await userEvent.type(input, 'bob@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Share' }));
    expect(await screen.findByText(`${window.location.origin}/share-all/abc123`)).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/share-all');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ accessTo: ['bob@example.com'] });
  });
});

describe('/share-all/:link', () => {
  it("shows 'Error: ' and the server's message", async () => {
    stubFetch({ 'GET /shared-images/dead': { status: 404, body: { message: 'This link is no longer active.' } } });
    renderApp('/share-all/dead');
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: This link is no longer active.');
  });
});
