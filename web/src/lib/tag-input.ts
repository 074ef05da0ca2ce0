import { MAX_TAG_LENGTH } from '@photo/contract';

/**
 * A tag as typed into a tag box, without the "#" the box already shows: typed as well, it would be
 * stored ("#hash") and shown as "##hash". Trimmed; a "#" inside or at the end ("c#") stays.
 */
export function withoutHashPrefix(text: string): string {
  return text.trim().replace(/^#+/, '').trimStart();
}

/** The most characters a one-tag box takes: the server refuses longer tags (contract MAX_TAG_LENGTH). */
export const TAG_INPUT_MAX_LENGTH = MAX_TAG_LENGTH;
