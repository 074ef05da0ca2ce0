/**
 * The timeline's geometry, computed from counts alone (GET /api/timeline gives each month's photos
 * per day), so every section has its exact height before a single photo of it is loaded, and a
 * library of a million photos is laid out without touching the DOM.
 *
 * A month is a header, then its days newest first; a day is a header, then rows of square tiles.
 * Positions are "virtual": pixels from the top of the whole timeline (which may be far taller
 * than a browser lets an element be; see scroll-window.ts for how it is shown).
 */
import type { PageRef } from '../../api/get-timeline-month';

export const MONTH_HEADER_PX = 56;
export const DAY_HEADER_PX = 36;
/** Space after a day's last row. */
export const DAY_END_PX = 12;
export const TILE_GAP_PX = 4;
/** Tile widths the columns aim for: smaller on a phone so a row still holds three. */
export const TARGET_TILE_PX = { narrow: 120, wide: 200 };
export const NARROW_BELOW_PX = 640;

export type Geometry = { width: number; columns: number; tileWidth: number; rowHeight: number; gap: number };

/** `[day of month, photos]`, newest day first, as the timeline call answers. */
export type DayCounts = readonly (readonly [number, number])[];

export type DayBlock = {
  day: number;
  count: number;
  /** Index of the day's first photo within its month (gallery order). */
  first: number;
  /** Top of the day header, from the month's top. */
  top: number;
  rows: number;
};

export type MonthBlock = {
  month: string;
  count: number;
  /** Index of the month's first photo in the whole timeline (gallery order). */
  offset: number;
  top: number;
  height: number;
  days: DayBlock[];
};

export type TimelineLayout = { months: MonthBlock[]; height: number; photos: number; geometry: Geometry };

export function geometryFor(width: number): Geometry {
  const gap = TILE_GAP_PX;
  const usable = Math.max(width, 1);
  const target = usable < NARROW_BELOW_PX ? TARGET_TILE_PX.narrow : TARGET_TILE_PX.wide;
  const columns = Math.max(1, Math.round((usable + gap) / (target + gap)));
  const tileWidth = (usable - gap * (columns - 1)) / columns;
  return { width: usable, columns, tileWidth, rowHeight: Math.max(1, Math.round(tileWidth)), gap };
}

export function dayHeight(count: number, geometry: Geometry): number {
  const rows = Math.ceil(count / geometry.columns);
  return DAY_HEADER_PX + rows * geometry.rowHeight + Math.max(0, rows - 1) * geometry.gap + DAY_END_PX;
}

/**
 * Every month's place. `loadedDays` replaces a month's counts by those of its loaded photos (a
 * month read whole lays out from what it holds, should the counts be out of date); months with
 * no photos take no room.
 */
export function buildLayout(
  buckets: readonly { month: string; days: DayCounts }[],
  geometry: Geometry,
  loadedDays?: ReadonlyMap<string, DayCounts>,
): TimelineLayout {
  const months: MonthBlock[] = [];
  let y = 0;
  let photos = 0;
  for (const bucket of buckets) {
    const counts = loadedDays?.get(bucket.month) ?? bucket.days;
    const days: DayBlock[] = [];
    const top = y;
    let first = 0;
    y += MONTH_HEADER_PX;
    for (const [day, count] of counts) {
      if (count <= 0) continue;
      days.push({ day, count, first, top: y - top, rows: Math.ceil(count / geometry.columns) });
      first += count;
      y += dayHeight(count, geometry);
    }
    if (first === 0) {
      y = top;
      continue;
    }
    months.push({ month: bucket.month, count: first, offset: photos, top, height: y - top, days });
    photos += first;
  }
  return { months, height: y, photos, geometry };
}

/** Index of the month at virtual position `y` (the first or last one beyond the ends); -1 when empty. */
export function monthIndexAt(layout: TimelineLayout, y: number): number {
  const { months } = layout;
  let low = 0;
  let high = months.length - 1;
  if (high < 0) return -1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (months[middle]!.top <= y) low = middle;
    else high = middle - 1;
  }
  return low;
}

export type TimelineItem =
  | { kind: 'month'; key: string; top: number; month: MonthBlock }
  | { kind: 'day'; key: string; top: number; month: MonthBlock; day: DayBlock }
  /** One row of tiles: photos `first` … `first + count - 1` of the month. */
  | { kind: 'row'; key: string; top: number; month: MonthBlock; first: number; count: number };

