import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { renderApp } from '@/testing/render-app';
import { queryFromPathname } from './search-box';

vi.mock('@/lib/browser', () => ({ assignLocation: vi.fn(), reloadPage: vi.fn() }));
const browser = await import('@/lib/browser');

function signedIn(me: { name: string; image: string | null } = { name: 'Ada Lovelace', image: null }, role: 'admin' | 'user' = 'user') {
  setToken(fakeToken({ username: 'ada', role }));
  return stubFetch({
    'GET /breadcrumbs': { body: {} },
    'GET /api/users/me': { body: { ...me, role, email: 'ada@example.com', emailConfirmed: true } },
  });
}

async function mainMenuLinks() {
  await userEvent.click(screen.getByRole('button', { name: 'Menu' }));
  const nav = screen.getByRole('navigation', { name: 'Main menu' });
  return within(nav).getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')]);
}

const searchBox = () => screen.getByRole('searchbox', { name: 'Search photos by tag' });

describe('search box', () => {
  it('shows the decoded query on a /search/ path', async () => {
    signedIn();
    renderApp('/search/red%20car');
    expect(searchBox()).toHaveValue('red car');
  });

  it('is cleared on other paths', async () => {
    signedIn();
    const { router } = renderApp('/search/dogs');
    expect(searchBox()).toHaveValue('dogs');
    await router.navigate('/profile');
    await waitFor(() => expect(searchBox()).toHaveValue(''));
  });

  it('navigates to /search/{encoded} on Enter with trimmed text', async () => {
    signedIn();
    const { router } = renderApp('/');
    await userEvent.type(searchBox(), '  beach & sun {Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/search/beach%20%26%20sun'));
  });

  it('ignores empty and whitespace-only text', async () => {
    signedIn();
    const { router } = renderApp('/');
    await userEvent.type(searchBox(), '   {Enter}');
    expect(router.state.location.pathname).toBe('/');
  });

  it('is hidden on the auth pages', async () => {
    signedIn();
    renderApp('/signin');
    await screen.findByRole('heading', { name: 'Sign In' });
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
  });

  it('suggests tags from 3 characters; Enter searches the highlighted best match', async () => {
    const fetchMock = signedIn();
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) => {
      const url = new URL(String(input), 'http://x');
      if (url.pathname === '/api/search/suggestions') {
        const query = url.searchParams.get('query') ?? '';
        return Response.json(['beach', 'beach house', 'bear'].filter((tag) => tag.startsWith(query)));
      }
      return answer(input, init);
    });
    const { router } = renderApp('/');
    const user = userEvent.setup();
    await user.type(searchBox(), 'be');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    const asked = () => fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith('/api/search/suggestions'));
    expect(asked()).toEqual([]);

    await user.type(searchBox(), 'a');
    const list = await screen.findByRole('listbox', { name: 'Search suggestions' });
    expect(within(list).getAllByRole('option').map((option) => option.textContent)).toEqual(['beach', 'beach house', 'bear']);
    expect(asked()).toEqual(['/api/search/suggestions?query=bea']);
    expect(within(list).getByRole('option', { name: 'beach' })).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/search/beach'));
    expect(searchBox()).toHaveValue('beach');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });

  it('moves the highlight with the arrow keys; above the first, Enter searches the text as typed', async () => {
    const fetchMock = signedIn();
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) =>
      String(input).startsWith('/api/search/suggestions') ? Response.json(['beach', 'bear']) : answer(input, init),
    );
    const { router } = renderApp('/');
    const user = userEvent.setup();
    await user.type(searchBox(), 'bea');
    const list = await screen.findByRole('listbox');
    await user.keyboard('{ArrowDown}');
    expect(within(list).getByRole('option', { name: 'bear' })).toHaveAttribute('aria-selected', 'true');
    expect(searchBox()).toHaveAttribute('aria-activedescendant', within(list).getByRole('option', { name: 'bear' }).id);
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(within(list).queryAllByRole('option', { selected: true })).toHaveLength(0);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/search/bea'));
  });

  it('a click on a suggestion searches it; Escape closes the list and keeps the text', async () => {
    const fetchMock = signedIn();
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) =>
      String(input).startsWith('/api/search/suggestions') ? Response.json(['sunset', 'sunrise']) : answer(input, init),
    );
    const { router } = renderApp('/');
    const user = userEvent.setup();
    await user.type(searchBox(), 'sun');
    await screen.findByRole('listbox');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(searchBox()).toHaveValue('sun');
    await user.type(searchBox(), 'r');
    await user.click(await screen.findByRole('option', { name: 'sunrise' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/search/sunrise'));
  });

  it('does not ask for suggestions for text longer than a tag can be (the call refuses it)', async () => {
    const fetchMock = signedIn();
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) =>
      String(input).startsWith('/api/search/suggestions') ? Response.json([]) : answer(input, init),
    );
    renderApp('/');
    const user = userEvent.setup();
    await user.click(searchBox());
    await user.paste('b'.repeat(64));
    await waitFor(() => expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain(`/api/search/suggestions?query=${'b'.repeat(64)}`));
    await user.paste('b');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const queries = fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith('/api/search/suggestions'));
    expect(queries.every((url) => new URL(url, 'http://x').searchParams.get('query')!.length <= 64)).toBe(true);
  });

  it('decodes leniently', () => {
    expect(queryFromPathname('/search/%E0%A4%A')).toBe('%E0%A4%A');
    expect(queryFromPathname('/library')).toBe('');
  });
});

