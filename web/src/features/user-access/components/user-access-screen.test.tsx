import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { texts, type EmailTemplate } from '@photo/contract';
import { describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { renderApp } from '@/testing/render-app';

type Stubs = Parameters<typeof stubFetch>[0];

const accessData = {
  allAccessUserData: [{ _id: 'a1', accessTo: 'grandma@example.com', status: true }],
  restrictedAccessUserData: [
    { _id: 'r1', accessTo: 'ann@example.com', status: true },
    { _id: 'r2', accessTo: 'cy@example.com', status: false },
  ],
};

const template = (id: string, overrides: Partial<EmailTemplate> = {}): EmailTemplate => ({
  _id: id, templateName: `Template ${id}`, subjectEmail: `Subject ${id}`, bodyEmail: `Body ${id}`, isDefault: false, ...overrides,
});

function open(stubs: Stubs = {}) {
  setToken(fakeToken());
  const fetchMock = stubFetch({
    'GET /getUserAccessData': { body: accessData },
    'GET /api/savedTemplates': { body: [] },
    ...stubs,
  });
  renderApp('/user-access-data');
  return { fetchMock, user: userEvent.setup() };
}

const sent = (mock: ReturnType<typeof stubFetch>, method: string, path: string) =>
  mock.mock.calls
    .filter(([url, init]) => String(url) === path && init?.method === method)
    .map(([, init]) => (init?.body ? (JSON.parse(String(init.body)) as unknown) : undefined));

const section = (name: string) => screen.getByRole('region', { name });

describe('/user-access-data: access records', () => {
  it('shows the total and both lists, each person with an Active/Inactive toggle', async () => {
    open();
    expect(await screen.findByRole('heading', { name: 'User Access Management' })).toBeInTheDocument();
    expect(await screen.findByText('Total Users: 3')).toBeInTheDocument();
    const all = section('All Access Users');
    expect(within(all).getByText('grandma@example.com')).toBeInTheDocument();
    expect(within(all).getByRole('button', { name: 'grandma@example.com: Active' })).toHaveAttribute('aria-pressed', 'true');
    const restricted = section('Restricted Access Users');
    expect(within(restricted).getByRole('button', { name: 'ann@example.com: Active' })).toHaveTextContent('Active');
    expect(within(restricted).getByRole('button', { name: 'cy@example.com: Inactive' })).toHaveTextContent('Inactive');
  });

  it('sends PUT /updateUserStatus/:id {status, type} and changes the row only once the server confirms', async () => {
    let release: () => void = () => {};
    const confirmed = new Promise<void>((resolve) => (release = resolve));
    let current = accessData;
    const { fetchMock, user } = open({ 'GET /getUserAccessData': () => ({ body: current }) });
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input) === '/updateUserStatus/r1') {
        await confirmed;
        current = { ...accessData, restrictedAccessUserData: [{ ...accessData.restrictedAccessUserData[0]!, status: false }, accessData.restrictedAccessUserData[1]!] };
        return new Response(JSON.stringify({ message: 'Status updated' }), { status: 200, headers: { 'Content-Type': 'application/json' } });
      }
      return answer(input, init);
    });

    await user.click(await screen.findByRole('button', { name: 'ann@example.com: Active' }));
    expect(sent(fetchMock, 'PUT', '/updateUserStatus/r1')).toEqual([{ status: false, type: 'restrictedAccess' }]);
    // Not yet confirmed: the row still says Active.
    expect(screen.getByRole('button', { name: 'ann@example.com: Active' })).toBeInTheDocument();
    release();
    expect(await screen.findByRole('button', { name: 'ann@example.com: Inactive' })).toBeInTheDocument();
  });

  it('sends the all-access type for an all-access row', async () => {
    const { fetchMock, user } = open({ 'PUT /updateUserStatus/a1': { body: { message: 'ok' } } });
    await user.click(await screen.findByRole('button', { name: 'grandma@example.com: Active' }));
    await waitFor(() => expect(sent(fetchMock, 'PUT', '/updateUserStatus/a1')).toEqual([{ status: false, type: 'allAccess' }]));
  });

  it('only logs a refused toggle and leaves the row as it was', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { user } = open({ 'PUT /updateUserStatus/r2': { status: 500, body: { message: 'no' } } });
    await user.click(await screen.findByRole('button', { name: 'cy@example.com: Inactive' }));
    await waitFor(() => expect(logged).toHaveBeenCalledWith('Error updating user status:', expect.anything()));
    expect(screen.getByRole('button', { name: 'cy@example.com: Inactive' })).toBeEnabled();
  });
});

