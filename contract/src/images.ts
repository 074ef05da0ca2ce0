import { z } from 'zod';
import { defineCall } from './call.js';
import { id, idParams, messageResponse } from './common.js';

export const GALLERY_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

/** Spec §3 "Image", plus the facts DECISIONS §4 asks the server to keep. */
export const image = z.object({
  _id: id,
  imageName: z.string(),
  FileName: z.string(),
  /** Signed URL of the display-size image; absent until the derived files exist. */
  trimmedURL: z.string().nullable(),
  thumbnailURL: z.string().nullable(),
  /** Base64 thumbhash for the blur-up placeholder. */
  placeholder: z.string().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  takenAt: z.string().nullable(),
  /** The instant every list sorts by (ISO, UTC): date taken, else the file's date, else the upload (decision 0009). */
  sortedAt: z.string(),
  /** Where `sortedAt` comes from; 'upload' means the date the photo was taken is unknown. */
  dateSource: z.enum(['taken', 'file', 'upload']),
  camera: z.string().nullable(),
  gps: z.object({ latitude: z.number(), longitude: z.number() }).nullable(),
  tags: z.array(z.string()),
  allTags: z.array(z.string()),
  customTags: z.array(z.string()),
  likes: z.number().int(),
  liked: z.boolean(),
  uploadedBy: z.string().nullable(),
  createdAt: z.string(),
});
export type Image = z.infer<typeof image>;

export const pagination = z.object({
  currentPage: z.number().int(),
  hasMore: z.boolean(),
  totalImages: z.number().int(),
});

export const gridQuery = z.object({
  page: z.coerce.number().int().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
});

export const getGridImages = defineCall({
  method: 'GET', path: '/api/gridimages', tag: 'images', access: 'user',
  summary: 'Gallery page (with page and limit) or the whole visible list for previous/next (without)',
  query: gridQuery,
  response: z.object({ images: z.array(image), pagination: pagination.optional() }),
});

export const getGridImagesOld = defineCall({
  method: 'GET', path: '/gridimages', tag: 'images', access: 'user',
  summary: 'Every visible image as a plain array (older detail view)',
  response: z.array(image),
});

export const getImage = defineCall({
  method: 'GET', path: '/api/images/:id', tag: 'images', access: 'user',
  summary: 'One image the caller may see',
  params: idParams,
  response: image,
});

export const getImageNeighbours = defineCall({
  method: 'GET', path: '/api/images/:id/neighbours', tag: 'images', access: 'user',
  summary: 'The images before and after this one in gallery order (wrapping around), for previous/next without loading the whole list',
  params: idParams,
  response: z.object({ previous: id.nullable(), next: id.nullable() }),
});

export const getLibrary = defineCall({
  method: 'GET', path: '/library', tag: 'images', access: 'user',
  summary: 'Image library (JSON for API clients; browsers navigating here get the web app)',
  query: gridQuery,
  response: z.object({ images: z.array(image), pagination: pagination.optional() }),
});

export const searchImages = defineCall({
  method: 'GET', path: '/search', tag: 'images', access: 'user',
  summary: 'Images whose tags or name match the query',
  query: z.object({ query: z.string().max(200).default('') }),
  response: z.object({ images: z.array(image) }),
});

export const deleteImages = defineCall({
  method: 'POST', path: '/api/deleteImages', tag: 'images', access: 'user',
  summary: 'Delete images the caller uploaded (any image for an admin); all or nothing',
  body: z.object({ imageIds: z.array(id).min(1).max(1000) }),
  response: messageResponse,
});

export const uploadOutcome = z.object({
  fileName: z.string(),
  status: z.enum(['kept', 'duplicate', 'refused']),
  reason: z.string().optional(),
  imageId: id.optional(),
});
export type UploadOutcome = z.infer<typeof uploadOutcome>;

export const bulkUpload = defineCall({
  method: 'POST', path: '/bulk-upload', tag: 'images', access: 'user',
  summary: 'Upload many images (multipart, repeated field images); each file gets its own outcome',
  multipart: { fields: "images: repeated image files; lastModified (optional, before a file): that file's last-modified time in ms since 1970, its date when it records none" },
  response: z.object({ message: z.string(), results: z.array(uploadOutcome) }),
});
