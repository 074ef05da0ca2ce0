import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { texts } from '@photo/contract';
import { describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/auth-token';
import { parseEmails } from '@/lib/share-images';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { makeImage, timelineRoutes } from '@/testing/images';
import { renderApp } from '@/testing/render-app';

type Stubs = Parameters<typeof stubFetch>[0];

function openGallery(role: 'admin' | 'user', stubs: Stubs = {}) {
  setToken(fakeToken({ role }));
  const fetchMock = stubFetch({
    ...timelineRoutes([makeImage('a'), makeImage('b'), makeImage('c')]),
    ...stubs,
  });
  const view = renderApp('/');
  return { ...view, fetchMock, user: userEvent.setup() };
}

const shareBodies = (mock: ReturnType<typeof stubFetch>) =>
  mock.mock.calls.filter(([url]) => String(url) === '/api/share-restricted').map(([, init]) => JSON.parse(String(init?.body)) as unknown);

describe('parseEmails', () => {
  it('splits on commas, trims and drops empty entries', () => {
    expect(parseEmails(' ann@example.com,cy@example.com , ,  ')).toEqual(['ann@example.com', 'cy@example.com']);
    expect(parseEmails('   ')).toEqual([]);
  });
});

describe('gallery sharing', () => {
  it('shows All Access only to an admin, leading to /all-access', async () => {
    const { user, router } = openGallery('admin');
    await screen.findByRole('checkbox', { name: 'Select photo-a.jpg' });
    await user.click(screen.getByRole('link', { name: 'All Access' }));
    expect(router.state.location.pathname).toBe('/all-access');
  });

  it('has no All Access for a plain user, but Selective Access', async () => {
    openGallery('user');
    await screen.findByRole('checkbox', { name: 'Select photo-a.jpg' });
    expect(screen.queryByRole('link', { name: 'All Access' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Selective Access' })).toBeInTheDocument();
  });

  it('Selective Access needs a selected image', async () => {
    const { user, fetchMock } = openGallery('user');
    await screen.findByRole('checkbox', { name: 'Select photo-a.jpg' });
    await user.click(screen.getByRole('button', { name: 'Selective Access' }));
    const dialog = screen.getByRole('dialog', { name: 'Selective Access' });
    expect(within(dialog).getByText(texts.SELECT_ONE_IMAGE)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Share' })).toBeDisabled();
    expect(shareBodies(fetchMock)).toEqual([]);
  });

  it('shares the selected images with the comma-separated, trimmed addresses and says Email sent!!', async () => {
    const { user, fetchMock } = openGallery('user', { 'POST /api/share-restricted': { body: { message: 'Shared' } } });
    await user.click(await screen.findByRole('checkbox', { name: 'Select photo-a.jpg' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select photo-c.jpg' }));
    await user.click(screen.getByRole('button', { name: 'Selective Access' }));
    const dialog = screen.getByRole('dialog', { name: 'Selective Access' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Share 2 images with' }), ' ann@example.com ,cy@example.com, ');
    await user.click(within(dialog).getByRole('button', { name: 'Share' }));

    expect(await screen.findByText(texts.EMAIL_SENT)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(shareBodies(fetchMock)).toEqual([{ imageIds: ['a', 'c'], emails: ['ann@example.com', 'cy@example.com'] }]);
  });

  it('logs a refused share and shows the server’s reason in the dialog, which stays with what was typed', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { user } = openGallery('user', { 'POST /api/share-restricted': { status: 400, body: { message: 'emails.0: Enter a valid e-mail address.' } } });
    await user.click(await screen.findByRole('checkbox', { name: 'Select photo-b.jpg' }));
    await user.click(screen.getByRole('button', { name: 'Selective Access' }));
    const dialog = screen.getByRole('dialog', { name: 'Selective Access' });
    const input = within(dialog).getByRole('textbox', { name: 'Share 1 image with' });
    await user.type(input, 'not-an-address');
    await user.click(within(dialog).getByRole('button', { name: 'Share' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('emails.0: Enter a valid e-mail address.');
    expect(logged).toHaveBeenCalledWith('Error sharing images:', expect.anything());
    expect(screen.queryByText(texts.EMAIL_SENT)).not.toBeInTheDocument();
    expect(input).toHaveValue('not-an-address');
    // Editing the addresses clears the reason, which was about the old ones.
    await user.type(input, 'x');
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows why nothing was shared when an image is not the sharer’s to share', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const reason = 'Image 1 can only be shared by the person who uploaded it, so nothing was shared.';
    const { user } = openGallery('user', { 'POST /api/share-restricted': { status: 404, body: { message: reason } } });
    await user.click(await screen.findByRole('checkbox', { name: 'Select photo-a.jpg' }));
    await user.click(screen.getByRole('button', { name: 'Selective Access' }));
    const dialog = screen.getByRole('dialog', { name: 'Selective Access' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Share 1 image with' }), 'dave@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Share' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(reason);
  });

  it('says so when the server cannot be reached', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { user, fetchMock } = openGallery('user');
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input) === '/api/share-restricted') throw new TypeError('Failed to fetch');
      return answer(input, init);
    });
    await user.click(await screen.findByRole('checkbox', { name: 'Select photo-a.jpg' }));
    await user.click(screen.getByRole('button', { name: 'Selective Access' }));
    const dialog = screen.getByRole('dialog', { name: 'Selective Access' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Share 1 image with' }), 'ann@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Share' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The server could not be reached.');
  });

  it('a share refreshes the folders of people I shared with', async () => {
    let people: { sharedWith: string; countImages: number }[] = [];
    const { user, router, fetchMock } = openGallery('user', {
      'GET /api/users-i-shared-with': () => ({ body: { sharedUsers: people, count: people.length } }),
      'POST /api/share-restricted': () => {
        people = [{ sharedWith: 'ann@example.com', countImages: 1 }];
        return { body: { message: 'Shared' } };
      },
    });
    await router.navigate('/users-i-sharedWith');
    expect(await screen.findByRole('heading', { name: texts.NOTHING_SHARED_YET })).toBeInTheDocument();
    await router.navigate('/');
    await user.click(await screen.findByRole('checkbox', { name: 'Select photo-a.jpg' }));
    await user.click(screen.getByRole('button', { name: 'Selective Access' }));
    await user.type(screen.getByRole('textbox', { name: 'Share 1 image with' }), 'ann@example.com');
    await user.click(screen.getByRole('button', { name: 'Share' }));
    await screen.findByText(texts.EMAIL_SENT);
    await router.navigate('/users-i-sharedWith');
    expect(await screen.findByRole('link', { name: /Shared With\s*ann@example\.com/ })).toHaveTextContent('Files: 1');
    expect(fetchMock.mock.calls.filter(([url]) => String(url) === '/api/users-i-shared-with')).toHaveLength(2);
  });
});
