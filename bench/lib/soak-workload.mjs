// The soak test's simulated people: each sends one request, waits for the answer, and sends the
// next at once (no think time), picking what to do from a fixed mix. Every answer is timed and
// sorted into ok (2xx), turned away (429/503: limits doing their job) or an error (anything else,
// or no answer).
import http from 'node:http';
import { crc32, deflateSync } from 'node:zlib';

/** What people do, in percent of their requests (`--mix` in soak.mjs replaces it). */
export const DEFAULT_MIX = [
  { kind: 'gallery', percent: 70 },
  { kind: 'detail', percent: 8 },
  { kind: 'like', percent: 6 },
  { kind: 'tag', percent: 5 },
  { kind: 'suggestions', percent: 4 },
  { kind: 'search', percent: 5 },
  { kind: 'upload', percent: 2 },
];
export const KINDS = DEFAULT_MIX.map((m) => m.kind);

/** `gallery=90,search=10` → a mix of those kinds only (percentages must add up to 100). */
export function parseMix(text) {
  const mix = text.split(',').filter(Boolean).map((pair) => {
    const [kind, percent] = pair.split('=');
    if (!KINDS.includes(kind) || !(Number(percent) >= 0)) throw new Error(`--mix: "${pair}" is not kind=percent (kinds: ${KINDS.join(', ')})`);
    return { kind, percent: Number(percent) };
  });
  if (mix.reduce((sum, m) => sum + m.percent, 0) !== 100) throw new Error('--mix: the percentages must add up to 100');
  return mix;
}

/** Tags people add and words they search for: everyday words of the library's vocabulary, a few new ones. */
const TAG_WORDS = ['beach', 'family', 'summer', 'sunset', 'dog', 'cake', 'friends', 'hiking', 'paris', 'anna', 'zoo', 'picnic', 'soak favourite', 'soak trip'];
const SEARCH_WORDS = ['beach', 'summer', 'paris', 'family 2019', 'anna', 'zoo', 'sunset', 'img_0042', 'fireworks', 'lisbon harbour'];
const GALLERY_PAGES = 200;
const PAGE_SIZE = 50;
const REQUEST_TIMEOUT_MS = 30_000;

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

/**
 * Runs `people` simulated people against `url` for `seconds`, person i signed in as
 * accounts[i % accounts.length]. Resolves to { samples: { kind: { ms: number[], statuses: Map, bytes } },
 * errors: [{ kind, status, detail }] (first few of each), timeline: [{ ms: number[], turnedAway, errors }]
 * (the answers that came in each second), slowest: the 10 slowest requests, seconds } once every
 * person has stopped.
 */