/** The headers and rows that intersect [from, to), top to bottom. */
export function itemsBetween(layout: TimelineLayout, from: number, to: number): TimelineItem[] {
  const items: TimelineItem[] = [];
  const { rowHeight, gap, columns } = layout.geometry;
  const step = rowHeight + gap;
  for (let index = Math.max(0, monthIndexAt(layout, from)); index < layout.months.length; index += 1) {
    const month = layout.months[index]!;
    if (month.top >= to) break;
    if (month.top + month.height <= from) continue;
    if (month.top + MONTH_HEADER_PX > from) items.push({ kind: 'month', key: `m${month.month}`, top: month.top, month });
    for (const day of month.days) {
      const dayTop = month.top + day.top;
      if (dayTop >= to) break;
      if (dayTop + dayHeight(day.count, layout.geometry) <= from) continue;
      if (dayTop + DAY_HEADER_PX > from) items.push({ kind: 'day', key: `d${month.month}-${day.day}`, top: dayTop, month, day });
      const rowsTop = dayTop + DAY_HEADER_PX;
      const firstRow = Math.max(0, Math.floor((from - rowsTop - rowHeight) / step) + 1);
      const lastRow = Math.min(day.rows - 1, Math.ceil((to - rowsTop) / step) - 1);
      for (let row = firstRow; row <= lastRow; row += 1) {
        const first = day.first + row * columns;
        const count = Math.min(columns, day.first + day.count - first);
        items.push({ kind: 'row', key: `r${month.month}-${day.day}-${row}`, top: rowsTop + row * step, month, first, count });
      }
    }
  }
  return items;
}

/** The month pages (of `pageSize` photos) holding the rows that intersect [from, to), top to bottom. */
export function pagesBetween(layout: TimelineLayout, from: number, to: number, pageSize: number): PageRef[] {
  const pages: PageRef[] = [];
  const seen = new Set<string>();
  for (const item of itemsBetween(layout, from, to)) {
    if (item.kind !== 'row') continue;
    const firstPage = Math.floor(item.first / pageSize) + 1;
    const lastPage = Math.floor((item.first + item.count - 1) / pageSize) + 1;
    for (let page = firstPage; page <= lastPage; page += 1) {
      const key = `${item.month.month}/${page}`;
      if (seen.has(key)) continue;
      seen.add(key);
      pages.push({ month: item.month.month, page });
    }
  }
  return pages;
}

/**
 * The pages to have loaded for a viewport at `top`: those on screen first, then those within
 * `margin` below, then above, nearest first (the usual direction of reading is down, newest to oldest).
 */
export function pagesToLoad(layout: TimelineLayout, top: number, viewport: number, margin: number, pageSize: number): PageRef[] {
  const ranges: [number, number][] = [
    [top, top + viewport],
    [top + viewport, top + viewport + margin],
    [top - margin, top],
  ];
  const seen = new Set<string>();
  const pages: PageRef[] = [];
  for (const [index, [from, to]] of ranges.entries()) {
    const found = pagesBetween(layout, from, to, pageSize);
    // Above the viewport, the nearest first.
    for (const ref of index === 2 ? found.reverse() : found) {
      const key = `${ref.month}/${ref.page}`;
      if (seen.has(key)) continue;
      seen.add(key);
      pages.push(ref);
    }
  }
  return pages;
}

/** A place in the timeline that survives a change of layout: a month and how far into it. */
/**
 * `atBottom`: the reader was at the end (the oldest photos). Held there as sections change size, as
 * `atTop` holds the top: a month and an offset would drift, since the end is where scrolling stops
 * (the last months' estimated sizes, then their real ones, moved a reader coming back from a photo
 * at the end one month up).
 */
export type Anchor = { month: string; offset: number; atTop: boolean; atBottom: boolean };

export function anchorAt(layout: TimelineLayout, y: number, viewport = 0): Anchor | null {
  const month = layout.months[monthIndexAt(layout, y)];
  return month ? { month: month.month, offset: y - month.top, atTop: y <= 0, atBottom: viewport > 0 && y + viewport >= layout.height - 1 } : null;
}

/**
 * Where an anchor is in another layout: the same distance into the same month (so loading,
 * uploads or deletions elsewhere move nothing on screen), the top if the reader was at the top
 * (new photos then show), or the nearest month when that month is gone.
 */
export function resolveAnchor(layout: TimelineLayout, anchor: Anchor): number {
  if (anchor.atTop) return 0;
  // The end: scrolling to it stops where the last photos are.
  if (anchor.atBottom) return layout.height;
  const month = layout.months.find((candidate) => candidate.month === anchor.month);
  if (month) return month.top + Math.min(Math.max(0, anchor.offset), month.height - 1);
  // Months are newest first: the first one older than the anchor's takes its place.
  const older = layout.months.find((candidate) => candidate.month < anchor.month);
  return older ? older.top : layout.height;
}
