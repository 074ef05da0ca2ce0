import { useId, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { texts } from '@photo/contract';
import { Button, buttonClasses, LinkButton } from '@/components/ui/button';
import { FormError, FormSuccess, TextField } from '@/components/ui/form-field';
import { Page, PageHeading } from '@/components/ui/page';
import { paths } from '@/config/paths';
import { OverallProgress } from './overall-progress';
import { IMAGE_ACCEPT, isImageFile, useFileDrop } from './pick-files';
import { ResumeOffer } from './resume-offer';
import { UploadFileList } from './upload-file-list';
import { anyTaken, reportMessage } from './upload-report';
import { useUnfinishedUploads } from './use-unfinished-uploads';
import { useUploadQueue } from './use-upload-queue';

/**
 * Spec §2 "Upload images": pick images (or a folder, or drop them), send them resumably with per-file
 * and overall progress, then the profile. Uploads a reload or a lost server left unfinished are
 * offered to be continued.
 */
export function UploadImagesScreen() {
  const navigate = useNavigate();
  const pickerId = useId();
  const [files, setFiles] = useState<File[]>([]);
  const [leftOut, setLeftOut] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const upload = useUploadQueue();
  const { unfinished, discard } = useUnfinishedUploads(upload.running);
  /** Set by Resume: the files picked next start at once. */
  const startOnPick = useRef(false);

  const begin = async (chosen: File[]) => {
    if (chosen.length === 0) return setError(texts.UPLOAD_EMPTY);
    setError(null);
    setSuccess(null);
    const report = await upload.start(chosen);
    if (!report) return;
    // Spec §8: a file that could not be uploaded (the connection, the server), or nothing taken at all, is the one upload error.
    if (report.stopped || report.failed > 0 || !anyTaken(report)) return setError(texts.UPLOAD_FAILED);
    const message = reportMessage(report);
    toast.success(message);
    // Spec §2: after success the profile opens.
    if (report.refused === 0) return void navigate(paths.profile.getHref());
    // Some files were refused: the page stays, so that the reasons can be read (they are nowhere
    // else), and offers the way to the profile.
    setSuccess(message);
  };

  const choose = (chosen: File[], skipped = 0) => {
    setFiles(chosen);
    setLeftOut(skipped);
    setError(null);
    setSuccess(null);
    if (startOnPick.current && chosen.length > 0) void begin(chosen);
    startOnPick.current = false;
  };
  const chooseImages = (all: File[]) => {
    const images = all.filter(isImageFile);
    choose(images, all.length - images.length);
  };

  const dragging = useFileDrop(chooseImages, !upload.running);

  const resumeUnfinished = () => {
    startOnPick.current = true;
    const picker = document.getElementById(pickerId) as HTMLInputElement | null;
    picker?.addEventListener('cancel', () => (startOnPick.current = false), { once: true });
    picker?.click();
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void begin(files);
  };

  const snapshot = upload.snapshot?.files === files ? upload.snapshot : null;

  return (
    <Page className="max-w-xl">
      <PageHeading>Upload Images</PageHeading>
      {unfinished.length > 0 && !upload.running ? (
        <ResumeOffer unfinished={unfinished} onResume={resumeUnfinished} onDiscard={() => void discard()} />
      ) : null}
      <form
        onSubmit={onSubmit}
        className={`mt-4 flex flex-col gap-5 rounded-2xl bg-white p-6 shadow-sm ring-1 ${dragging ? 'ring-2 ring-indigo-500' : 'ring-slate-200'}`}
      >
        <TextField
          label="Images"
          id={pickerId}
          name="images"
          type="file"
          accept={IMAGE_ACCEPT}
          multiple
          disabled={upload.running}
          hint="Or drop photos, or a folder of them, anywhere on this page."
          onChange={(event) => choose(Array.from(event.target.files ?? []))}
          className="file:mr-3 file:rounded-md file:border-0 file:bg-indigo-50 file:px-3 file:py-1 file:text-indigo-700"
        />
        <label className={buttonClasses('secondary', 'cursor-pointer self-start has-focus-visible:outline-2 has-focus-visible:outline-indigo-600')}>
          Pick a folder
          <input
            type="file"
            className="sr-only"
            multiple
            disabled={upload.running}
            // Not in React's types; Chromium, Firefox and Safari all take it.
            {...{ webkitdirectory: '' }}
            onChange={(event) => chooseImages(Array.from(event.target.files ?? []))}
          />
        </label>
        {leftOut > 0 ? (
          <p className="text-xs text-slate-500">
            {leftOut} file{leftOut === 1 ? ' that is not an image was' : 's that are not images were'} left out.
          </p>
        ) : null}
        {files.length > 0 ? <UploadFileList files={files} states={snapshot?.states ?? []} /> : null}
        {snapshot ? <OverallProgress progress={snapshot.progress} paused={snapshot.paused} /> : null}
        <FormError>{error}</FormError>
        {success ? (
          <div className="flex flex-col gap-3">
            <FormSuccess>{success}</FormSuccess>
            <LinkButton to={paths.profile.getHref()}>Go to Profile</LinkButton>
          </div>
        ) : null}
        <div className="flex gap-2">
          <Button type="submit" disabled={upload.running} className="grow">
            {upload.running ? texts.UPLOADING : 'Upload'}
          </Button>
          {upload.running ? (
            <Button variant="secondary" onClick={snapshot?.paused ? upload.resume : upload.pause}>
              {snapshot?.paused ? 'Resume' : 'Pause'}
            </Button>
          ) : null}
        </div>
      </form>
    </Page>
  );
}