describe('welcome name and avatar', () => {
  it('shows the name from /api/users/me with initials', async () => {
    signedIn({ name: 'Ada Lovelace', image: null });
    renderApp('/');
    expect(await screen.findByText('Ada Lovelace')).toBeInTheDocument();
    expect(screen.getByTestId('initials-avatar')).toHaveTextContent('AL');
  });

  it('shows the picture when there is one', async () => {
    signedIn({ name: 'Ada', image: '/media/ada.jpg' });
    renderApp('/');
    const menu = screen.getByRole('button', { name: 'Profile menu' });
    await waitFor(() => expect(within(menu).getByRole('img')).toHaveAttribute('src', '/media/ada.jpg'));
    expect(screen.queryByTestId('initials-avatar')).not.toBeInTheDocument();
  });
});

describe('menus', () => {
  it('open from the keyboard, list the links, and close on Escape', async () => {
    signedIn();
    renderApp('/');
    const user = userEvent.setup();
    const menuButton = screen.getByRole('button', { name: 'Menu' });
    expect(menuButton).toHaveAttribute('aria-expanded', 'false');
    menuButton.focus();
    await user.keyboard('{Enter}');
    expect(menuButton).toHaveAttribute('aria-expanded', 'true');
    const nav = screen.getByRole('navigation', { name: 'Main menu' });
    const hrefs = within(nav).getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')]);
    expect(hrefs).toEqual([
      ['Shared with me', '/sharedMedia'],
      ['Photos I Shared', '/users-i-sharedWith'],
      ["Photos I'm in", "/photos-i'm-in"],
      ['Trash', '/trash'],
      ['Profile', '/profile'],
      ['Manage access', '/user-access-data'],
    ]);
    await user.keyboard('{Escape}');
    expect(menuButton).toHaveAttribute('aria-expanded', 'false');
    expect(menuButton).toHaveFocus();
  });

  it('lead an admin to the tag manager too, after the spec links', async () => {
    signedIn(undefined, 'admin');
    renderApp('/');
    expect((await mainMenuLinks()).slice(-3)).toEqual([
      ['Profile', '/profile'],
      ['Manage access', '/user-access-data'],
      ['Admin tags', '/admin'],
    ]);
  });

  it('Manage access opens User Access Management', async () => {
    signedIn();
    stubFetch({
      'GET /getUserAccessData': { body: { allAccessUserData: [], restrictedAccessUserData: [] } },
      'GET /api/savedTemplates': { body: [] },
    });
    const { router } = renderApp('/');
    expect(await mainMenuLinks()).not.toContainEqual(['Admin tags', '/admin']);
    await userEvent.click(screen.getByRole('link', { name: 'Manage access' }));
    expect(await screen.findByRole('heading', { name: 'User Access Management' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/user-access-data');
  });

  it('Sign Out removes the token and reloads', async () => {
    signedIn();
    renderApp('/');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Profile menu' }));
    await user.click(screen.getByRole('button', { name: 'Sign Out' }));
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(browser.reloadPage).toHaveBeenCalled();
  });
});
