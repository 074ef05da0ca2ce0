import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button, LinkButton } from '@/components/ui/button';
import { FormError, TextField } from '@/components/ui/form-field';
import { Page, PageHeading } from '@/components/ui/page';
import { paths } from '@/config/paths';
import { useObjectUrl } from '@/hooks/use-object-url';
import { useUpdateProfile } from '../api/update-profile';

export function EditProfileScreen() {
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [image, setImage] = useState<File | null>(null);
  const preview = useObjectUrl(image);
  const update = useUpdateProfile();
  const [fileError, setFileError] = useState<string | null>(null);

  // Spec §2: images only. The picker offers only images, but "All files" can still be chosen.
  const chooseImage = (file: File | null, input: HTMLInputElement) => {
    if (file && !file.type.startsWith('image/')) {
      setFileError('Please choose an image file.');
      setImage(null);
      input.value = '';
      return;
    }
    setFileError(null);
    setImage(file);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Spec §2: after submit it always goes to /profile, whatever happened.
    update.mutate({ username, image }, { onSettled: () => void navigate(paths.profile.getHref()) });
  };

  return (
    <Page className="max-w-xl">
      <PageHeading>Update Profile</PageHeading>
      <form onSubmit={onSubmit} className="flex flex-col gap-5 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <TextField
          label="Name"
          name="username"
          placeholder="New Username"
          autoComplete="username"
          value={username}
          onChange={(event) => setUsername(event.target.value)}
        />
        <TextField
          label="Profile Image"
          name="profileImage"
          type="file"
          accept="image/*"
          onChange={(event) => chooseImage(event.target.files?.[0] ?? null, event.target)}
          className="file:mr-3 file:rounded-md file:border-0 file:bg-indigo-50 file:px-3 file:py-1 file:text-indigo-700"
        />
        <FormError>{fileError}</FormError>
        {preview ? (
          <img src={preview} alt="Preview of the new profile image" className="size-32 rounded-full object-cover" />
        ) : null}
        <div className="flex flex-wrap justify-end gap-2">
          <LinkButton to={paths.profile.getHref()}>Cancel</LinkButton>
          <Button type="submit" disabled={update.isPending}>
            {update.isPending ? 'Updating...' : 'Update Profile'}
          </Button>
        </div>
      </form>
    </Page>
  );
}
