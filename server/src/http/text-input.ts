import { isWellFormed } from '@photo/contract';
import { AppError } from './errors.js';

/** How deep a request's input is searched (contract bodies are a few levels at most). */
const MAX_DEPTH = 8;

/** What is wrong with a text no call takes, or undefined. */
function flawOf(text: string): string | undefined {
  // PostgreSQL refuses a NUL in `text` (every such write or lookup was a 500), and SQLite's `like`
  // stops reading a pattern at it.
  if (text.includes('\u0000')) return 'Text cannot contain a NUL character.';
  // Half of a UTF-16 pair has no UTF-8 form: the databases would keep a replacement character.
  if (!isWellFormed(text)) return 'Text cannot contain a lone surrogate (half of a UTF-16 pair).';
  return undefined;
}

/** The dotted path of the first string in `value` no call takes, and what is wrong with it; or undefined. */
export function flawedTextAt(value: unknown, path: readonly string[] = [], depth = 0): { path: string[]; flaw: string } | undefined {
  if (typeof value === 'string') {
    const flaw = flawOf(value);
    return flaw ? { path: [...path], flaw } : undefined;
  }
  if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = flawedTextAt(item, [...path, key], depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * Refuses a call whose input holds, anywhere, text no field takes (a NUL, a lone surrogate), with a
 * 400 naming the field as schema errors do: one check for every call, whatever its schema says.
 */
export function refuseFlawedText(input: { body: unknown; query: unknown; params: unknown }): void {
  for (const [context, value] of [['body', input.body], ['querystring', input.query], ['params', input.params]] as const) {
    const found = flawedTextAt(value);
    if (!found) continue;
    const issuePath = [context, ...found.path].join('.');
    const field = context === 'body' ? found.path.join('.') || 'body' : issuePath;
    throw new AppError(400, `${field}: ${found.flaw}`, {}, { issues: [{ path: issuePath, message: found.flaw }] });
  }
}
