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

/** A tag as people type it; the server trims and lower-cases it (DECISIONS §3). */
export const tagText = z.string().trim().toLowerCase().min(1, { message: 'A tag cannot be empty.' }).max(64);