export async function runPeople({ url, accounts, people, seconds, mix = DEFAULT_MIX }) {
  const samples = Object.fromEntries(KINDS.map((kind) => [kind, { ms: [], statuses: new Map(), bytes: 0 }]));
  const errorSamples = [];
  const timeline = [];
  const slowest = [];
  const cumulative = [];
  let sum = 0;
  for (const { kind, percent } of mix) cumulative.push({ kind, upTo: (sum += percent) });
  let uploadSeed = Date.now() % 1_000_000;

  const started = performance.now();
  const endAt = started + seconds * 1000;
  const person = async (index) => {
    const account = accounts[index % accounts.length];
    const seen = []; // image ids this person was shown, to open, like and tag
    while (performance.now() < endAt) {
      const roll = Math.random() * 100;
      let kind = cumulative.find((c) => roll < c.upTo)?.kind ?? 'gallery';
      // Opening, liking or tagging needs an image seen first: a newcomer starts on the first page.
      const needsImage = kind === 'detail' || kind === 'like' || kind === 'tag';
      if (needsImage && seen.length === 0) kind = 'gallery';
      const call = seen.length === 0 && kind === 'gallery' ? { method: 'GET', path: `/api/gridimages?page=1&limit=${PAGE_SIZE}` } : requestFor(kind, seen, () => (uploadSeed += 1));
      const t0 = performance.now();
      let status;
      let text = '';
      try {
        ({ status, text } = await send(url, call, account.token));
      } catch (error) {
        status = error.code ?? 'no answer';
        text = error.message;
      }
      const ms = performance.now() - t0;
      const bucket = samples[kind];
      bucket.ms.push(ms);
      bucket.bytes += text.length;
      bucket.statuses.set(status, (bucket.statuses.get(status) ?? 0) + 1);
      const ok = typeof status === 'number' && status >= 200 && status < 300;
      const second = Math.floor((t0 + ms - started) / 1000);
      const slot = (timeline[second] ??= { ms: [], turnedAway: 0, errors: 0 });
      slot.ms.push(ms);
      if (slowest.length < 10 || ms > slowest[slowest.length - 1].ms) {
        slowest.push({ kind, path: call.path, status, startedAtSecond: Math.round(t0 - started) / 1000, ms: Math.round(ms) });
        slowest.sort((x, y) => y.ms - x.ms).splice(10);
      }
      if (status === 429 || status === 503) slot.turnedAway += 1;
      else if (!ok) slot.errors += 1;
      if (!ok && status !== 429 && status !== 503 && errorSamples.filter((e) => e.kind === kind).length < 5) {
        errorSamples.push({ kind, status, path: call.path, detail: text.slice(0, 300) });
      }
      // Learn image ids from the grid (or the first upload's answer), while few are known or now and then.
      if (ok && (kind === 'gallery' || kind === 'search') && (seen.length < 20 || Math.random() < 0.05)) {
        for (const match of text.matchAll(/"_id":"(\d+)"/g)) {
          if (seen.length >= 200) seen[Math.floor(Math.random() * seen.length)] = match[1];
          else seen.push(match[1]);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: people }, (_, i) => person(i)));
  return { samples, errors: errorSamples, slowest, timeline: Array.from(timeline, (slot) => slot ?? { ms: [], turnedAway: 0, errors: 0 }), seconds: (performance.now() - started) / 1000 };
}

function requestFor(kind, seen, nextSeed) {
  const any = () => seen[Math.floor(Math.random() * seen.length)];
  const word = (words) => words[Math.floor(Math.random() * words.length)];
  switch (kind) {
    case 'gallery':
      return { method: 'GET', path: `/api/gridimages?page=${1 + Math.floor(Math.random() * GALLERY_PAGES)}&limit=${PAGE_SIZE}` };
    case 'detail':
      return { method: 'GET', path: `/api/images/${any()}` };
    case 'like':
      return { method: 'POST', path: `/images/${any()}/like`, json: { liked: Math.random() < 0.7 } };
    case 'tag':
      return { method: 'POST', path: `/images/${any()}/addTag`, json: { tag: word(TAG_WORDS) } };
    case 'suggestions':
      return { method: 'GET', path: '/api/search/suggestions?query=be' };
    case 'search':
      return { method: 'GET', path: `/search?query=${encodeURIComponent(word(SEARCH_WORDS))}` };
    case 'upload': {
      const seed = nextSeed();
      return { method: 'POST', path: '/bulk-upload', multipart: { name: `soak-${seed}.png`, bytes: tinyPng(seed) } };
    }
    default:
      throw new Error(`unknown kind ${kind}`);
  }
}

/** One request over a kept-alive connection; resolves to { status, text }. */
function send(url, { method, path, json, multipart }, token) {
  let body;
  const headers = { accept: 'application/json', authorization: `Bearer ${token}` };
  if (json) {
    body = Buffer.from(JSON.stringify(json));
    headers['content-type'] = 'application/json';
  } else if (multipart) {
    const boundary = `----soak${Math.random().toString(16).slice(2)}`;
    body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="images"; filename="${multipart.name}"\r\nContent-Type: image/png\r\n\r\n`),
      multipart.bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
  }
  if (body) headers['content-length'] = body.length;
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}${path}`, { method, agent, headers, timeout: REQUEST_TIMEOUT_MS }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error(`no answer within ${REQUEST_TIMEOUT_MS / 1000} s`), { code: 'timeout' })));
    req.on('error', reject);
    req.end(body);
  });
}

/** A distinct 16×16 PNG per seed (solid colour plus a seed-dependent row), so no upload is a duplicate. */
export function tinyPng(seed) {
  const width = 16;
  const height = 16;
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y += 1) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x += 1) {
      const p = row + 1 + x * 3;
      raw[p] = (seed >> (y === 0 ? x % 24 : 0)) & 255;
      raw[p + 1] = (seed >> 8) & 255;
      raw[p + 2] = (x * 16 + y) & 255;
    }
  }
  const chunk = (type, data) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), data])));
    return Buffer.concat([length, Buffer.from(type), data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Percentile (nearest rank) of sorted numbers. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
