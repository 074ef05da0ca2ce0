import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { texts } from '@photo/contract';
import { describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { renderApp } from '@/testing/render-app';

const files = [new File(['a'], 'one.jpg', { type: 'image/jpeg' }), new File(['b'], 'two.png', { type: 'image/png' })];

describe('upload images', () => {
  it('asks for images when none are chosen', async () => {
    setToken(fakeToken());
    const fetchMock = stubFetch();
    renderApp('/uploadImages');
    await userEvent.click(await screen.findByRole('button', { name: 'Upload' }));
    expect(screen.getByRole('alert')).toHaveTextContent(texts.UPLOAD_EMPTY);
    expect(fetchMock.mock.calls.some(([url]) => url === '/bulk-upload')).toBe(false);
  });

  it('lists the chosen files, posts them as repeated "images" and goes to /profile', async () => {
    setToken(fakeToken());
    let release: () => void = () => {};
    const answered = new Promise<void>((resolve) => (release = resolve));
    const fetchMock = stubFetch({ 'POST /bulk-upload': { body: { message: '2 images uploaded.', results: [] } } });
    const realFetch = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) => {
      if (input === '/bulk-upload') await answered;
      return realFetch(input, init);
    });
    const { router } = renderApp('/uploadImages');
    const user = userEvent.setup();
    const picker = await screen.findByLabelText('Images');
    expect(picker).toHaveAttribute('accept', 'image/*');
    await user.upload(picker, files);
    expect(screen.getByRole('list', { name: 'Selected images' })).toHaveTextContent('one.jpg');
    expect(screen.getByRole('list', { name: 'Selected images' })).toHaveTextContent('two.png');
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByRole('button', { name: texts.UPLOADING })).toBeDisabled();
    release();
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(await screen.findByText('2 images uploaded.')).toBeInTheDocument();
    const body = fetchMock.mock.calls.find(([url]) => url === '/bulk-upload')?.[1]?.body as FormData;
    expect(body.getAll('images').map((file) => (file as File).name)).toEqual(['one.jpg', 'two.png']);
  });

  it('says so when the upload fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setToken(fakeToken());
    stubFetch({ 'POST /bulk-upload': { status: 500, body: { message: 'disk full' } } });
    renderApp('/uploadImages');
    const user = userEvent.setup();
    await user.upload(await screen.findByLabelText('Images'), files);
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(texts.UPLOAD_FAILED);
  });
});
