export const NON_LETTER_GROUP = '#';
export const INDEX_KEYS = [NON_LETTER_GROUP, ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'] as const;

/** The index key of a tag: its first letter, or # for anything else (spec §2 Admin tags). */
export function groupKey(tag: string): string {
  // An accented letter goes under its plain letter (é under E).
  const first = tag.trim().charAt(0).normalize('NFD').charAt(0).toUpperCase();
  return first >= 'A' && first <= 'Z' ? first : NON_LETTER_GROUP;
}

/** Tags grouped by index key, each group sorted alphabetically, case-insensitively (spec §9). */
export function groupTags(tags: string[]): Map<string, string[]> {
  const sorted = [...tags].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' }));
  const groups = new Map<string, string[]>();
  for (const tag of sorted) {
    const key = groupKey(tag);
    groups.set(key, [...(groups.get(key) ?? []), tag]);
  }
  return groups;
}

/** What committing `next` for `current` means: nothing, a rename, or a merge into an existing tag. */
export function planTagEdit(current: string, next: string, allTags: string[]) {
  const value = next.trim();
  if (value === current) return { kind: 'none' as const };
  const existing = allTags.find((tag) => tag !== current && tag.toLowerCase() === value.toLowerCase());
  if (existing !== undefined) return { kind: 'merge' as const, into: existing };
  return { kind: 'rename' as const, to: value };
}
