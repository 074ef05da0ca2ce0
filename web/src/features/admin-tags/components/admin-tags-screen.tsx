import { useState } from 'react';
import { Button, LinkButton } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Page, PageHeading } from '@/components/ui/page';
import { Loading } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { isAdmin } from '@/lib/auth';
import { useAdminTags } from '../api/admin-tags';
import { groupTags, INDEX_KEYS } from './group-tags';
import { TagInput } from './tag-input';

/** Spec §2 "Admin tags": the shared tag vocabulary, indexed by first letter, renamed in place. */
export function AdminTagsScreen() {
  const admin = isAdmin();
  const tags = useAdminTags(admin);
  const [letter, setLetter] = useState<string | null>(null);

  if (!admin) {
    // The server refuses these calls to non-admins (DECISIONS §3), so none are sent.
    return (
      <Page>
        <EmptyState
          as="h1"
          title="Admin tags"
          text="Only an admin can manage the tag list."
          action={<LinkButton to={paths.home.getHref()}>Go to the gallery</LinkButton>}
        />
      </Page>
    );
  }
  if (tags.isPending) return <Loading />;

  const allTags = tags.data ?? [];
  const groups = groupTags(allTags);
  // In index order: # first, then A to Z, whatever the tags' own sort order puts first.
  const shownGroups = INDEX_KEYS.filter((key) => groups.has(key) && (letter === null || key === letter)).map(
    (key) => [key, groups.get(key)!] as const,
  );

  return (
    <Page>
      <PageHeading actions={<Button variant="secondary" onClick={() => setLetter(null)}>Show All Tags</Button>}>
        {allTags.length} Tags
      </PageHeading>
      <nav aria-label="Tag index" className="mb-6 flex flex-wrap gap-1">
        {INDEX_KEYS.map((key) => {
          const hasTags = groups.has(key);
          // Spec §2: with a letter chosen, the other letters are dimmed.
          return (
            <button
              key={key}
              type="button"
              aria-pressed={letter === key}
              onClick={() => setLetter(letter === key ? null : key)}
              className={`size-8 rounded-md text-sm font-semibold focus-visible:outline-2 focus-visible:outline-indigo-600 ${
                letter === key ? 'bg-indigo-600 text-white' : hasTags ? 'bg-white text-slate-800 ring-1 ring-slate-300' : 'text-slate-400'
              } ${letter !== null && letter !== key ? 'opacity-40' : ''}`}
            >
              {key}
            </button>
          );
        })}
      </nav>
      {tags.isError ? <p role="alert" className="text-red-700">The tags could not be loaded.</p> : null}
      {tags.isSuccess && shownGroups.length === 0 ? (
        <EmptyState title="No tags" text={letter ? `No tags start with ${letter}.` : 'No image has been tagged yet.'} />
      ) : null}
      {shownGroups.map(([key, groupTagsList]) => (
        <section key={key} aria-labelledby={`tag-group-${key}`} className="mb-6">
          <h2 id={`tag-group-${key}`} className="mb-2 text-lg font-semibold text-slate-800">
            {key}
          </h2>
          <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-4">
            {groupTagsList.map((tag) => (
              <li key={tag}>
                <TagInput tag={tag} allTags={allTags} />
              </li>
            ))}
          </ul>
        </section>
      ))}
    </Page>
  );
}
