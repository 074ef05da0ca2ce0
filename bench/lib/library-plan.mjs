// What the benchmark library holds, decided before any row is written: N photos taken over 20
// years (more in recent years), grouped in events — weekday snaps, weekend outings, holidays and
// vacations, some abroad in another time zone — with bursts of shots on their days; ~7% without a
// date taken (scans, messenger pictures, edited exports); and an upload order that has little to
// do with the taken order: photos from before the library existed were uploaded in backfill
// sessions over its six years (an initial import, then now and then), old scans recently, newer
// photos days after they were taken. Image ids follow the upload order, as the server numbers them.
//
// Deterministic: the same count always gives the same library. Everything per photo lives in typed
// arrays (a million photos are ~40 MB), and rows are produced one at a time by `libraryRows()`.

/** First and last instants photos are taken in: 20 full years. */
export const TAKEN_FROM_YEAR = 2005;
export const TAKEN_YEARS = 20;
/** The library (the app) exists from here; uploads run until UPLOAD_END. */
export const APP_START = Date.UTC(2019, 0, 1);
export const UPLOAD_END = Date.UTC(2025, 0, 1);

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** No offset recorded (taken_offset null): the wall clock reads as UTC. */
export const NO_OFFSET = -32768;

/** Where a photo's place in the timeline comes from (images.date_source), as codes. */
export const SOURCE = { taken: 0, fileExif: 1, fileClient: 2, upload: 3 };
export const SOURCE_NAME = ['taken', 'file', 'file', 'upload'];

// ---------------------------------------------------------------------------------------------
// Cameras: what each era of the library was shot with, and the facts they record.

const phone = (camera, lens, focal, fNumber, { offsets = true, heic = false, sizes = [[4032, 3024], [3024, 4032]], names = 'iphone' } = {}) => ({
  camera, lens, focal: [focal, focal], fNumbers: [fNumber], iso: [25, 2000], exposure: [1 / 8000, 1 / 15], offsets, heic, sizes, names, kind: 'phone',
});
const camera = (name, lenses, { focal, fNumbers, iso = [100, 6400], exposure = [1 / 4000, 1 / 30], offsets = false, sizes, names = 'img' }) => ({
  camera: name, lenses, focal, fNumbers, iso, exposure, offsets, heic: false, sizes, names, kind: 'camera',
});

