import { z } from 'zod';
import { defineCall } from './call.js';
import { MAX_TAG_LOOKUP_LENGTH, successResponse, tagText } from './common.js';

/**
 * Spec §5: the admin's new tag text has no client-side checks; the server holds it to the rules of
 * every new tag (`tagText`: as stored, after lower-casing), as it does the tag a merge writes onto
 * images. The tag renamed or merged away is only looked up, so one stored before the rules held
 * (longer, or with control characters) can still be cleaned up.
 */
const existingTag = z.string().max(MAX_TAG_LOOKUP_LENGTH);

export const adminTags = defineCall({
  method: 'GET', path: '/admin-tags', tag: 'admin', access: 'admin',
  summary: 'Every tag, for the admin tag manager', response: z.array(z.string()),
});

export const adminMergeTags = defineCall({
  method: 'PUT', path: '/admin/merge-tags', tag: 'admin', access: 'admin',
  summary: 'Merge one tag into another across the library',
  body: z.object({ oldTagValue: existingTag, existingTagValue: tagText }),
  response: successResponse,
});

export const adminUpdateTag = defineCall({
  method: 'PUT', path: '/admin/update-tag', tag: 'admin', access: 'admin',
  summary: 'Rename a tag (onto an existing tag it merges)',
  body: z.object({ oldTagValue: existingTag, newTagValue: tagText }),
  response: successResponse,
});
