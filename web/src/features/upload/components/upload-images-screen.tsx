import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { texts } from '@photo/contract';
import { Button } from '@/components/ui/button';
import { FormError, TextField } from '@/components/ui/form-field';
import { Page, PageHeading } from '@/components/ui/page';
import { paths } from '@/config/paths';
import { useBulkUpload } from '../api/bulk-upload';

export function UploadImagesScreen() {
  const navigate = useNavigate();
  const [files, setFiles] = useState<File[]>([]);
  const [error, setError] = useState<string | null>(null);
  const upload = useBulkUpload();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (files.length === 0) return setError(texts.UPLOAD_EMPTY);
    setError(null);
    upload.mutate(files, {
      onSuccess: ({ message }) => {
        toast.success(message);
        void navigate(paths.profile.getHref());
      },
      onError: (err) => {
        console.error('Error uploading images:', err);
        setError(texts.UPLOAD_FAILED);
      },
    });
  };

  return (
    <Page className="max-w-xl">
      <PageHeading>Upload Images</PageHeading>
      <form onSubmit={onSubmit} className="flex flex-col gap-5 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <TextField
          label="Images"
          name="images"
          type="file"
          accept="image/*"
          multiple
          onChange={(event) => {
            setFiles(Array.from(event.target.files ?? []));
            setError(null);
          }}
          className="file:mr-3 file:rounded-md file:border-0 file:bg-indigo-50 file:px-3 file:py-1 file:text-indigo-700"
        />
        {files.length > 0 ? (
          <div>
            <h2 className="mb-2 text-sm font-medium text-slate-700">Selected ({files.length})</h2>
            <ul aria-label="Selected images" className="max-h-64 list-inside list-disc overflow-y-auto text-sm text-slate-600">
              {files.map((file, index) => (
                <li key={`${index}-${file.name}`} className="truncate">
                  {file.name}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <FormError>{error}</FormError>
        <Button type="submit" disabled={upload.isPending}>
          {upload.isPending ? texts.UPLOADING : 'Upload'}
        </Button>
      </form>
    </Page>
  );
}
