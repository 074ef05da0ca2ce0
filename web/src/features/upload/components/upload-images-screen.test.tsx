import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { texts } from '@photo/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getToken, setToken } from '@/lib/auth-token';
import { FakeXhr, stubXhr } from '@/testing/fake-xhr';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { renderApp } from '@/testing/render-app';

const file = (name: string, bytes = 4) => new File(['x'.repeat(bytes)], name, { type: 'image/jpeg' });
const kept = (request: FakeXhr) => ({
  status: 200,
  body: { message: 'ok', results: request.fileNames().map((fileName, index) => ({ fileName, status: 'kept', imageId: `${fileName}-${index}` })) },
});

async function chooseAndUpload(files: File[], options: Parameters<typeof userEvent.setup>[0] = {}) {
  const view = renderApp('/uploadImages');
  const user = userEvent.setup(options);
  await user.upload(await screen.findByLabelText('Images'), files);
  await user.click(screen.getByRole('button', { name: 'Upload' }));
  return { ...view, user };
}

const rowOf = (name: string) => screen.getByRole('progressbar', { name }).closest('li')!;

afterEach(() => vi.useRealTimers());

describe('upload images', () => {
  it('asks for images when none are chosen', async () => {
    setToken(fakeToken());
    stubFetch();
    const xhr = stubXhr();
    renderApp('/uploadImages');
    expect(await screen.findByRole('heading', { name: 'Upload Images' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Upload' }));
    expect(screen.getByRole('alert')).toHaveTextContent(texts.UPLOAD_EMPTY);
    expect(xhr.requests).toHaveLength(0);
  });

  it('takes several images (HEIC too) and lists their names', async () => {
    setToken(fakeToken());
    stubFetch();
    renderApp('/uploadImages');
    const picker = await screen.findByLabelText('Images');
    expect(picker).toHaveAttribute('accept', 'image/*,.heic,.heif');
    expect(picker).toHaveAttribute('multiple');
    await userEvent.upload(picker, [file('one.jpg'), file('two.heic')]);
    const list = screen.getByRole('list', { name: 'Selected images' });
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['one.jpg', 'two.heic']);
  });

  it('sends the files with the token, shows each file’s progress, then goes to /profile', async () => {
    setToken(fakeToken());
    stubFetch();
    const xhr = stubXhr();
    const { router } = await chooseAndUpload([file('one.jpg'), file('two.jpg')]);
    expect(screen.getByRole('button', { name: texts.UPLOADING })).toBeDisabled();
    const [request] = xhr.requests;
    expect(request).toMatchObject({ method: 'POST', url: '/bulk-upload' });
    expect(request!.headers.Authorization).toBe(`Bearer ${getToken()}`);
    expect(request!.fileNames()).toEqual(['one.jpg', 'two.jpg']);

    // 8 bytes of files in a 12-byte request (multipart headers): 9 sent is 6 bytes of files.
    act(() => request!.progress(9, 12));
    expect(screen.getByRole('progressbar', { name: 'one.jpg' })).toHaveAttribute('aria-valuenow', '100');
    expect(rowOf('one.jpg')).toHaveTextContent('Processing...');
    expect(screen.getByRole('progressbar', { name: 'two.jpg' })).toHaveAttribute('aria-valuenow', '50');
    expect(rowOf('two.jpg')).toHaveTextContent('50%');

    act(() => request!.respond(kept(request!).status, kept(request!).body));
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(await screen.findByText('2 images uploaded.')).toBeInTheDocument();
  });

  it('sends at most 20 files per request, one request after another', async () => {
    setToken(fakeToken());
    stubFetch();
    const files = Array.from({ length: 45 }, (_, index) => file(`img-${index}.jpg`));
    let answer: (request: FakeXhr) => ReturnType<typeof kept> | undefined = () => undefined;
    const xhr = stubXhr((request) => answer(request));
    const { router } = await chooseAndUpload(files);
    // The second batch waits for the first answer.
    expect(xhr.requests).toHaveLength(1);
    answer = kept;
    act(() => xhr.requests[0]!.respond(200, kept(xhr.requests[0]!).body));
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(xhr.requests.map((request) => request.fileNames().length)).toEqual([20, 20, 5]);
    expect(xhr.requests.flatMap((request) => request.fileNames())).toEqual(files.map((f) => f.name));
  });

  it('shows each file’s outcome when some are refused, then opens the profile unless asked to stay', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    setToken(fakeToken());
    stubFetch();
    stubXhr(() => ({
      status: 200,
      body: {
        message: '1 image uploaded.',
        results: [
          { fileName: 'new.jpg', status: 'kept', imageId: '7' },
          { fileName: 'again.jpg', status: 'duplicate', imageId: '3' },
          { fileName: 'notes.jpg', status: 'refused', reason: 'Not an image.' },
        ],
      },
    }));
    const { router, user } = await chooseAndUpload([file('new.jpg'), file('again.jpg'), file('notes.jpg')], {
      advanceTimers: vi.advanceTimersByTime,
    });
    expect(await screen.findByRole('status')).toHaveTextContent('1 image uploaded, 1 already in your library, 1 refused.');
    expect(rowOf('new.jpg')).toHaveTextContent('Uploaded');
    expect(rowOf('again.jpg')).toHaveTextContent('Already in your library');
    expect(rowOf('notes.jpg')).toHaveTextContent('Refused: Not an image.');
    expect(router.state.location.pathname).toBe('/uploadImages');

    await user.click(screen.getByRole('button', { name: 'Stay on this page' }));
    act(() => vi.advanceTimersByTime(10_000));
    expect(router.state.location.pathname).toBe('/uploadImages');
  });

  it('goes on to the profile a few seconds after showing refusals', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    setToken(fakeToken());
    stubFetch();
    stubXhr(() => ({
      status: 200,
      body: { message: '', results: [{ fileName: 'a.jpg', status: 'kept' }, { fileName: 'b.jpg', status: 'refused', reason: 'Too large.' }] },
    }));
    const { router } = await chooseAndUpload([file('a.jpg'), file('b.jpg')], { advanceTimers: vi.advanceTimersByTime });
    await screen.findByText('Refused: Too large.');
    act(() => vi.advanceTimersByTime(5000));
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
  });

  it('stays with the reasons and the upload error when every file is refused', async () => {
    setToken(fakeToken());
    stubFetch();
    stubXhr(() => ({ status: 415, body: { message: 'Only images can be uploaded.' } }));
    const { router } = await chooseAndUpload([file('a.txt'), file('b.txt')]);
    expect(await screen.findByRole('alert')).toHaveTextContent(texts.UPLOAD_FAILED);
    expect(rowOf('a.txt')).toHaveTextContent('Refused: Only images can be uploaded.');
    expect(rowOf('b.txt')).toHaveTextContent('Refused: Only images can be uploaded.');
    expect(router.state.location.pathname).toBe('/uploadImages');
  });

  it.each([
    ['the connection drops', (request: FakeXhr) => request.failNetwork()],
    ['the server fails', (request: FakeXhr) => request.respond(500, { message: 'disk full' })],
  ])('says so and sends nothing more when %s', async (_case, fail) => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setToken(fakeToken());
    stubFetch();
    const xhr = stubXhr();
    const files = Array.from({ length: 25 }, (_, index) => file(`img-${index}.jpg`));
    await chooseAndUpload(files);
    act(() => fail(xhr.requests[0]!));
    expect(await screen.findByRole('alert')).toHaveTextContent(texts.UPLOAD_FAILED);
    expect(xhr.requests).toHaveLength(1);
    expect(rowOf('img-24.jpg')).toHaveTextContent('Not uploaded');
    expect(screen.getByRole('button', { name: 'Upload' })).toBeEnabled();
  });

  it('ends the session on a 401, like every other call', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setToken(fakeToken());
    stubFetch();
    stubXhr(() => ({ status: 401, body: { message: 'Session expired.' } }));
    const { router } = await chooseAndUpload([file('a.jpg')]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin'));
    expect(getToken()).toBeNull();
    expect(console.log).toHaveBeenCalledWith(texts.SESSION_EXPIRED);
  });

  it('waits as the server asks when it is busy (503 + Retry-After) and sends the batch again, without refusing the files', async () => {
    setToken(fakeToken());
    stubFetch();
    let calls = 0;
    const xhr = stubXhr((request) => {
      calls += 1;
      return calls === 1
        ? { status: 503, body: { message: 'The server is busy with other uploads.' }, headers: { 'Retry-After': '1' } }
        : kept(request);
    });
    const { router } = await chooseAndUpload([file('busy.jpg')]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'), { timeout: 4000 });
    expect(xhr.requests).toHaveLength(2);
    expect(xhr.requests[1]!.fileNames()).toEqual(['busy.jpg']);
  });
});
