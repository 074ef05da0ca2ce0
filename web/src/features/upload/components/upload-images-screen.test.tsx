import { createHash } from 'node:crypto';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { texts } from '@photo/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getToken, setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { renderApp } from '@/testing/render-app';
import { fingerprintOf } from '../api/unfinished-uploads';
import { rememberUpload, stubTusServer } from '../testing/fake-tus-server';

const file = (name: string, bytes = 4, type = 'image/jpeg') => new File([name.padEnd(bytes, '#').slice(0, bytes)], name, { type, lastModified: 1_700_000_000_000 });
const sha256 = async (blob: Blob) => createHash('sha256').update(new Uint8Array(await blob.arrayBuffer())).digest('hex');

/** The API beside tus: the check call answers `known` as already in the library. */
function stubApi(known: string[] = []) {
  return stubFetch({
    'POST /api/uploads/check': ({ init }) => {
      const { files } = JSON.parse(String(init?.body)) as { files: { sha256: string }[] };
      return { body: { known: files.filter((f) => known.includes(f.sha256)).map((f) => ({ sha256: f.sha256, imageId: '3' })) } };
    },
  });
}

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
    stubApi();
    const server = stubTusServer();
    renderApp('/uploadImages');
    expect(await screen.findByRole('heading', { name: 'Upload Images' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Upload' }));
    expect(screen.getByRole('alert')).toHaveTextContent(texts.UPLOAD_EMPTY);
    expect(server.requests).toHaveLength(0);
  });

  it('takes several images (HEIC too) and lists their names', async () => {
    setToken(fakeToken());
    stubApi();
    renderApp('/uploadImages');
    const picker = await screen.findByLabelText('Images');
    expect(picker).toHaveAttribute('accept', 'image/*,.heic,.heif');
    expect(picker).toHaveAttribute('multiple');
    await userEvent.upload(picker, [file('one.jpg'), file('two.heic')]);
    const list = screen.getByRole('list', { name: 'Selected images' });
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['one.jpg', 'two.heic']);
  });

  it('sends each file as a resumable upload with the token, shows its progress and the whole, then goes to /profile', async () => {
    setToken(fakeToken());
    stubApi();
    const server = stubTusServer();
    server.patchPlan = () => 'hold';
    const { router } = await chooseAndUpload([file('one.jpg'), file('two.jpg')]);
    expect(screen.getByRole('button', { name: texts.UPLOADING })).toBeDisabled();

    await waitFor(() => expect(server.pending().filter((request) => request.method === 'PATCH')).toHaveLength(2));
    const [one, two] = server.pending();
    expect(server.requests.every((request) => request.headers['Authorization'] === `Bearer ${getToken()}`)).toBe(true);
    expect(server.sent('POST').map((request) => request.headers['Upload-Metadata'])).toEqual([
      expect.stringContaining(`filename ${btoa('one.jpg')}`),
      expect.stringContaining(`filename ${btoa('two.jpg')}`),
    ]);

    act(() => {
      one!.progress(4);
      two!.progress(2);
    });
    await waitFor(() => expect(screen.getByRole('progressbar', { name: 'two.jpg' })).toHaveAttribute('aria-valuenow', '50'));
    expect(rowOf('two.jpg')).toHaveTextContent('50%');
    expect(screen.getByRole('progressbar', { name: 'one.jpg' })).toHaveAttribute('aria-valuenow', '100');
    expect(rowOf('one.jpg')).toHaveTextContent('Processing...');
    expect(screen.getByRole('progressbar', { name: 'All files' })).toHaveAttribute('aria-valuenow', '75');
    expect(screen.getByText(/^6 bytes of 8 bytes/)).toBeInTheDocument();

    act(() => {
      server.receive(one!);
      server.receive(two!);
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(await screen.findByText('2 images uploaded.')).toBeInTheDocument();
  });

  it('reports photos the library already has at once, without sending them', async () => {
    setToken(fakeToken());
    const again = file('again.jpg');
    stubApi([await sha256(again)]);
    const server = stubTusServer();
    server.patchPlan = () => 'hold';
    await chooseAndUpload([again, file('new.jpg')]);
    await waitFor(() => expect(rowOf('again.jpg')).toHaveTextContent('Already in your library'));
    expect(server.sent('POST')).toHaveLength(1);
    expect(server.sent('POST')[0]!.headers['Upload-Metadata']).toContain(btoa('new.jpg'));
    act(() => server.receive(server.pending()[0]!));
    expect(await screen.findByText('1 image uploaded, 1 already in your library.')).toBeInTheDocument();
  });

  it('pauses and resumes', async () => {
    setToken(fakeToken());
    stubApi();
    const server = stubTusServer();
    server.patchPlan = () => 'hold';
    const { user, router } = await chooseAndUpload([file('long.jpg', 100)]);
    await waitFor(() => expect(server.pending()).toHaveLength(1));
    act(() => server.pending()[0]!.progress(30));

    await user.click(screen.getByRole('button', { name: 'Pause' }));
    expect(rowOf('long.jpg')).toHaveTextContent('Paused at 30%');
    expect(screen.getByText(/paused/)).toBeInTheDocument();
    expect(server.pending()).toHaveLength(0);
    [...server.uploads.values()][0]!.offset = 30;

    server.patchPlan = () => 'answer';
    await user.click(screen.getByRole('button', { name: 'Resume' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(server.sent('PATCH').map((request) => request.headers['Upload-Offset'])).toEqual(['0', '30']);
  });

  it('offers to continue unfinished uploads: the same files picked again continue where they stopped', async () => {
    setToken(fakeToken({ id: 'u1' }));
    stubApi();
    const server = stubTusServer();
    const big = file('big.jpg', 100);
    const earlier = server.seed({ filename: 'big.jpg' }, 100, 70);
    rememberUpload(fingerprintOf({ sha256: await sha256(big), size: big.size }, 'u1'), earlier);
    const { router } = renderApp('/uploadImages');
    const offer = await screen.findByRole('region', { name: 'Unfinished uploads' });
    expect(offer).toHaveTextContent('1 unfinished upload: big.jpg.');
    expect(offer).toHaveTextContent('Choose the same files again');

    const click = vi.spyOn(HTMLInputElement.prototype, 'click').mockImplementation(() => {});
    await userEvent.click(within(offer).getByRole('button', { name: 'Resume' }));
    expect(click).toHaveBeenCalled();
    // The person picks the file again: it starts at once, from the server's offset.
    await userEvent.upload(screen.getByLabelText('Images'), big);
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(server.requests.map((request) => [request.method, request.headers['Upload-Offset'] ?? null, request.bodySize])).toEqual([
      ['HEAD', null, 0],
      ['PATCH', '70', 30],
    ]);
  });

  it('discards unfinished uploads on request', async () => {
    setToken(fakeToken({ id: 'u1' }));
    stubApi();
    const server = stubTusServer();
    const earlier = server.seed({ filename: 'old.jpg' }, 100, 70);
    const old = file('old.jpg', 100);
    rememberUpload(fingerprintOf({ sha256: await sha256(old), size: old.size }, 'u1'), earlier);
    renderApp('/uploadImages');
    await userEvent.click(within(await screen.findByRole('region', { name: 'Unfinished uploads' })).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Unfinished uploads' })).not.toBeInTheDocument());
    expect(server.sent('DELETE')).toHaveLength(1);
    expect(server.uploads.size).toBe(0);
  });

  it('takes the photos of a picked folder, leaving other files out', async () => {
    setToken(fakeToken());
    stubApi();
    renderApp('/uploadImages');
    const folder = await screen.findByLabelText('Pick a folder');
    expect(folder).toHaveAttribute('webkitdirectory');
    await userEvent.upload(folder, [file('trip/a.jpg'), file('trip/notes.txt', 4, 'text/plain'), file('trip/b.HEIC', 4, '')], { applyAccept: false });
    expect(within(screen.getByRole('list', { name: 'Selected images' })).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'trip/a.jpg',
      'trip/b.HEIC',
    ]);
    expect(screen.getByText('1 file that is not an image was left out.')).toBeInTheDocument();
  });

  it('takes photos dropped anywhere on the page', async () => {
    setToken(fakeToken());
    stubApi();
    renderApp('/uploadImages');
    await screen.findByLabelText('Images');
    const dataTransfer = { types: ['Files'], items: [], files: [file('dropped.jpg'), file('readme.md', 4, 'text/markdown')] };
    fireEvent(window, Object.assign(new Event('dragover', { cancelable: true }), { dataTransfer }));
    const drop = Object.assign(new Event('drop', { cancelable: true }), { dataTransfer });
    fireEvent(window, drop);
    expect(drop.defaultPrevented).toBe(true);
    expect(await screen.findByRole('list', { name: 'Selected images' })).toHaveTextContent('dropped.jpg');
    expect(screen.getByRole('list', { name: 'Selected images' })).not.toHaveTextContent('readme.md');
  });

  it('shows each file’s outcome when some are refused, and stays there with a way to the profile', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    setToken(fakeToken());
    const again = file('again.jpg');
    stubApi([await sha256(again)]);
    const server = stubTusServer();
    server.outcome = (upload) => (upload.metadata['filename'] === 'notes.jpg' ? { status: 'refused', reason: 'Not an image.' } : { status: 'kept', imageId: '7' });
    const { router, user } = await chooseAndUpload([file('new.jpg'), again, file('notes.jpg')], { advanceTimers: vi.advanceTimersByTime });
    expect(await screen.findByRole('status')).toHaveTextContent('1 image uploaded, 1 already in your library, 1 refused.');
    expect(rowOf('new.jpg')).toHaveTextContent('Uploaded');
    expect(rowOf('again.jpg')).toHaveTextContent('Already in your library');
    expect(rowOf('notes.jpg')).toHaveTextContent('Refused: Not an image.');

    // The reasons are nowhere else: the page does not leave by itself while they are shown.
    act(() => vi.advanceTimersByTime(60_000));
    expect(router.state.location.pathname).toBe('/uploadImages');
    expect(rowOf('notes.jpg')).toHaveTextContent('Refused: Not an image.');
    await user.click(screen.getByRole('link', { name: 'Go to Profile' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
  });

  it('stays with the reasons and the upload error when every file is refused', async () => {
    setToken(fakeToken());
    stubApi();
    const server = stubTusServer();
    server.refuseCreation = () => ({ status: 415, body: { message: 'Only images can be uploaded.' } });
    const { router } = await chooseAndUpload([file('a.txt'), file('b.txt')]);
    expect(await screen.findByRole('alert')).toHaveTextContent(texts.UPLOAD_FAILED);
    expect(rowOf('a.txt')).toHaveTextContent('Refused: Only images can be uploaded.');
    expect(rowOf('b.txt')).toHaveTextContent('Refused: Only images can be uploaded.');
    expect(router.state.location.pathname).toBe('/uploadImages');
  });

  it('says so, once every try failed, when the connection stays away', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setToken(fakeToken());
    stubApi();
    const server = stubTusServer();
    server.patchPlan = () => ({ fail: 'network' });
    const files = Array.from({ length: 5 }, (_, index) => file(`img-${index}.jpg`, 12));
    await chooseAndUpload(files, { advanceTimers: vi.advanceTimersByTime });
    await waitFor(() => expect(rowOf('img-0.jpg')).toHaveTextContent(/trying again/));
    await act(() => vi.advanceTimersByTimeAsync(10 * 60_000));
    expect(await screen.findByRole('alert')).toHaveTextContent(texts.UPLOAD_FAILED);
    expect(rowOf('img-4.jpg')).toHaveTextContent('Not uploaded');
    expect(server.sent('POST')).toHaveLength(3);
    expect(screen.getByRole('button', { name: 'Upload' })).toBeEnabled();
    // What went up is offered to be continued.
    expect(screen.getByRole('region', { name: 'Unfinished uploads' })).toHaveTextContent('3 unfinished uploads');
  });

  it('ends the session on a 401, like every other call', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setToken(fakeToken());
    stubApi();
    const server = stubTusServer();
    server.refuseCreation = () => ({ status: 401, body: { message: 'Session expired.' } });
    const { router } = await chooseAndUpload([file('a.jpg')]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin'));
    expect(getToken()).toBeNull();
    expect(console.log).toHaveBeenCalledWith(texts.SESSION_EXPIRED);
  });
});
