import { z } from 'zod';
import { defineCall } from './call.js';
import { successResponse } from './common.js';

/** Spec §5: the admin's new tag text has no client-side checks; the server still trims and bounds it. */
const tagValue = z.string().max(64);

export const adminTags = defineCall({
  method: 'GET', path: '/admin-tags', tag: 'admin', access: 'admin',
  summary: 'Every tag, for the admin tag manager', response: z.array(z.string()),
});

export const adminMergeTags = defineCall({
  method: 'PUT', path: '/admin/merge-tags', tag: 'admin', access: 'admin',
  summary: 'Merge one tag into another across the library',
  body: z.object({ oldTagValue: tagValue, existingTagValue: tagValue }),
  response: successResponse,
});

export const adminUpdateTag = defineCall({
  method: 'PUT', path: '/admin/update-tag', tag: 'admin', access: 'admin',
  summary: 'Rename a tag (onto an existing tag it merges)',
  body: z.object({ oldTagValue: tagValue, newTagValue: tagValue }),
  response: successResponse,
});