export const CAMERAS = [
  // 2005–2011
  camera('Canon PowerShot A620', ['5.8-23.2 mm'], { focal: [7.3, 29.2], fNumbers: [2.8, 4, 5.6, 8], iso: [50, 400], sizes: [[3072, 2304], [2304, 3072]] }),
  camera('NIKON D70', ['18.0-70.0 mm f/3.5-4.5'], { focal: [18, 70], fNumbers: [3.5, 4.5, 5.6, 8, 11], iso: [200, 1600], sizes: [[3008, 2000], [2000, 3008]], names: 'dsc' }),
  camera('Canon EOS 400D DIGITAL', ['EF-S18-55mm f/3.5-5.6'], { focal: [18, 55], fNumbers: [3.5, 5.6, 8, 11], iso: [100, 1600], sizes: [[3888, 2592], [2592, 3888]] }),
  camera('KODAK EasyShare C743 ZOOM DIGITAL CAMERA', [null], { focal: [6.2, 18.6], fNumbers: [2.8, 4.8], iso: [64, 400], sizes: [[3072, 2304]], names: 'dcp' }),
  camera('SONY DSC-W55', [null], { focal: [6.3, 18.9], fNumbers: [2.8, 5.2], iso: [80, 1000], sizes: [[3072, 2304], [2304, 3072]], names: 'dsc' }),
  // 2011–2017
  camera('Canon EOS 5D Mark III', ['EF24-105mm f/4L IS USM', 'EF50mm f/1.8 II', 'EF70-200mm f/2.8L IS II USM'], { focal: [24, 200], fNumbers: [1.8, 2.8, 4, 5.6, 8, 11], iso: [100, 12800], sizes: [[5760, 3840], [3840, 5760]] }),
  phone('Apple iPhone 4S', 'iPhone 4S back camera 4.28mm f/2.4', 4.28, 2.4, { offsets: false, sizes: [[3264, 2448], [2448, 3264]] }),
  phone('Apple iPhone 6', 'iPhone 6 back camera 4.15mm f/2.2', 4.15, 2.2, { offsets: false, sizes: [[3264, 2448], [2448, 3264]] }),
  phone('SAMSUNG GT-I9300', null, 3.7, 2.6, { offsets: false, sizes: [[3264, 2448], [2448, 3264]], names: 'samsung' }),
  camera('NIKON D7100', ['18.0-105.0 mm f/3.5-5.6', '35.0 mm f/1.8'], { focal: [18, 105], fNumbers: [1.8, 3.5, 5.6, 8], iso: [100, 6400], sizes: [[6000, 4000], [4000, 6000]], names: 'dsc' }),
  phone('OPPO R7plusf', null, 3.81, 2.2, { offsets: false, sizes: [[4160, 3120], [3120, 4160]], names: 'samsung' }),
  // 2017–2024: phones record the offset (EXIF 2.31), and so do newer cameras.
  phone('Apple iPhone X', 'iPhone X back dual camera 4mm f/1.8', 4, 1.8, { heic: true }),
  phone('Apple iPhone 13', 'iPhone 13 back dual wide camera 5.1mm f/1.6', 5.1, 1.6, { heic: true }),
  phone('Apple iPhone 15 Pro', 'iPhone 15 Pro back triple camera 6.765mm f/1.78', 6.765, 1.78, { heic: true, sizes: [[5712, 4284], [4284, 5712]] }),
  phone('Google Pixel 7', null, 6.81, 1.85, { sizes: [[4080, 3072], [3072, 4080]], names: 'pixel' }),
  phone('samsung SM-G991B', null, 5.4, 1.8, { sizes: [[4000, 3000], [3000, 4000]], names: 'samsung' }),
  camera('SONY ILCE-7M3', ['FE 24-105mm F4 G OSS', 'FE 85mm F1.8'], { focal: [24, 105], fNumbers: [1.8, 4, 5.6, 8], iso: [100, 12800], offsets: true, sizes: [[6000, 4000], [4000, 6000]], names: 'dsc' }),
  camera('FUJIFILM X-T3', ['XF18-55mmF2.8-4 R LM OIS', 'XF35mmF1.4 R'], { focal: [18, 55], fNumbers: [1.4, 2.8, 4, 5.6], iso: [160, 6400], offsets: true, sizes: [[6240, 4160], [4160, 6240]], names: 'dscf' }),
];
const ERAS = [
  { until: 2011, cameras: [0, 1, 2, 3, 4] },
  { until: 2017, cameras: [5, 6, 7, 8, 9, 10, 2] },
  { until: 9999, cameras: [11, 12, 13, 14, 15, 16, 17, 5] },
];
const camerasOf = (year) => ERAS.find((e) => year < e.until).cameras;

/** The places photos are taken: home (its offset follows summer time), and abroad with fixed offsets. */
export const HOME = { lat: 52.52, lon: 13.405 };
export const ABROAD = [
  { lat: 40.7128, lon: -74.006, offset: -240 }, { lat: 35.6762, lon: 139.6503, offset: 540 }, { lat: 13.7563, lon: 100.5018, offset: 420 },
  { lat: 28.6139, lon: 77.209, offset: 330 }, { lat: -33.8688, lon: 151.2093, offset: 600 }, { lat: 38.7223, lon: -9.1393, offset: 60 },
  { lat: 34.0522, lon: -118.2437, offset: -420 }, { lat: -33.9249, lon: 18.4241, offset: 120 }, { lat: 64.1466, lon: -21.9426, offset: 0 },
  { lat: -22.9068, lon: -43.1729, offset: -180 }, { lat: -8.4095, lon: 115.1889, offset: 480 }, { lat: 37.9838, lon: 23.7275, offset: 180 },
];

