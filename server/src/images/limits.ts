/**
 * Upload limits (spec §9 leaves them open). Generous for real cameras — a 100 MP medium-format
 * JPEG is ~60 MB — and small enough that one request cannot exhaust disk or memory.
 */
export const MAX_FILE_BYTES = 200 * 1024 * 1024;
/** Files kept per bulk-upload request; later files of the same request are refused one by one. */
export const MAX_FILES_PER_REQUEST = 1000;
/**
 * Parts (files and fields) read from one request at all. Files past MAX_FILES_PER_REQUEST are read
 * and refused by name up to here; past it the request stops being read and the answer says so.
 */
export const MAX_PARTS_PER_REQUEST = 2000;
/** Upload requests one person may have running at once (the web app sends one batch at a time). */
export const MAX_UPLOADS_PER_PERSON = 2;
/**
 * Files of one request held in DATA_DIR/tmp at once (being received, waiting for or in the processing
 * pool), per image worker: enough to keep every worker busy while the next file arrives, so reading
 * pauses (and the client waits) instead of the disk filling up when processing is the slower side.
 */
export const FILES_IN_FLIGHT_PER_REQUEST_PER_WORKER = 2;
/** The same across all requests of this process: when all are taken, new uploads get a 503. */
export const FILES_IN_FLIGHT_PER_WORKER = 8;
/**
 * New uploads get a 503 while a turn of the event loop takes this long (the median of the last
 * turns measured, http/turn-length.ts): each of an upload's ~30 I/O steps would wait about that
 * long, so an upload let in would take seconds, and its processing would take the CPU from the
 * people browsing (decision 0024).
 */
export const UPLOAD_BUSY_TURN_MS = 50;
/**
 * …or, before the median has seen them, while two turns in a row have taken this long (TurnLength.
 * streakMs: a crowd arriving): twice the median's bar, since two turns are less evidence than eight.
 */
export const UPLOAD_BUSY_STREAK_MS = 100;
/**
 * Below that bar, while a turn still takes this long (the median, as above), the server is serving a
 * crowd: uploads are let in one at a time, a new one getting a 503 while another runs (decision
 * 0044). Each one let in then takes ~0.5–1 s (its ~10–30 waits for a turn), and every one running
 * beside it takes CPU from the people browsing and moves the library version that all their caches
 * follow: in issue 13's soak, ~20 uploads a second let in cost the crowd ~20% of its requests per
 * second. An idle or lightly used server's turns take a few milliseconds: its uploads run as many
 * at once as the limits above allow.
 */
export const UPLOAD_ONE_AT_A_TIME_TURN_MS = 25;
/** Retry-After of a 429 (person) or 503 (server) upload refusal: about one 20-file web batch. */
export const UPLOAD_RETRY_AFTER_SECONDS = 10;
/** Pixels of one image: refused from the header, before any decoding (decompression bombs). */
export const MAX_PIXELS = 200_000_000;

/** Derived images (DECISIONS §4): long side of the display image and of the thumbnail, in pixels. */
export const DISPLAY_SIZE = 1920;
export const THUMBNAIL_SIZE = 400;
/** Largest gallery list sent without paging (GET /api/gridimages with no page): newest first. */
export const MAX_UNPAGED_IMAGES = 10_000;
