import { z } from 'zod';
import { defineCall } from './call.js';
import { id, idParams } from './common.js';
import { image, MAX_PAGE_SIZE, pagination } from './images.js';

/** A calendar month, 'YYYY-MM', of the instant photos sort by (UTC; decision 0009). */
export const monthKey = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, { message: 'A month is written YYYY-MM.' });

/**
 * One month of the timeline: how many photos it holds, where its first one sits in gallery order
 * (0-based: the `/api/gridimages?limit=L` page holding it is `floor(offset / L) + 1`), and its days
 * newest first as `[day of month, photos]`, so a client can size every section before loading it.
 */
export const timelineMonth = z.object({
  month: monthKey,
  count: z.number().int(),
  offset: z.number().int(),
  days: z.array(z.tuple([z.number().int().min(1).max(31), z.number().int()])),
});
export type TimelineMonth = z.infer<typeof timelineMonth>;

export const getTimeline = defineCall({
  method: 'GET', path: '/api/timeline', tag: 'timeline', access: 'user',
  summary: 'The months of everything the caller may see, newest first, with their photo counts per month and day',
  response: z.object({ totalImages: z.number().int(), months: z.array(timelineMonth) }),
});

export const getTimelineMonth = defineCall({
  method: 'GET', path: '/api/timeline/:month', tag: 'timeline', access: 'user',
  summary: "One page of a month's photos in gallery order, and where the month sits in the gallery (the page of /api/gridimages holding its first photo)",
  params: z.object({ month: monthKey }),
  query: z.object({
    page: z.coerce.number().int().min(1).optional(),
    limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
  }),
  response: z.object({
    month: monthKey,
    /** Photos in the month. */
    count: z.number().int(),
    /** Index of the month's first photo in gallery order (where it would be when the month is empty). */
    offset: z.number().int(),
    /** The `/api/gridimages` page (of the same limit) that holds the month's first photo. */
    galleryPage: z.number().int(),
    images: z.array(image),
    pagination,
  }),
});

/** What the camera recorded, for the detail view's info panel (issue 11). */
export const imageInfo = z.object({
  _id: id,
  fileName: z.string(),
  /** Bytes of the original. */
  fileSize: z.number().int(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  /** Wall-clock date taken as recorded ('YYYY-MM-DDTHH:MM:SS'), or null when unknown. */
  takenAt: z.string().nullable(),
  /** The offset recorded with it ('+09:00'), if any. */
  takenOffset: z.string().nullable(),
  /** Where the photo's place in the timeline comes from: the date taken, the file's own date, or (unknown) the upload. */
  dateSource: z.enum(['taken', 'file', 'upload']),
  /** The instant it sorts by (ISO, UTC). */
  sortedAt: z.string(),
  camera: z.string().nullable(),
  lens: z.string().nullable(),
  /** f-number, e.g. 1.8. */
  aperture: z.number().nullable(),
  /** Seconds, e.g. 0.004 for 1/250. */
  exposureTime: z.number().nullable(),
  iso: z.number().int().nullable(),
  /** Millimetres. */
  focalLength: z.number().nullable(),
  /** Only for the uploader and admins; null for everyone else and when not recorded. */
  place: z.object({ latitude: z.number(), longitude: z.number() }).nullable(),
  uploadedAt: z.string(),
});
export type ImageInfo = z.infer<typeof imageInfo>;

export const getImageInfo = defineCall({
  method: 'GET', path: '/api/images/:id/info', tag: 'images', access: 'user',
  summary: "An image's facts for the info panel: date taken, camera and lens, exposure, size, file, and the place for its uploader and admins",
  params: idParams,
  response: imageInfo,
});
