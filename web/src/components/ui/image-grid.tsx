import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { texts } from '@photo/contract';
import { ImageIcon } from './icons';

export type GridItem = {
  id: string;
  name: string;
  thumbnail: string | null;
  /** Where a click goes; without it the tile is a plain picture (e.g. the public share page). */
  href?: string;
  tags?: string[];
  /** Router state handed to the detail screen (the list and where it was opened from). */
  state?: unknown;
};

type ImageGridProps = {
  items: GridItem[];
  label: string;
  showTags?: boolean;
  /** Extra content per tile, e.g. a selection checkbox. */
  renderExtra?: (item: GridItem) => ReactNode;
};

/** Thumbnails that open the image detail; lazy-loaded so long lists stay light. */
export function ImageGrid({ items, label, showTags = false, renderExtra }: ImageGridProps) {
  return (
    <ul aria-label={label} className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4 xl:grid-cols-5">
      {items.map((item) => (
        <li key={item.id} className="relative overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
          {item.href ? (
            <Link to={item.href} state={item.state} className="block focus-visible:outline-2 focus-visible:outline-indigo-600">
              <Thumbnail item={item} />
            </Link>
          ) : (
            <Thumbnail item={item} />
          )}
          {renderExtra?.(item)}
          {showTags ? (
            <p className="truncate px-3 py-2 text-xs text-slate-600">
              {item.tags && item.tags.length > 0 ? item.tags.map((tag) => `#${tag}`).join(' ') : texts.NO_TAGS}
            </p>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

function Thumbnail({ item }: { item: GridItem }) {
  if (!item.thumbnail) {
    return (
      <span className="flex aspect-square w-full items-center justify-center bg-slate-200 text-slate-400">
        <ImageIcon className="size-10" />
        <span className="sr-only">{item.name}</span>
      </span>
    );
  }
  return (
    <img
      src={item.thumbnail}
      alt={item.name}
      loading="lazy"
      className="aspect-square w-full bg-slate-200 object-cover"
      // Spec §2 Profile: a failed thumbnail only logs a warning; the grey tile stays.
      onError={() => console.warn(`Thumbnail failed to load: ${item.name}`)}
    />
  );
}

/** Grey tiles shown while a grid loads (spec §9: 12 on the gallery). */
export function GridSkeleton({ count = 12 }: { count?: number }) {
  return (
    <ul aria-hidden="true" className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4 xl:grid-cols-5">
      {Array.from({ length: count }, (_, index) => (
        <li key={index} data-testid="grid-skeleton" className="aspect-square animate-pulse rounded-xl bg-slate-200" />
      ))}
    </ul>
  );
}