describe('/user-access-data: e-mail templates', () => {
  it('shows the empty text when there are no templates', async () => {
    open();
    expect(await screen.findByText(texts.NO_TEMPLATES)).toBeInTheDocument();
  });

  it('lists each template with its name, Subject:, Body: and Set as Default', async () => {
    open({ 'GET /api/savedTemplates': { body: [template('t1', { isDefault: true }), template('t2')] } });
    const first = (await screen.findByRole('heading', { name: 'Template t1' })).closest('li')!;
    expect(first).toHaveTextContent('Subject: Subject t1');
    expect(first).toHaveTextContent('Body: Body t1');
    expect(within(first).getByRole('checkbox', { name: 'Set as Default' })).toBeChecked();
    const second = screen.getByRole('heading', { name: 'Template t2' }).closest('li')!;
    expect(within(second).getByRole('checkbox', { name: 'Set as Default' })).not.toBeChecked();
  });

  it('makes a lone template that is not default the default on load, once', async () => {
    const { fetchMock } = open({
      'GET /api/savedTemplates': { body: [template('t1')] },
      'PUT /api/emailTemplate/t1/setDefault': { body: { message: 'ok' } },
    });
    await screen.findByRole('heading', { name: 'Template t1' });
    await waitFor(() => expect(sent(fetchMock, 'PUT', '/api/emailTemplate/t1/setDefault')).toHaveLength(1));
    // The list is read again after the change; the rule does not fire a second time.
    await waitFor(() => expect(fetchMock.mock.calls.filter(([url]) => String(url) === '/api/savedTemplates')).toHaveLength(2));
    expect(sent(fetchMock, 'PUT', '/api/emailTemplate/t1/setDefault')).toHaveLength(1);
  });

  it('leaves templates alone on load when there are several, or the lone one is default', async () => {
    const { fetchMock } = open({ 'GET /api/savedTemplates': { body: [template('t1'), template('t2')] } });
    await screen.findByRole('heading', { name: 'Template t2' });
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('setDefault'))).toBe(false);
  });

  it('Set as Default asks the server, and the list shows the new default after reading it again', async () => {
    let templates = [template('t1', { isDefault: true }), template('t2')];
    const { fetchMock, user } = open({
      'GET /api/savedTemplates': () => ({ body: templates }),
      'PUT /api/emailTemplate/t2/setDefault': () => {
        templates = [template('t1'), template('t2', { isDefault: true })];
        return { body: { message: 'ok' } };
      },
    });
    const second = (await screen.findByRole('heading', { name: 'Template t2' })).closest('li')!;
    await user.click(within(second).getByRole('checkbox', { name: 'Set as Default' }));
    await waitFor(() => expect(within(second).getByRole('checkbox', { name: 'Set as Default' })).toBeChecked());
    const first = screen.getByRole('heading', { name: 'Template t1' }).closest('li')!;
    expect(within(first).getByRole('checkbox', { name: 'Set as Default' })).not.toBeChecked();
    expect(sent(fetchMock, 'PUT', '/api/emailTemplate/t2/setDefault')).toEqual([undefined]);
  });

  it('New Template: the modal’s fields, close X, and Save posts the template', async () => {
    let templates: EmailTemplate[] = [];
    const { fetchMock, user } = open({
      'GET /api/savedTemplates': () => ({ body: templates }),
      'POST /api/emailTemplate': ({ init }) => {
        templates = [{ _id: 't9', ...(JSON.parse(String(init?.body)) as Omit<EmailTemplate, '_id'>), isDefault: true }];
        return { body: templates[0] };
      },
    });
    await screen.findByText(texts.NO_TEMPLATES);
    await user.click(screen.getByRole('button', { name: 'New Template' }));
    let dialog = screen.getByRole('dialog', { name: 'New Template' });
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'New Template' }));
    dialog = screen.getByRole('dialog', { name: 'New Template' });
    await user.type(within(dialog).getByPlaceholderText('Name of the template'), 'Family');
    // Pasted: user.type reads "{" as the start of a key name.
    await user.click(within(dialog).getByRole('textbox', { name: 'Subject' }));
    await user.paste('Photos from {{sender}}');
    await user.click(within(dialog).getByRole('textbox', { name: 'Body' }));
    await user.paste('See {{link}}');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Set as Default' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sent(fetchMock, 'POST', '/api/emailTemplate')).toEqual([
      { templateName: 'Family', subjectEmail: 'Photos from {{sender}}', bodyEmail: 'See {{link}}', isDefault: true },
    ]);
    expect(await screen.findByRole('heading', { name: 'Family' })).toBeInTheDocument();
  });

  it('Edit opens the modal filled in; Update sends PUT /api/emailTemplate/:id', async () => {
    let templates = [template('t1', { isDefault: true })];
    const { fetchMock, user } = open({
      'GET /api/savedTemplates': () => ({ body: templates }),
      'PUT /api/emailTemplate/t1': ({ init }) => {
        templates = [{ _id: 't1', ...(JSON.parse(String(init?.body)) as Omit<EmailTemplate, '_id'>) }];
        return { body: templates[0] };
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Edit Template t1' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Template' });
    const name = within(dialog).getByPlaceholderText('Name of the template');
    expect(name).toHaveValue('Template t1');
    expect(within(dialog).getByRole('checkbox', { name: 'Set as Default' })).toBeChecked();
    await user.clear(name);
    await user.type(name, 'Friends');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sent(fetchMock, 'PUT', '/api/emailTemplate/t1')).toEqual([
      { templateName: 'Friends', subjectEmail: 'Subject t1', bodyEmail: 'Body t1', isDefault: true },
    ]);
    expect(await screen.findByRole('heading', { name: 'Friends' })).toBeInTheDocument();
  });

  it('keeps the modal open and only logs when saving fails', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { user } = open({ 'POST /api/emailTemplate': { status: 500, body: { message: 'no' } } });
    await screen.findByText(texts.NO_TEMPLATES);
    await user.click(screen.getByRole('button', { name: 'New Template' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(logged).toHaveBeenCalledWith('Error saving template:', expect.anything()));
    expect(screen.getByRole('dialog', { name: 'New Template' })).toBeInTheDocument();
  });
});
