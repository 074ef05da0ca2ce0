import { ScopeVocabulary } from './scope-vocabulary.js';
import type { TagRef } from './tags.repository.js';

/** One shown tag on one image, once per person who added it (the rows `usage_count` counts). */
export interface TagRow {
  image_id: number;
  tag_id: number;
  name: string;
}

/** What a tally counts; changed in place by the one tally that holds it (`ViewTally.with`). */
interface Counts {
  /** Tag ids on each image that has any, one per row. */
  perImage: Map<number, number[]>;
  counts: Map<number, number>;
  names: Map<number, string>;
  rows: number;
}

/**
 * The tags on the images of one restricted view, kept per image, so that after a change to a few
 * images in view (a tag added or removed, a photo shared or uploaded) the counts are brought up to
 * date from those images' rows alone instead of counted again over the whole view (issue 13: under
 * the soak, a recount of a 300-photo share took ~2.5 ms of the event loop plus ~0.9 ms deciding the
 * view, some 20 times a second).
 *
 * The next version's tally takes this one's counts over and changes them in place (`with`), and
 * its vocabulary shares every tag whose count did not change: copying the whole view's maps and
 * sorting its vocabulary again at each change had made most of what the server kept past a young
 * collection under the soak (~3 MB a second of 7), and so most of its full collections. A tally's
 * `vocabulary` stays as it was; a tally whose counts were taken already answers `with` with
 * undefined, and the caller counts the view afresh (two versions built from one at the same time).
 */
export class ViewTally {
  /** Rows kept: what this tally weighs against the vocabulary cache's bound. */
  readonly rows: number;
  private counted: Counts | undefined;

  private constructor(counted: Counts, readonly vocabulary: ScopeVocabulary) {
    this.counted = counted;
    this.rows = counted.rows;
  }

  static of(rows: readonly TagRow[]): ViewTally {
    const counted: Counts = { perImage: new Map(), counts: new Map(), names: new Map(), rows: 0 };
    replaceRows(counted, [], rows);
    const tags: TagRef[] = [];
    for (const [id, usage] of counted.counts) tags.push({ id, name: counted.names.get(id) as string, usage_count: usage });
    return new ViewTally(counted, new ScopeVocabulary(tags));
  }

  /**
   * The same view after the rows of the `changed` images became `rows` (a changed image absent from
   * them has no tags now); undefined when this tally's counts were taken by an earlier call.
   */
  with(changed: readonly number[], rows: readonly TagRow[]): ViewTally | undefined {
    const counted = this.counted;
    if (!counted) return undefined;
    this.counted = undefined;
    const before = replaceRows(counted, changed, rows);
    const moved: TagRef[] = [];
    for (const [id, was] of before) {
      const usage = counted.counts.get(id) ?? 0;
      if (usage !== was.usage) moved.push({ id, name: was.name ?? (counted.names.get(id) as string), usage_count: usage });
    }
    return new ViewTally(counted, moved.length === 0 ? this.vocabulary : this.vocabulary.withCounts(moved));
  }
}

/** Replaces the changed images' rows in place; answers each touched tag's count and name before. */
function replaceRows(counted: Counts, changed: readonly number[], rows: readonly TagRow[]): Map<number, { usage: number; name: string | undefined }> {
  const { perImage, counts, names } = counted;
  const before = new Map<number, { usage: number; name: string | undefined }>();
  const add = (tagId: number, by: number) => {
    if (!before.has(tagId)) before.set(tagId, { usage: counts.get(tagId) ?? 0, name: names.get(tagId) });
    const n = (counts.get(tagId) ?? 0) + by;
    if (n > 0) counts.set(tagId, n);
    else {
      counts.delete(tagId);
      names.delete(tagId);
    }
  };
  for (const imageId of changed) {
    const on = perImage.get(imageId);
    if (!on) continue;
    for (const tagId of on) add(tagId, -1);
    counted.rows -= on.length;
    perImage.delete(imageId);
  }
  for (const row of rows) {
    let on = perImage.get(row.image_id);
    if (!on) perImage.set(row.image_id, (on = []));
    on.push(row.tag_id);
    add(row.tag_id, 1);
    names.set(row.tag_id, row.name);
    counted.rows += 1;
  }
  return before;
}
