import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import { texts } from '@photo/contract';
import { Button, LinkButton } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { FormSuccess, TextField } from '@/components/ui/form-field';
import { Page, PageHeading } from '@/components/ui/page';
import { paths } from '@/config/paths';
import { isAdmin } from '@/lib/auth';
import { shareAllUrl, useShareAll } from '../api/share-all';

/**
 * Spec §2 All-access: share the whole library with one receiver. Only an admin may (DECISIONS §3);
 * others are told so instead of sending a call that would be refused.
 */
export function AllAccessScreen() {
  const [email, setEmail] = useState('');
  const share = useShareAll();

  if (!isAdmin()) {
    return (
      <Page>
        <EmptyState
          as="h1"
          title="All Access"
          text="Only an admin can share the whole library. Use Selective Access in the gallery to share chosen photos."
          action={<LinkButton to={paths.home.getHref()}>Go to the gallery</LinkButton>}
        />
      </Page>
    );
  }

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    share.mutate(email.trim(), {
      onSuccess: () => toast.success(texts.EMAIL_SENT),
      // Spec §8: share failures are only logged.
      onError: (error) => console.error('Error sharing all images:', error),
    });
  };

  const url = share.data ? shareAllUrl(share.data.link) : null;

  return (
    <Page className="max-w-xl">
      <PageHeading>All Access</PageHeading>
      <form onSubmit={onSubmit} className="flex flex-col gap-4 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <TextField
          label="Receiver email"
          type="email"
          name="email"
          required
          placeholder="Enter receiver email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <Button type="submit" disabled={share.isPending}>
          {share.isPending ? 'Sharing...' : 'Share'}
        </Button>
        {url ? (
          <FormSuccess>
            Share link:{' '}
            <a href={url} className="font-medium break-all text-indigo-700 underline">
              {url}
            </a>
          </FormSuccess>
        ) : null}
      </form>
    </Page>
  );
}
