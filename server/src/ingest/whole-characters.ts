/**
 * Names are limited in UTF-16 code units (JavaScript's `length`), and a character beyond the first
 * 65,536 — most emoji — is two of them, a surrogate pair. Half a pair is not text: UTF-8 cannot
 * encode it, so PostgreSQL stores U+FFFD in its place, SQLite bytes that are not UTF-8, and
 * encodeURIComponent (the download header) throws. So a cut never falls inside a pair, and a name
 * holding a lone half already loses it.
 */

// A high half not followed by a low one, or a low half not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The text without halves of surrogate pairs. */
export function withoutLoneSurrogates(text: string): string {
  return text.replace(LONE_SURROGATE, '');
}

/** At most `maxUnits` UTF-16 code units of `text`, one fewer when the last would be half a pair. */
export function cutAtCodePoint(text: string, maxUnits: number): string {
  if (text.length <= maxUnits) return text;
  const last = text.charCodeAt(maxUnits - 1);
  const startsPair = last >= 0xd800 && last <= 0xdbff;
  return text.slice(0, startsPair ? maxUnits - 1 : maxUnits);
}
