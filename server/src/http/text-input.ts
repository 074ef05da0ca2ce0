import { AppError } from './errors.js';

/** How deep a request's input is searched (contract bodies are a few levels at most). */
const MAX_DEPTH = 8;

/**
 * The dotted path of the first string in `value` holding a NUL character, or undefined.
 * No text the app keeps may hold one: PostgreSQL refuses it in `text` (every such write or lookup
 * was a 500), and SQLite's `like` stops reading a pattern at it.
 */
export function nulAt(value: unknown, path: readonly string[] = [], depth = 0): string[] | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? [...path] : undefined;
  if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = nulAt(item, [...path, key], depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** Refuses a call whose input holds a NUL anywhere, with a 400 naming the field (as schema errors do). */
export function refuseNul(input: { body: unknown; query: unknown; params: unknown }): void {
  for (const [context, value] of [['body', input.body], ['querystring', input.query], ['params', input.params]] as const) {
    const path = nulAt(value);
    if (!path) continue;
    const message = 'Text cannot contain a NUL character.';
    const issuePath = [context, ...path].join('.');
    throw new AppError(400, `${context === 'body' ? path.join('.') || 'body' : issuePath}: ${message}`, {}, { issues: [{ path: issuePath, message }] });
  }
}