// ---------------------------------------------------------------------------------------------
// Randomness: one seeded generator for the plan, and a hash per (id, salt) for per-row details.

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A well-mixed 32-bit hash of two integers. */
export function mix(a, b = 0) {
  let h = (Math.imul(a | 0, 0x9e3779b1) ^ Math.imul(b | 0, 0x85ebca77)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}
const unit = (a, b) => mix(a, b) / 4294967296;

/** Exponentially distributed, mean `mean`. */
const exponential = (random, mean) => -Math.log(1 - random()) * mean;

/** Western Easter Sunday of `year` (anonymous Gregorian algorithm), as UTC midnight ms. */
function easter(year) {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return Date.UTC(year, month - 1, day);
}

const BIRTHDAYS = [[1, 27], [2, 14], [5, 2], [8, 21], [10, 8]]; // [month index, day]

// ---------------------------------------------------------------------------------------------
// The plan.

/**
 * @returns {{
 *   count: number,
 *   order: Uint32Array,      // order[id - 1] = the photo (plan index) uploaded as image `id`
 *   wall: Float64Array,      // wall-clock time taken, as if UTC (ms)
 *   offset: Int16Array,      // recorded offset in minutes, or NO_OFFSET
 *   source: Uint8Array,      // SOURCE code
 *   camera: Uint8Array,      // index into CAMERAS, 255: none recorded
 *   place: Int8Array,        // -1 home, -2 no GPS, else index into ABROAD
 *   uploaded: Float64Array,  // upload instant (ms)
 *   event: Int32Array,       // event index
 *   events: { uploader: 'admin' | 'uploader', kind: string, photos: number, firstPhoto: number }[],
 *   sharedPhotos: Uint32Array, // plan indexes of the admin's photos in the restricted share
 * }}
 */
export function planLibrary(count, { sharedImages = 300, uploaderShare = 0.3 } = {}) {
  const random = mulberry32(20_250_101);
  const wall = new Float64Array(count);
  const offset = new Int16Array(count);
  const source = new Uint8Array(count);
  const cameraOf = new Uint8Array(count);
  const place = new Int8Array(count);
  const uploaded = new Float64Array(count);
  const event = new Int32Array(count);
  const events = [];

  // Photos per year grow ~15% a year: 2024 has ~14× the photos of 2005.
  const yearWeights = Array.from({ length: TAKEN_YEARS }, (_, k) => 1.15 ** k);
  const yearTotal = yearWeights.reduce((a, b) => a + b, 0);
  const pickYear = () => {
    let x = random() * yearTotal;
    for (let k = 0; k < TAKEN_YEARS; k += 1) if ((x -= yearWeights[k]) < 0) return TAKEN_FROM_YEAR + k;
    return TAKEN_FROM_YEAR + TAKEN_YEARS - 1;
  };
  const homeOffset = (ms) => {
    const month = new Date(ms).getUTCMonth();
    return month >= 3 && month <= 9 ? 120 : 60; // summer time April–October, roughly
  };

  let n = 0;
  /** Adds the photos of one day: bursts within the day's active hours. */
  const addDay = (dayMs, photos, { from, to }, ev) => {
    let left = photos;
    while (left > 0 && n < count) {
      const burst = Math.min(left, random() < 0.55 ? 1 : 2 + Math.floor(exponential(random, 4)));
      let t = dayMs + (from + random() * (to - from)) * HOUR + Math.floor(random() * 60_000);
      for (let s = 0; s < burst && n < count; s += 1) {
        wall[n] = Math.floor(t / 1000) * 1000; // EXIF dates have whole seconds
        event[n] = ev;
        n += 1;
        t += 300 + Math.floor(random() * 2700);
      }
      left -= burst;
    }
  };

  // Scans of old prints: no date at all (their key is the upload time), uploaded in batches during
  // the library's last year and a half — "old scans uploaded recently". ~2% of the library.
  const scanPhotos = Math.round(count * 0.02);

  while (n < count - scanPhotos) {
    const ev = events.length;
    const year = pickYear();
    const yearStart = Date.UTC(year, 0, 1);
    const first = n;
    const r = random();
    let kind;
    let abroad = -1;
    if (r < 0.38) {
      // A weekday: a few snaps in the evening.
      kind = 'weekday';
      let day = yearStart + Math.floor(random() * 365) * DAY;
      while ([0, 6].includes(new Date(day).getUTCDay())) day += DAY;
      addDay(day, 1 + Math.floor(exponential(random, 5)), { from: 7, to: 22 }, ev);
    } else if (r < 0.78) {
      // A weekend outing: Saturday, Sunday or both.
      kind = 'weekend';
      let day = yearStart + Math.floor(random() * 365) * DAY;
      while (new Date(day).getUTCDay() !== 6) day += DAY;
      if (random() < 0.05) abroad = Math.floor(random() * ABROAD.length);
      const both = random() < 0.3;
      const sunday = !both && random() < 0.45;
      addDay(sunday ? day + DAY : day, 3 + Math.floor(exponential(random, 20)), { from: 9, to: 20 }, ev);
      if (both) addDay(day + DAY, 2 + Math.floor(exponential(random, 15)), { from: 9, to: 19 }, ev);
    } else if (r < 0.89) {
      // A holiday or a birthday: one big day.
      kind = 'holiday';
      const h = Math.floor(random() * 8);
      const day = h === 0 ? Date.UTC(year, 11, 24)
        : h === 1 ? Date.UTC(year, 11, 25)
        : h === 2 ? Date.UTC(year, 11, 31)
        : h === 3 ? easter(year)
        : Date.UTC(year, BIRTHDAYS[h - 4][0], BIRTHDAYS[h - 4][1]);
      // New Year's Eve runs past midnight (the last photos are on January 1st).
      addDay(day, 10 + Math.floor(exponential(random, 50)), h === 2 ? { from: 18, to: 25 } : { from: 11, to: 23 }, ev);
    } else {
      // A vacation: 3–16 days, mostly in summer, often abroad.
      kind = 'vacation';
      const v = random();
      const start = v < 0.6 ? Date.UTC(year, 6, 1) + Math.floor(random() * 50) * DAY
        : v < 0.75 ? Date.UTC(year, 11, 20) + Math.floor(random() * 7) * DAY
        : v < 0.85 ? easter(year) - Math.floor(random() * 7) * DAY
        : Date.UTC(year, 9, 5) + Math.floor(random() * 25) * DAY;
      if (random() < 0.6) abroad = Math.floor(random() * ABROAD.length);
      const days = 3 + Math.floor(random() * 14);
      for (let d = 0; d < days && n < count - scanPhotos; d += 1) addDay(start + d * DAY, Math.floor(exponential(random, 30)), { from: 8, to: 22 }, ev);
    }
    if (n === first) continue; // a day with no photos after all
    if (n > count - scanPhotos) n = count - scanPhotos;
    // One main camera per event and now and then a second one (another person's phone).
    const cams = camerasOf(year);
    const main = cams[Math.floor(random() * cams.length)];
    const second = cams[Math.floor(random() * cams.length)];
    for (let p = first; p < n; p += 1) {
      const u = random();
      // ~5% of the photos have no date taken: 2% messenger copies and screenshots (nothing but the
      // upload), 3% with a file date only — half in the file's metadata, half its last-modified
      // time as the browser reported it.
      if (u < 0.02) source[p] = SOURCE.upload;
      else if (u < 0.035) source[p] = SOURCE.fileExif;
      else if (u < 0.05) source[p] = SOURCE.fileClient;
      else source[p] = SOURCE.taken;
      const cam = source[p] === SOURCE.taken || source[p] === SOURCE.fileExif ? (random() < 0.8 ? main : second) : 255;
      cameraOf[p] = cam;
      const records = cam !== 255 && CAMERAS[cam].offsets;
      offset[p] = !records || source[p] !== SOURCE.taken ? NO_OFFSET : abroad >= 0 ? ABROAD[abroad].offset : homeOffset(wall[p]);
      place[p] = cam !== 255 && CAMERAS[cam].kind === 'phone' && year >= 2010 && random() < 0.7 ? abroad : -2;
    }
    // Uploads: a few days after the event once the library existed; before, in backfill sessions
    // (a third in the first two weeks' big import, the rest any time since).
    const lastInstant = wall[n - 1] + 12 * HOUR;
    let session;
    if (lastInstant >= APP_START) session = Math.min(lastInstant + 10 * 60_000 + exponential(random, 4 * DAY), Math.max(UPLOAD_END, lastInstant + HOUR));
    else if (random() < 0.33) session = APP_START + random() * 14 * DAY;
    else session = APP_START + random() * (UPLOAD_END - APP_START);
    events.push({ kind, photos: n - first, firstPhoto: first, uploader: random() < uploaderShare ? 'uploader' : 'admin', session, abroad });
  }

  // The scans: batches of ~150, uploaded by the admin.
  while (n < count) {
    const first = n;
    const size = Math.min(count - n, 20 + Math.floor(exponential(random, 130)));
    const ev = events.length;
    for (let p = first; p < first + size; p += 1) {
      source[p] = SOURCE.upload;
      cameraOf[p] = 255;
      offset[p] = NO_OFFSET;
      place[p] = -2;
      event[p] = ev;
    }
    n += size;
    events.push({ kind: 'scans', photos: size, firstPhoto: first, uploader: 'admin', session: UPLOAD_END - random() * 540 * DAY, abroad: -1 });
  }

  // Each event is uploaded in one session, its photos in the order taken, a couple of seconds apart.
  const byEvent = new Uint32Array(count);
  for (let p = 0; p < count; p += 1) byEvent[p] = p;
  for (const e of events) {
    const slice = byEvent.subarray(e.firstPhoto, e.firstPhoto + e.photos);
    if (e.kind !== 'scans') slice.sort((a, b) => wall[a] - wall[b]);
    let t = e.session;
    for (const p of slice) {
      uploaded[p] = Math.floor(t);
      t += 800 + random() * 3000;
    }
  }
  // The 'upload' photos were taken at their upload, as far as anyone knows; 'file' ones at the
  // file's date (close to when they were really taken).
  const order = new Uint32Array(count);
  for (let p = 0; p < count; p += 1) order[p] = p;
  order.sort((a, b) => uploaded[a] - uploaded[b] || a - b);

  // The restricted share: ~25 photos each from admin events spread over the years.
  const adminEvents = events.filter((e) => e.uploader === 'admin' && e.kind !== 'scans' && e.photos >= 5);
  adminEvents.sort((a, b) => wall[a.firstPhoto] - wall[b.firstPhoto]);
  const perEvent = 25;
  const wantedEvents = Math.max(1, Math.ceil(sharedImages / perEvent));
  const shared = [];
  const stride = Math.max(1, Math.floor(adminEvents.length / wantedEvents));
  // Every stride-th event; when those hold too few photos, the ones just after them too.
  for (let start = 0; start < stride && shared.length < sharedImages; start += 1) {
    for (let k = start; k < adminEvents.length && shared.length < sharedImages; k += stride) {
      const e = adminEvents[k];
      for (let p = e.firstPhoto; p < e.firstPhoto + Math.min(e.photos, perEvent) && shared.length < sharedImages; p += 1) shared.push(p);
    }
  }
  return { count, order, wall, offset, source, camera: cameraOf, place, uploaded, event, events, sharedPhotos: Uint32Array.from(shared) };
}

// ---------------------------------------------------------------------------------------------
// Fast text for dates: 'YYYY-MM-DDTHH:MM:SS' and ISO instants, without a Date per call.

const pad2 = Array.from({ length: 100 }, (_, k) => String(k).padStart(2, '0'));
const pad3 = Array.from({ length: 1000 }, (_, k) => String(k).padStart(3, '0'));
let cachedDay = Number.NaN;
let cachedDayText = '';
function dayText(day) {
  if (day !== cachedDay) {
    cachedDay = day;
    cachedDayText = new Date(day * DAY).toISOString().slice(0, 11);
  }
  return cachedDayText;
}
/** 'YYYY-MM-DDTHH:MM:SS' of ms read as UTC (a wall clock). */
export function wallText(ms) {
  const day = Math.floor(ms / DAY);
  let rest = Math.floor((ms - day * DAY) / 1000);
  const s = rest % 60;
  rest = (rest - s) / 60;
  return `${dayText(day)}${pad2[Math.floor(rest / 60)]}:${pad2[rest % 60]}:${pad2[s]}`;
}
/** ISO instant with milliseconds, as the server writes created_at. */
export function isoText(ms) {
  const whole = Math.floor(ms / 1000) * 1000;
  return `${wallText(whole)}.${pad3[ms - whole]}Z`;
}
export function offsetText(minutes) {
  if (minutes === NO_OFFSET) return null;
  const sign = minutes < 0 ? '-' : '+';
  const m = Math.abs(minutes);
  return `${sign}${pad2[Math.floor(m / 60)]}:${pad2[m % 60]}`;
}

// ---------------------------------------------------------------------------------------------
// Rows.

const HEX = Array.from({ length: 256 }, (_, k) => k.toString(16).padStart(2, '0'));
/** A unique, random-looking 64-hex-digit content hash for image `id` (SHA-256 of 1M strings took 4 s). */
export function contentHash(id) {
  let out = '';
  for (let w = 0; w < 8; w += 1) {
    const h = mix(id, 0x51ed270b + w);
    out += HEX[h >>> 24] + HEX[(h >>> 16) & 255] + HEX[(h >>> 8) & 255] + HEX[h & 255];
  }
  return out;
}

const SCAN_SIZES = [[2400, 1600], [1600, 2400], [3508, 2480], [1800, 1200]];
const MESSENGER_SIZES = [[1600, 1200], [1200, 1600], [1170, 2532], [1080, 1920], [2048, 1536]];
const EXPOSURES = [1 / 8000, 1 / 4000, 1 / 2000, 1 / 1000, 1 / 500, 1 / 250, 1 / 125, 1 / 60, 1 / 30, 1 / 15, 1 / 8, 0.5, 2];

function fileName(cam, id, wall, source, kind) {
  const seq = String(1000 + (id % 9000));
  if (kind === 'scans') return `Scan ${String(id % 100_000).padStart(5, '0')}.jpeg`;
  if (cam === 255 || source === SOURCE.upload) {
    const d = wallText(wall);
    return source === SOURCE.upload && id % 3 === 0
      ? `Screenshot ${d.slice(0, 10)} at ${d.slice(11, 13)}.${d.slice(14, 16)}.${d.slice(17, 19)}.png`
      : `IMG-${d.slice(0, 4)}${d.slice(5, 7)}${d.slice(8, 10)}-WA${String(id % 10_000).padStart(4, '0')}.jpg`;
  }
  const c = CAMERAS[cam];
  switch (c.names) {
    case 'iphone':
      return c.heic && id % 2 === 0 ? `IMG_${seq}.HEIC` : `IMG_${seq}.JPG`;
    case 'pixel': {
      const d = wallText(wall);
      return `PXL_${d.slice(0, 4)}${d.slice(5, 7)}${d.slice(8, 10)}_${d.slice(11, 13)}${d.slice(14, 16)}${d.slice(17, 19)}${pad3[id % 1000]}.jpg`;
    }
    case 'samsung': {
      const d = wallText(wall);
      return `${d.slice(0, 4)}${d.slice(5, 7)}${d.slice(8, 10)}_${d.slice(11, 13)}${d.slice(14, 16)}${d.slice(17, 19)}.jpg`;
    }
    case 'dsc':
      return `DSC${String(id % 100_000).padStart(5, '0')}.JPG`;
    case 'dscf':
      return `DSCF${seq}.JPG`;
    case 'dcp':
      return `100_${seq}.JPG`;
    default:
      return `IMG_${seq}.JPG`;
  }
}

/**
 * The image `id`'s row values (media and images share the id), in the column order of
 * MEDIA_COLUMNS and IMAGE_COLUMNS. `admin` and `uploader` are the two uploading accounts' ids.
 * `placeholderFor(landscape, k)` gives a ThumbHash and derived keys for one of 16 gradients.
 */
export function photoRow(plan, id, { admin, uploader }, placeholderFor) {
  const p = plan.order[id - 1];
  const src = plan.source[p];
  const cam = plan.camera[p];
  const ev = plan.events[plan.event[p]];
  const c = cam === 255 ? undefined : CAMERAS[cam];
  const h = mix(id, 7);
  const sizes = c ? c.sizes : ev.kind === 'scans' ? SCAN_SIZES : MESSENGER_SIZES;
  const [width, height] = sizes[h % sizes.length];
  const created = isoText(plan.uploaded[p]);
  const wall = plan.wall[p];
  const off = plan.offset[p];
  let takenAt = null;
  let fileDate = null;
  let fileModifiedAt = null;
  let takenKey;
  if (src === SOURCE.taken) {
    takenAt = wallText(wall);
    fileDate = takenAt;
    takenKey = off === NO_OFFSET ? wall : wall - off * 60_000;
  } else if (src === SOURCE.fileExif) {
    // An edited export: its metadata keeps the save date, a few hours after the shot.
    const saved = wall + Math.floor(unit(id, 11) * 6) * HOUR;
    fileDate = wallText(saved);
    takenKey = saved;
  } else if (src === SOURCE.fileClient) {
    // The file's last-modified time, hours after the shot (and before the upload).
    const modified = Math.min(wall + Math.floor(unit(id, 12) * 48) * HOUR, plan.uploaded[p] - 60_000);
    fileModifiedAt = isoText(modified);
    takenKey = modified;
  } else {
    takenKey = plan.uploaded[p];
  }
  const place = plan.place[p];
  const gps = place === -2 ? null : place === -1 ? HOME : ABROAD[place];
  const jitter = (mix(id, 13) % 2000) / 100_000;
  const name = fileName(cam, id, src === SOURCE.upload ? plan.uploaded[p] : wall, src, ev.kind);
  const heic = /\.HEIC$/.test(name);
  const png = /\.png$/.test(name);
  const hash = contentHash(id);
  const thumb = placeholderFor(width >= height, h >>> 8);
  let facts = [null, null, null, null, null];
  if (c) {
    const u = unit(id, 17);
    const focal = Number((c.focal[0] + (c.focal[1] - c.focal[0]) * (c.kind === 'phone' ? 0 : u)).toFixed(1));
    const fNumber = c.fNumbers[mix(id, 19) % c.fNumbers.length];
    const iso = Math.round(c.iso[0] * (c.iso[1] / c.iso[0]) ** unit(id, 23) / 10) * 10 || c.iso[0];
    const exposure = EXPOSURES[Math.floor(unit(id, 29) * (EXPOSURES.length - 2))];
    const lens = c.lens ?? (c.lenses ? c.lenses[mix(id, 31) % c.lenses.length] : null);
    facts = [lens, fNumber, exposure, iso, focal];
  }
  const media = [
    id, hash, heic ? 'image/heic' : png ? 'image/png' : 'image/jpeg',
    Math.round(width * height * (0.25 + unit(id, 37) * 0.3)), 'ready', width, height, thumb.placeholder,
    takenAt, c ? (c.camera) : null, gps ? gps.lat + jitter : null, gps ? gps.lon - jitter : null,
    `originals/${hash}`, thumb.displayKey, thumb.thumbnailKey, created, null,
    offsetText(off), fileDate, ...facts, 1,
  ];
  const image = [
    id, id, ev.uploader === 'uploader' ? uploader : admin, name, name.replace(/\.[^.]+$/, ''), 1, created,
    takenKey, SOURCE_NAME[src], fileModifiedAt,
  ];
  return { media, image, takenKey, src };
}

export const MEDIA_COLUMNS = [
  'id', 'content_hash', 'mime', 'byte_size', 'status', 'width', 'height', 'placeholder', 'taken_at', 'camera', 'gps_latitude',
  'gps_longitude', 'original_key', 'display_key', 'thumbnail_key', 'created_at', 'claimed_at',
  'taken_offset', 'file_date', 'lens', 'f_number', 'exposure_time', 'iso', 'focal_length', 'facts_version',
];
export const IMAGE_COLUMNS = ['id', 'media_id', 'uploaded_by', 'file_name', 'image_name', 'ready', 'created_at', 'taken_key', 'date_source', 'file_modified_at'];
