/**
 * Upload limits (spec §9 leaves them open). Generous for real cameras — a 100 MP medium-format
 * JPEG is ~60 MB — and small enough that one request cannot exhaust disk or memory.
 */
export const MAX_FILE_BYTES = 200 * 1024 * 1024;
/** Files per bulk-upload request. */
export const MAX_FILES_PER_REQUEST = 1000;
/** Pixels of one image: refused from the header, before any decoding (decompression bombs). */
export const MAX_PIXELS = 200_000_000;

/** Derived images (DECISIONS §4): long side of the display image and of the thumbnail, in pixels. */
export const DISPLAY_SIZE = 1920;
export const THUMBNAIL_SIZE = 400;
/** Largest gallery list sent without paging (GET /api/gridimages with no page): newest first. */
export const MAX_UNPAGED_IMAGES = 10_000;
