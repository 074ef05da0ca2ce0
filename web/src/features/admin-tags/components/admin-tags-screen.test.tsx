import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { texts } from '@photo/contract';
import { describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { renderApp } from '@/testing/render-app';
import { groupTags, planTagEdit } from './group-tags';

const TAGS = ['beach', 'Bear', '2024 trip', 'city', 'apple', 'ñu'];

function stubAdmin(update: { status?: number } = {}) {
  let tags = [...TAGS];
  const fetchMock = stubFetch({
    'GET /admin-tags': () => ({ body: tags }),
    'PUT /admin/update-tag': ({ init }) => {
      if (update.status) return { status: update.status, body: { message: 'down' } };
      const { oldTagValue, newTagValue } = JSON.parse(String(init?.body)) as { oldTagValue: string; newTagValue: string };
      tags = tags.map((tag) => (tag === oldTagValue ? newTagValue : tag));
      return { body: { success: true } };
    },
    'PUT /admin/merge-tags': ({ init }) => {
      const { oldTagValue } = JSON.parse(String(init?.body)) as { oldTagValue: string };
      tags = tags.filter((tag) => tag !== oldTagValue);
      return { body: { success: true } };
    },
  });
  return fetchMock;
}

const writes = (mock: ReturnType<typeof stubFetch>) =>
  mock.mock.calls.filter(([, init]) => init?.method === 'PUT').map(([url, init]) => [String(url), JSON.parse(String(init?.body))] as const);
const groupNames = () => screen.queryAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);

describe('admin tags (/admin)', () => {
  it('tells a plain user it is for admins, and asks the server nothing', async () => {
    setToken(fakeToken({ role: 'user' }));
    const fetchMock = stubAdmin();
    renderApp('/admin');
    expect(await screen.findByText('Only an admin can manage the tag list.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.map(([url]) => String(url))).not.toContain('/admin-tags');
  });

  it('counts the tags and groups them by first letter, non-letters under #, sorted ignoring case', async () => {
    setToken(fakeToken({ role: 'admin' }));
    stubAdmin();
    renderApp('/admin');
    expect(await screen.findByRole('heading', { name: '6 Tags' })).toBeInTheDocument();
    expect(groupNames()).toEqual(['#', 'A', 'B', 'C', 'N']);
    const b = screen.getByRole('region', { name: 'B' });
    expect(within(b).getAllByRole('textbox').map((box) => (box as HTMLInputElement).value)).toEqual(['beach', 'Bear']);
    expect(within(screen.getByRole('region', { name: '#' })).getByRole('textbox')).toHaveValue('2024 trip');
  });

  it('a letter of the index shows only its tags and dims the others; again, or Show All Tags, shows all', async () => {
    setToken(fakeToken({ role: 'admin' }));
    stubAdmin();
    renderApp('/admin');
    const user = userEvent.setup();
    const index = await screen.findByRole('navigation', { name: 'Tag index' });
    expect(within(index).getAllByRole('button').map((button) => button.textContent)).toEqual(['#', ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ']);
    await user.click(within(index).getByRole('button', { name: 'B' }));
    expect(groupNames()).toEqual(['B']);
    expect(within(index).getByRole('button', { name: 'B' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(index).getByRole('button', { name: 'B' })).not.toHaveClass('opacity-40');
    expect(within(index).getByRole('button', { name: 'A' })).toHaveClass('opacity-40');
    await user.click(within(index).getByRole('button', { name: 'B' }));
    expect(groupNames()).toEqual(['#', 'A', 'B', 'C', 'N']);
    expect(within(index).getByRole('button', { name: 'A' })).not.toHaveClass('opacity-40');
    await user.click(within(index).getByRole('button', { name: '#' }));
    expect(groupNames()).toEqual(['#']);
    await user.click(screen.getByRole('button', { name: 'Show All Tags' }));
    expect(groupNames()).toEqual(['#', 'A', 'B', 'C', 'N']);
  });

  it('Enter renames a tag; unchanged text sends nothing', async () => {
    setToken(fakeToken({ role: 'admin' }));
    const fetchMock = stubAdmin();
    renderApp('/admin');
    const user = userEvent.setup();
    const city = await screen.findByRole('textbox', { name: 'Tag city' });
    await user.type(city, ' {Enter}');
    expect(writes(fetchMock)).toEqual([]);
    await user.clear(city);
    await user.type(city, 'town{Enter}');
    expect(await screen.findByText(texts.TAG_SAVED)).toBeInTheDocument();
    expect(writes(fetchMock)).toEqual([['/admin/update-tag', { oldTagValue: 'city', newTagValue: 'town' }]]);
    expect(await screen.findByRole('textbox', { name: 'Tag town' })).toBeInTheDocument();
    expect(groupNames()).toEqual(['#', 'A', 'B', 'N', 'T']);
  });

  it('text equal to another tag, ignoring case, merges into it and the edited tag disappears', async () => {
    setToken(fakeToken({ role: 'admin' }));
    const fetchMock = stubAdmin();
    renderApp('/admin');
    const user = userEvent.setup();
    const beach = await screen.findByRole('textbox', { name: 'Tag beach' });
    await user.clear(beach);
    await user.type(beach, 'BEAR{Enter}');
    expect(await screen.findByText(texts.TAGS_MERGED)).toBeInTheDocument();
    expect(writes(fetchMock)).toEqual([['/admin/merge-tags', { oldTagValue: 'beach', existingTagValue: 'Bear' }]]);
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Tag beach' })).not.toBeInTheDocument());
    expect(screen.getByRole('heading', { name: '5 Tags' })).toBeInTheDocument();
  });

  it('says "Error updating tag!" when the server refuses, and puts the old text back', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setToken(fakeToken({ role: 'admin' }));
    stubAdmin({ status: 500 });
    renderApp('/admin');
    const user = userEvent.setup();
    const city = await screen.findByRole('textbox', { name: 'Tag city' });
    await user.clear(city);
    await user.type(city, 'town{Enter}');
    expect(await screen.findByText(texts.TAG_UPDATE_FAILED)).toBeInTheDocument();
    await waitFor(() => expect(city).toHaveValue('city'));
  });

  it('plans edits and groups', () => {
    expect(planTagEdit('beach', ' beach ', TAGS)).toEqual({ kind: 'none' });
    expect(planTagEdit('beach', 'Beach', TAGS)).toEqual({ kind: 'rename', to: 'Beach' });
    expect(planTagEdit('beach', 'APPLE', TAGS)).toEqual({ kind: 'merge', into: 'apple' });
    expect([...groupTags(['zoo', '北京', 'éclair']).keys()]).toEqual(['E', 'Z', '#']);
  });
});
