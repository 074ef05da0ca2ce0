import { useEffect, useMemo } from 'react';
import { useParams } from 'react-router';
import { texts } from '@photo/contract';
import { Button, LinkButton } from '@/components/ui/button';
import { DownloadButton } from '@/components/downloads';
import { EmptyState } from '@/components/ui/empty-state';
import { Page, PageHeading } from '@/components/ui/page';
import { SelectableGrid } from '@/components/ui/selectable-grid';
import { Loading } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useDetailLinkState } from '@/hooks/use-detail-link-state';
import { useSelection } from '@/hooks/use-selection';
import { toGridItems } from '@/lib/images';
import { useSearchResults } from '../api/search-images';
import { CustomTagsForm } from './custom-tags-form';

/** Spec §2 "Search results": loading, not found (with a way back), or the matching images. */
export function SearchResultsScreen() {
  const { query = '' } = useParams();
  const results = useSearchResults(query);
  const { selected, toggle, selectAll, clear } = useSelection();
  const ids = useMemo(() => (results.data ?? []).map((image) => image._id), [results.data]);
  const linkState = useDetailLinkState(ids, { searchText: query });

  useEffect(() => clear(), [query, clear]);

  if (results.isPending) return <Loading text="Searching..." />;

  // The results are read again every 30 s; a failed refresh keeps the last ones on screen.
  const found = results.data;
  if (found === undefined) {
    return (
      <Page>
        <EmptyState
          as="h1"
          title="Search failed"
          text="The search could not be run. Please try again."
          action={<Button onClick={() => void results.refetch()}>Try again</Button>}
        />
      </Page>
    );
  }

  if (found.length === 0) {
    return (
      <Page>
        <EmptyState
          as="h1"
          title={texts.NO_RESULTS_TITLE}
          text={texts.NO_RESULTS_TEXT}
          action={<LinkButton to={paths.home.getHref()} variant="primary">Return to Gallery</LinkButton>}
        />
      </Page>
    );
  }

  const allSelected = ids.every((id) => selected.has(id));

  return (
    <Page>
      <PageHeading
        actions={
          <>
            <DownloadButton kind="zip" imageIds={ids.filter((id) => selected.has(id))} />
            <Button variant="secondary" onClick={() => (allSelected ? clear() : selectAll(ids))}>
              {allSelected ? 'Deselect All' : 'Select All'}
            </Button>
          </>
        }
      >
        Results for &ldquo;{query}&rdquo;
      </PageHeading>
      <CustomTagsForm query={query} selectedIds={ids.filter((id) => selected.has(id))} onDone={clear} />
      <SelectableGrid
        label={`Search results for ${query}`}
        items={toGridItems(found)}
        linkState={linkState}
        selected={selected}
        onToggle={toggle}
        showTags
      />
    </Page>
  );
}
