/** Ids per `in (…)` list: far below both databases' bound-parameter limits (SQLite 32,766, PostgreSQL 65,535). */
export const IN_LIST_SIZE = 1000;

/** `ids` in consecutive slices of at most IN_LIST_SIZE, for one `in (…)` statement each. */
export function* inListSlices<T>(ids: readonly T[]): Generator<readonly T[]> {
  for (let start = 0; start < ids.length; start += IN_LIST_SIZE) yield ids.slice(start, start + IN_LIST_SIZE);
}
