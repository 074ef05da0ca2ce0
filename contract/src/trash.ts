import { z } from 'zod';
import { defineCall } from './call.js';
import { id, messageResponse } from './common.js';
import { image } from './images.js';

export const TRASH_PAGE_SIZE = 60;

/** An image in the Trash: as the gallery shows it, plus when it was deleted (and by whom). */
export const trashedImage = image.extend({
  trashedAt: z.string(),
  trashedBy: z.string().nullable(),
});
export type TrashedImage = z.infer<typeof trashedImage>;

const trashIds = z.object({ imageIds: z.array(id).min(1).max(1000) });

export const listTrash = defineCall({
  method: 'GET', path: '/api/trash', tag: 'trash', access: 'user',
  summary: 'What the caller deleted (everything in the Trash for an admin), newest deleted first',
  query: z.object({
    page: z.coerce.number().int().min(1).optional(),
    limit: z.coerce.number().int().min(1).max(200).optional(),
  }),
  response: z.object({
    images: z.array(trashedImage),
    pagination: z.object({ currentPage: z.number().int(), hasMore: z.boolean(), totalImages: z.number().int() }),
    /** Days an image stays in the Trash before it is deleted for good (0: never kept). */
    trashDays: z.number().int(),
  }),
});

export const restoreTrash = defineCall({
  method: 'POST', path: '/api/trash/restore', tag: 'trash', access: 'user',
  summary: 'Puts images back where they were, with their tags, likes and shares; all or nothing',
  body: trashIds,
  response: messageResponse,
});

export const deleteTrashForever = defineCall({
  method: 'POST', path: '/api/trash/delete', tag: 'trash', access: 'user',
  summary: 'Deletes images in the Trash for good (rows and, when nobody else uses them, files); all or nothing',
  body: trashIds,
  response: messageResponse,
});

export const emptyTrash = defineCall({
  method: 'POST', path: '/api/trash/empty', tag: 'trash', access: 'user',
  summary: 'Deletes for good everything the caller may see in the Trash (all of it for an admin)',
  response: messageResponse,
});
