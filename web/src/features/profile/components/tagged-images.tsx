import { useId, useMemo, useState } from 'react';
import type { Image } from '@photo/contract';
import { EmptyState } from '@/components/ui/empty-state';
import { useUserTags } from '../api/get-profile-images';
import { ProfileImageGrid } from './profile-image-grid';

type TaggedEntry = { image: Image; tags: string[] };

const ALL_MY_TAGS = 'All My Tags';

/**
 * The Filter By choices: the tags this person used (GET /user-tags) that are on a tagged image here,
 * else every tag of these images; once each ignoring case, sorted case-insensitively (spec §9).
 */
export function filterChoices(myTags: string[], entries: TaggedEntry[]): string[] {
  const onImages = new Map(entries.flatMap((entry) => entry.tags).map((tag) => [tag.toLowerCase(), tag]));
  const mine = myTags.filter((tag) => onImages.has(tag.toLowerCase()));
  const chosen = mine.length > 0 ? mine : [...onImages.values()];
  const byKey = new Map(chosen.map((tag) => [tag.toLowerCase(), tag]));
  return [...byKey.values()].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' }));
}

/** "My Tagged Images" with the Filter By choice (spec §2: case-insensitive on an image's tags). */
export function TaggedImages({ entries }: { entries: TaggedEntry[] }) {
  const [filter, setFilter] = useState(ALL_MY_TAGS);
  const selectId = useId();
  const myTags = useUserTags().data;
  const tagNames = useMemo(() => filterChoices(myTags ?? [], entries), [myTags, entries]);

  if (entries.length === 0) {
    return <EmptyState title="No tagged images yet" text="Images you add tags to show up here." />;
  }

  const wanted = filter.toLowerCase();
  const shown =
    filter === ALL_MY_TAGS
      ? entries
      : entries.filter((entry) => entry.tags.some((tag) => tag.toLowerCase() === wanted));
  const images = shown.map((entry) => ({ ...entry.image, tags: entry.tags }));

  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-center gap-2">
        <label htmlFor={selectId} className="text-sm font-medium text-slate-700">
          Filter By
        </label>
        <select
          id={selectId}
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
          className="rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm"
        >
          <option value={ALL_MY_TAGS}>{ALL_MY_TAGS}</option>
          {tagNames.map((tag) => (
            <option key={tag} value={tag}>
              {tag}
            </option>
          ))}
        </select>
      </div>
      <ProfileImageGrid label="My Tagged Images" images={images} tab="tagged" />
    </div>
  );
}
