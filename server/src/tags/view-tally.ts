import { ScopeVocabulary } from './scope-vocabulary.js';
import type { TagRef } from './tags.repository.js';

/** One shown tag on one image, once per person who added it (the rows `usage_count` counts). */
export interface TagRow {
  image_id: number;
  tag_id: number;
  name: string;
}

/**
 * The tags on the images of one restricted view, kept per image, so that after a change to a few
 * images in view (a tag added or removed, a photo shared or uploaded) the counts are brought up to
 * date from those images' rows alone instead of counted again over the whole view (issue 13: under
 * the soak, a recount of a 300-photo share took ~2.5 ms of the event loop plus ~0.9 ms deciding the
 * view, some 20 times a second). Never changed in place: `with` makes the next tally, so a tally an
 * older cache entry holds stays that entry's.
 */
export class ViewTally {
  private constructor(
    /** Tag ids on each image that has any, one per row. */
    private readonly perImage: ReadonlyMap<number, readonly number[]>,
    private readonly counts: ReadonlyMap<number, number>,
    private readonly names: ReadonlyMap<number, string>,
    /** Rows kept: what this tally weighs against the vocabulary cache's bound. */
    readonly rows: number,
  ) {}

  static of(rows: readonly TagRow[]): ViewTally {
    return new ViewTally(new Map(), new Map(), new Map(), 0).with([], rows);
  }

  /** The same view after the rows of the `changed` images became `rows` (a changed image absent from them has no tags now). */
  with(changed: readonly number[], rows: readonly TagRow[]): ViewTally {
    const perImage = new Map(this.perImage);
    const counts = new Map(this.counts);
    const names = new Map(this.names);
    let kept = this.rows;
    const add = (tagId: number, by: number) => {
      const n = (counts.get(tagId) ?? 0) + by;
      if (n > 0) counts.set(tagId, n);
      else counts.delete(tagId);
    };
    for (const imageId of changed) {
      for (const tagId of perImage.get(imageId) ?? []) add(tagId, -1);
      kept -= perImage.get(imageId)?.length ?? 0;
      perImage.delete(imageId);
    }
    // Arrays made here may grow; one the previous tally holds is copied before it changes.
    const made = new Map<number, number[]>();
    for (const row of rows) {
      let on = made.get(row.image_id);
      if (!on) {
        on = [...(perImage.get(row.image_id) ?? [])];
        made.set(row.image_id, on);
        perImage.set(row.image_id, on);
      }
      on.push(row.tag_id);
      names.set(row.tag_id, row.name);
      add(row.tag_id, 1);
      kept += 1;
    }
    for (const id of names.keys()) if (!counts.has(id)) names.delete(id);
    return new ViewTally(perImage, counts, names, kept);
  }

  /** The view's tags with their counts there, for answering from memory. */
  vocabulary(): ScopeVocabulary {
    const tags: TagRef[] = [];
    for (const [id, usage] of this.counts) tags.push({ id, name: this.names.get(id) as string, usage_count: usage });
    return new ScopeVocabulary(tags);
  }
}
