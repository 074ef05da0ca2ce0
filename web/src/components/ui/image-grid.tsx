import { useCallback, useLayoutEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import { Link } from 'react-router';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { texts } from '@photo/contract';
import { useElementWidth } from '@/hooks/use-element-width';
import { justifyRows, type JustifiedRow } from '@/lib/justify-rows';
import { aspectRatioOf, Thumbnail, type ThumbnailLazy } from './thumbnail';

export type GridItem = {
  id: string;
  name: string;
  thumbnail: string | null;
  /** Base64 ThumbHash and upright pixel size, when the list has them. */
  placeholder?: string | null;
  width?: number | null;
  height?: number | null;
  /** Where a click goes; without it (and without the grid's `onOpen`) the tile is a plain picture. */
  href?: string;
  tags?: string[];
};

type ImageGridProps = {
  items: GridItem[];
  label: string;
  showTags?: boolean;
  /** Extra content per tile, e.g. a selection checkbox. */
  renderExtra?: (item: GridItem) => ReactNode;
  /** Router state every tile's link hands to the detail screen (the list and where it came from). */
  linkState?: unknown;
  lazy?: ThumbnailLazy;
  /** For tiles without `href`: a click (or Enter) on the picture calls this, e.g. to show it large. */
  onOpen?: (item: GridItem) => void;
};

/** Row heights the layout aims for: smaller on a phone so a row still holds two or three pictures. */
const TARGET_ROW_HEIGHT = { narrow: 140, wide: 220 };
const NARROW_BELOW_PX = 640;
const GAP_PX = 8;
const CAPTION_PX = 32;
/** Rows rendered beyond the viewport on each side. */
const OVERSCAN_ROWS = 4;

/**
 * Thumbnails in justified rows, virtualized over the window: only the rows near the viewport are
 * in the DOM, so a gallery of 100,000 images stays as light as one of 100.
 */
export function ImageGrid({ items, label, showTags = false, renderExtra, linkState, lazy = 'native', onOpen }: ImageGridProps) {
  const listRef = useRef<HTMLDivElement>(null);
  const width = useElementWidth(listRef);
  const scrollMargin = useDocumentTop(listRef);
  const captionHeight = showTags ? CAPTION_PX : 0;

  const rows = useMemo(() => {
    const targetHeight = width < NARROW_BELOW_PX ? TARGET_ROW_HEIGHT.narrow : TARGET_ROW_HEIGHT.wide;
    const ratios = items.map((item) => aspectRatioOf(item.width, item.height));
    return justifyRows(ratios, { containerWidth: width, targetHeight, gap: GAP_PX });
  }, [items, width]);

  // A new key function whenever the rows change makes the virtualizer take the new sizes.
  const getItemKey = useCallback((index: number) => rowKey(rows[index]), [rows]);
  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize: (index) => (rows[index]?.height ?? 0) + captionHeight,
    getItemKey,
    gap: GAP_PX,
    overscan: OVERSCAN_ROWS,
    scrollMargin,
    initialRect: { width: window.innerWidth, height: window.innerHeight },
  });

  return (
    <div ref={listRef} role="list" aria-label={label} className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
      {virtualizer.getVirtualItems().map((virtualRow) => {
        const row = rows[virtualRow.index]!;
        return (
          // Keyed by position: when a page arrives only the last row gains tiles, and the tiles
          // already there keep their element (no second fade-in, no lost focus).
          <div
            key={virtualRow.index}
            role="none"
            className="absolute top-0 left-0 flex w-full"
            style={{ gap: GAP_PX, height: virtualRow.size, transform: `translateY(${virtualRow.start - scrollMargin}px)` }}
          >
            {row.widths.map((tileWidth, offset) => {
              const index = row.start + offset;
              const item = items[index]!;
              return (
                <Tile
                  key={item.id}
                  item={item}
                  position={index + 1}
                  total={items.length}
                  width={tileWidth}
                  height={row.height}
                  showTags={showTags}
                  extra={renderExtra?.(item)}
                  linkState={linkState}
                  lazy={lazy}
                  onOpen={onOpen}
                />
              );
            })}
          </div>
        );
      })}
    </div>
  );
}

const rowKey = (row: JustifiedRow | undefined) => (row ? `${row.start}-${row.end}-${Math.round(row.height)}` : 'none');

/** Distance from the top of the document, through the offset parents (unaffected by scrolling). */
function documentTop(element: HTMLElement): number {
  let top = 0;
  for (let node: HTMLElement | null = element; node; node = node.offsetParent as HTMLElement | null) top += node.offsetTop;
  return top;
}

/** The element's distance from the top of the document, which the window virtualizer counts from. */
function useDocumentTop(ref: RefObject<HTMLElement | null>): number {
  const [top, setTop] = useState(0);
  // Re-measured after every render: content above the grid (a tag panel, the action bar) may move it.
  useLayoutEffect(() => {
    if (!ref.current) return;
    const measured = documentTop(ref.current);
    if (measured !== top) setTop(measured);
  });
  return top;
}

type TileProps = {
  item: GridItem;
  position: number;
  total: number;
  width: number;
  height: number;
  showTags: boolean;
  extra: ReactNode;
  linkState: unknown;
  lazy: ThumbnailLazy;
  onOpen: ((item: GridItem) => void) | undefined;
};

const openClasses = 'block size-full focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600';

function Tile({ item, position, total, width, height, showTags, extra, linkState, lazy, onOpen }: TileProps) {
  const picture = (
    <Thumbnail
      src={item.thumbnail}
      alt={item.name}
      placeholder={item.placeholder}
      width={item.width}
      height={item.height}
      lazy={lazy}
      className="size-full"
    />
  );
  return (
    <div
      role="listitem"
      aria-posinset={position}
      aria-setsize={total}
      className="relative shrink-0 overflow-hidden rounded-lg bg-white ring-1 ring-slate-200"
      style={{ width }}
    >
      <div style={{ height }}>
        {item.href ? (
          <Link to={item.href} state={linkState} className={openClasses}>
            {picture}
          </Link>
        ) : onOpen ? (
          <button type="button" onClick={() => onOpen(item)} className={`${openClasses} cursor-zoom-in`}>
            {picture}
          </button>
        ) : (
          picture
        )}
      </div>
      {extra}
      {showTags ? (
        <p className="truncate px-2 text-xs leading-8 text-slate-600">
          {item.tags && item.tags.length > 0 ? item.tags.map((tag) => `#${tag}`).join(' ') : texts.NO_TAGS}
        </p>
      ) : null}
    </div>
  );
}
