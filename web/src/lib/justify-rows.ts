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
  /** The height rows aim for; a full row comes out between half and 1.5 times this. */
  targetHeight: number;
  gap: number;
};

/**
 * A panorama at its true ratio would be a sliver or fill a row on its own; tiles keep ratios in
 * this range and the picture is cropped to fit (object-fit: cover).
 */
export const MIN_TILE_RATIO = 0.5;
export const MAX_TILE_RATIO = 3;

/** A row may be stretched this much above the target height to avoid squeezing in one more picture. */
const MAX_STRETCH = 1.5;

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

  // How far a row height is from the target, as a ratio (so 2× too tall equals 2× too short).
  const miss = (height: number) => Math.abs(Math.log(height / targetHeight));

  for (let index = 0; index < ratios.length; index += 1) {
    const ratio = tileRatio(ratios[index]!);
    const gaps = gap * (index - start);
    if ((ratioSum + ratio) * targetHeight + gaps < width) {
      ratioSum += ratio;
      continue;
    }
    // The row is full: end it with this picture, or just before it if that is nearer the target height.
    const withIt = (width - gaps) / (ratioSum + ratio);
    const without = index > start ? (width - gaps + gap) / ratioSum : Infinity;
    if (without <= targetHeight * MAX_STRETCH && miss(without) < miss(withIt)) {
      close(index, without);
      ratioSum = ratio;
      if (ratio * targetHeight >= width) close(index + 1, width / ratio);
    } else {
      ratioSum += ratio;
      close(index + 1, withIt);
    }
  }
  // The last row is not stretched: it keeps the target height and leaves space on the right.
  if (start < ratios.length) close(ratios.length, targetHeight);
  return rows;
}
