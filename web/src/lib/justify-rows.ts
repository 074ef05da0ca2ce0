/**
 * The justified layout photo libraries use (Google Photos, Flickr, Immich): each row is filled
 * edge to edge with pictures of one height, every picture keeping its own aspect ratio.
 * Rows depend only on the pictures before them, so appending a page only changes the last row,
 * and every row's height is known without measuring the DOM (which a virtualized list needs).
 */
export type JustifiedRow = {
  /** Index of the row's first item, and one past its last. */
  start: number;
  end: number;
  /** Height of the pictures in this row, in pixels. */
  height: number;
  /** Width of each picture of the row, in order. */
  widths: number[];
};

export type JustifyOptions = {
  containerWidth: number;
  /** The height rows aim for; full rows come out at most this tall. */
  targetHeight: number;
  gap: number;
};

/**
 * A panorama at its true ratio would be a sliver or fill a row on its own; tiles keep ratios in
 * this range and the picture is cropped to fit (object-fit: cover).
 */
export const MIN_TILE_RATIO = 0.5;
export const MAX_TILE_RATIO = 3;

export function tileRatio(ratio: number): number {
  if (!Number.isFinite(ratio) || ratio <= 0) return 1;
  return Math.min(MAX_TILE_RATIO, Math.max(MIN_TILE_RATIO, ratio));
}

/** Splits pictures (given by aspect ratio, width / height) into justified rows. */
export function justifyRows(ratios: readonly number[], { containerWidth, targetHeight, gap }: JustifyOptions): JustifiedRow[] {
  const width = Math.max(containerWidth, 1);
  const rows: JustifiedRow[] = [];
  let start = 0;
  let ratioSum = 0;

  const close = (end: number, height: number) => {
    const widths: number[] = [];
    for (let index = start; index < end; index += 1) widths.push(tileRatio(ratios[index]!) * height);
    rows.push({ start, end, height, widths });
    start = end;
    ratioSum = 0;
  };

  for (let index = 0; index < ratios.length; index += 1) {
    ratioSum += tileRatio(ratios[index]!);
    const gaps = gap * (index - start);
    if (ratioSum * targetHeight + gaps >= width) close(index + 1, (width - gaps) / ratioSum);
  }
  // The last row is not stretched: it keeps the target height and leaves space on the right.
  if (start < ratios.length) close(ratios.length, targetHeight);
  return rows;
}
