import { useId, useState } from 'react';
import { Button, LinkButton } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { GridSkeleton, ImageGrid } from '@/components/ui/image-grid';
import { Page, PageHeading } from '@/components/ui/page';
import { paths } from '@/config/paths';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { toGridItems } from '@/lib/images';
import { useLibrary } from '../api/get-library';

/** Spec §2 "/library": a grid titled Image Library with a search box; images open /image/{id}. */
export function LibraryScreen() {
  const [text, setText] = useState('');
  const search = useDebouncedValue(text);
  const library = useLibrary(search);
  const inputId = useId();

  return (
    <Page>
      <PageHeading>Image Library</PageHeading>
      <div className="mb-6 max-w-md">
        <label htmlFor={inputId} className="sr-only">
          Search the library
        </label>
        <input
          id={inputId}
          type="search"
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder="Search by tag or name"
          className="w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm focus:border-indigo-500 focus:outline-2 focus:outline-indigo-200"
        />
      </div>
      {library.isPending ? <GridSkeleton /> : null}
      {library.isError ? (
        <EmptyState title="The library could not be loaded" action={<Button onClick={() => void library.refetch()}>Try again</Button>} />
      ) : null}
      {library.isSuccess && library.data.length === 0 ? (
        search.trim() ? (
          <EmptyState title="No matching images" text={`Nothing in the library matches "${search.trim()}".`} />
        ) : (
          <EmptyState
            title="No photos yet"
            text="Upload photos to start your library."
            action={<LinkButton to={paths.uploadImages.getHref()} variant="primary">Upload Images</LinkButton>}
          />
        )
      ) : null}
      {library.isSuccess && library.data.length > 0 ? (
        <ImageGrid label="Image Library" items={toGridItems(library.data, 'gallery', search.trim() || undefined)} />
      ) : null}
    </Page>
  );
}
