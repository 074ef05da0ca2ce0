import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { texts } from '@photo/contract';
import { Button, LinkButton } from '@/components/ui/button';
import { FormError, FormSuccess, TextField } from '@/components/ui/form-field';
import { Page, PageHeading } from '@/components/ui/page';
import { paths } from '@/config/paths';
import { UploadFileList } from './upload-file-list';
import { anyTaken, reportMessage } from './upload-report';
import { useBatchUpload } from './use-batch-upload';

/** Time to read which files were refused before the profile opens. */
export const REDIRECT_AFTER_REFUSALS_MS = 5000;

/** Spec §2 "Upload images": pick images, send them in batches with per-file progress, then the profile. */
export function UploadImagesScreen() {
  const navigate = useNavigate();
  const [files, setFiles] = useState<File[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [redirecting, setRedirecting] = useState(false);
  const upload = useBatchUpload();

  useEffect(() => {
    if (!redirecting) return;
    const timer = setTimeout(() => void navigate(paths.profile.getHref()), REDIRECT_AFTER_REFUSALS_MS);
    return () => clearTimeout(timer);
  }, [redirecting, navigate]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (files.length === 0) return setError(texts.UPLOAD_EMPTY);
    setError(null);
    setSuccess(null);
    const report = await upload.start(files);
    if (!report) return;
    // Spec §8: a failed connection or server, or nothing at all taken, is the one upload error.
    if (report.stopped || !anyTaken(report)) return setError(texts.UPLOAD_FAILED);
    const message = reportMessage(report);
    toast.success(message);
    if (report.refused === 0) return void navigate(paths.profile.getHref());
    // Some files were refused: show why, then go on to the profile (spec §2) unless asked to stay.
    setSuccess(message);
    setRedirecting(true);
  };

  return (
    <Page className="max-w-xl">
      <PageHeading>Upload Images</PageHeading>
      <form onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-5 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <TextField
          label="Images"
          name="images"
          type="file"
          // Spec §5: images only. HEIC/HEIF are named as well: some browsers do not count them as image/*.
          accept="image/*,.heic,.heif"
          multiple
          disabled={upload.running}
          onChange={(event) => {
            setFiles(Array.from(event.target.files ?? []));
            setError(null);
            setSuccess(null);
            setRedirecting(false);
          }}
          className="file:mr-3 file:rounded-md file:border-0 file:bg-indigo-50 file:px-3 file:py-1 file:text-indigo-700"
        />
        {files.length > 0 ? <UploadFileList files={files} progress={upload.progress} /> : null}
        <FormError>{error}</FormError>
        {success ? (
          <div className="flex flex-col gap-3">
            <FormSuccess>{success}</FormSuccess>
            {redirecting ? (
              <p className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
                Opening your profile in a few seconds.
                <Button variant="ghost" onClick={() => setRedirecting(false)}>
                  Stay on this page
                </Button>
              </p>
            ) : null}
            <LinkButton to={paths.profile.getHref()}>Go to Profile</LinkButton>
          </div>
        ) : null}
        <Button type="submit" disabled={upload.running}>
          {upload.running ? texts.UPLOADING : 'Upload'}
        </Button>
      </form>
    </Page>
  );
}
