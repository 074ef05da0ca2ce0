import { notFound } from '../http/errors.js';
import { MAX_TAG_LIST } from './tags.service.js';
import { normalizeTag, tagToStore } from './tag-text.js';
import type { TagChangesRepository } from './tag-changes.repository.js';
import type { TagsRepository } from './tags.repository.js';

/**
 * The admin tag manager (spec §2 Admin tags, §4 Admin tag edit). Only admins reach it: the calls
 * are declared `access: 'admin'`, so anyone else gets a 404 before this runs.
 */
export class TagAdminService {
  constructor(
    private readonly tags: TagsRepository,
    private readonly changes: TagChangesRepository,
  ) {}

  /** Every shown tag in use; the screen groups and sorts them. */
  list(): Promise<string[]> {
    return this.tags.vocabulary(MAX_TAG_LIST);
  }

  /** Renames a tag; onto a tag that already exists (ignoring case) it is a merge. No change, no write. */
  async update(oldValue: string, newValue: string): Promise<{ success: boolean; message: string }> {
    const from = await this.existing(oldValue);
    // Held to the rules of a new tag as stored: lower-casing can make a text of 64 characters longer.
    const name = tagToStore(newValue);
    if (name === from.name) return { success: true, message: 'Nothing to change.' };
    const [into] = await this.tags.byNames([name]);
    if (into) {
      await this.changes.merge(from.id, into.id);
      return { success: true, message: `"${from.name}" merged into "${into.name}".` };
    }
    await this.changes.rename(from.id, name);
    return { success: true, message: `"${from.name}" renamed to "${name}".` };
  }

  /** Moves every image's `oldValue` tag onto `existingValue` (no duplicates) and forgets `oldValue`. */
  async merge(oldValue: string, existingValue: string): Promise<{ success: boolean; message: string }> {
    const from = await this.existing(oldValue);
    // Its name goes onto every image of `from`: it must be one a new tag could have (else a 400).
    tagToStore(existingValue);
    const into = await this.existing(existingValue);
    if (from.id === into.id) return { success: true, message: 'Nothing to change.' };
    await this.changes.merge(from.id, into.id);
    return { success: true, message: `"${from.name}" merged into "${into.name}".` };
  }

  private async existing(value: string) {
    const name = normalizeTag(value);
    const [tag] = name ? await this.tags.byNames([name]) : [];
    if (!tag) throw notFound(`There is no tag "${value.trim()}".`);
    return tag;
  }
}
