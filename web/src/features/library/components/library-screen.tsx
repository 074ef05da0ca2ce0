import { useCallback, useId, useMemo, useState } from 'react';
import { texts } from '@photo/contract';
import { Button, LinkButton } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { GridSkeleton } from '@/components/ui/grid-skeleton';
import { ImageGrid } from '@/components/ui/image-grid';
import { Page, PageHeading } from '@/components/ui/page';
import { paths } from '@/config/paths';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { useDetailLinkState } from '@/hooks/use-detail-link-state';
import { useInfiniteScroll } from '@/hooks/use-infinite-scroll';
import { toGridItems, uniqueImages } from '@/lib/images';
import { useLibrary, useLibrarySearch } from '../api/get-library';

/** Spec §2 "/library": a grid titled Image Library with a search box; images open /image/{id}. */
export function LibraryScreen() {
  const [text, setText] = useState('');
  const search = useDebouncedValue(text).trim();
  const inputId = useId();
  const library = useLibrary();
  const found = useLibrarySearch(search);
  const searching = search !== '';

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = library;
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  useInfiniteScroll(!searching && hasNextPage && !isFetchingNextPage, loadMore);

  const pages = library.data?.pages;
  const images = useMemo(() => (searching ? (found.data ?? []) : uniqueImages(pages ?? [])), [searching, found.data, pages]);
  const items = useMemo(() => toGridItems(images), [images]);
  // Search results are the whole list; the paged library steps through everything visible.
  const ids = useMemo(() => (searching ? images.map((image) => image._id) : undefined), [searching, images]);
  const linkState = useDetailLinkState(ids, { searchText: searching ? search : undefined });

  const current = searching ? found : library;
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
      {current.isPending ? <GridSkeleton /> : null}
      {/* A failed refresh keeps the images on screen. */}
      {current.isError && current.data === undefined ? (
        <EmptyState title="The library could not be loaded" action={<Button onClick={() => void current.refetch()}>Try again</Button>} />
      ) : null}
      {current.isSuccess && items.length === 0 ? (
        searching ? (
          <EmptyState title="No matching images" text={`Nothing in the library matches "${search}".`} />
        ) : (
          <EmptyState
            title="No photos yet"
            text="Upload photos to start your library."
            action={<LinkButton to={paths.uploadImages.getHref()} variant="primary">Upload Images</LinkButton>}
          />
        )
      ) : null}
      {items.length > 0 ? <ImageGrid label="Image Library" items={items} linkState={linkState} /> : null}
      {!searching && isFetchingNextPage ? (
        <p role="status" className="py-6 text-center text-slate-600">
          {texts.LOADING_MORE}
        </p>
      ) : null}
    </Page>
  );
}
