import { z } from 'zod';

/** Every error the API sends (DECISIONS §6). `msg` mirrors `message` for screens that read `msg`. */
export const errorResponse = z.object({
  message: z.string(),
  msg: z.string().optional(),
  /** Field-level details for 400s, so a form can point at the bad field. */
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  /** A refused bulk upload still says what happened to each file (see `uploadOutcome`). */
  results: z
    .array(z.object({ fileName: z.string(), status: z.string(), reason: z.string().optional(), imageId: z.string().optional() }))
    .optional(),
});
export type ErrorResponse = z.infer<typeof errorResponse>;

export const messageResponse = z.object({ message: z.string() });
export const successResponse = z.object({ success: z.boolean(), message: z.string().optional() });
export const emptyResponse = z.object({}).passthrough();

/** Ids travel as strings (the spec's `_id`), whatever the database stores. */
export const id = z.string().min(1).max(64);
export const idParams = z.object({ id });

export const email = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: 'Enter a valid e-mail address.' }).max(254));

export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 256;
export const password = z
  .string()
  .min(PASSWORD_MIN_LENGTH, { message: `Password must be at least ${PASSWORD_MIN_LENGTH} characters.` })
  .max(PASSWORD_MAX_LENGTH, { message: `Password must be at most ${PASSWORD_MAX_LENGTH} characters.` });

/**
 * Whether `text` is well-formed UTF-16. A lone surrogate (half of a pair, as a client that cut an
 * emoji in two sends) has no UTF-8 form: the databases would keep replacement characters or broken
 * bytes in its place. With the `u` flag a whole pair is one code point, so only a lone half matches.
 */
export function isWellFormed(text: string): boolean {
  return !/\p{Cs}/u.test(text);
}

/** The shared rule for free text a call takes: a string without lone surrogates (else a 400 naming the field). */
export const wellFormedText = z.string().refine(isWellFormed, { message: 'Text cannot contain a lone surrogate (half of a UTF-16 pair).' });

/** The most characters (code points, as zod counts) a tag has as stored, that is after `normalizeTag`. */
export const MAX_TAG_LENGTH = 64;
/**
 * The most characters of a tag named to find it (to remove, rename or merge it away). Looser than
 * MAX_TAG_LENGTH and without the other rules, so that a tag stored before they held can still be named.
 */
export const MAX_TAG_LOOKUP_LENGTH = 256;

/**
 * How a tag is stored (DECISIONS §3): Unicode NFC, trimmed, inner runs of white space (tabs and
 * line breaks too) made one space, lower-cased — so 'Summer  2024 ' and 'summer 2024' are the same
 * tag. Lower-casing can lengthen it: 'İ' becomes 'i' and a combining dot.
 */
export function normalizeTag(text: string): string {
  return text.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * A tag to be stored, as people type it: normalised (`normalizeTag`), then held to the rules in
 * that form, the one stored — not empty, at most MAX_TAG_LENGTH characters, no control character
 * (white space has become a space by then), well-formed. Else a 400 naming the field. The server
 * checks what it stores with this too (server/src/tags/tag-text.ts).
 */
export const tagText = wellFormedText
  .overwrite(normalizeTag)
  .min(1, { message: 'A tag cannot be empty.' })
  .max(MAX_TAG_LENGTH, { message: `A tag can have at most ${MAX_TAG_LENGTH} characters (counted as stored: lower-cased).` })
  .refine((name) => !/\p{Cc}/u.test(name), { message: 'A tag cannot contain control characters.' });

/** A tag named to find one that exists (see MAX_TAG_LOOKUP_LENGTH); the server normalises it the same way. */
export const tagLookup = z.string().trim().min(1, { message: 'A tag cannot be empty.' }).max(MAX_TAG_LOOKUP_LENGTH);
