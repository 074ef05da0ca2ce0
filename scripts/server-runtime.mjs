// How the server process runs: `npm start` (package.json's "start" spells these out, since glibc reads
// its settings before any JavaScript runs) and the benchmark, which must measure that same process.
// server/test/server-runtime.test.ts keeps the two in step. Why each (issue 14, decision 0013):
// - MALLOC_ARENA_MAX=1: image work on many threads otherwise spreads over one malloc arena per thread,
//   each keeping its own freed memory (sharp's docs on memory allocators). One arena rather than two:
//   the 1 GB upload's peak 198–208 → 183–186 MB, at the same speed (decision 0013).
// - MALLOC_MMAP_THRESHOLD_/MALLOC_TRIM_THRESHOLD_ at 128 KiB: libvips' pixel buffers are mmapped and
//   unmapped when freed, and the heap's free top goes back to the system, so what a burst of decoding
//   took is returned (the dynamic threshold otherwise climbs to 32 MB and keeps it: 261 MB held 30 s
//   after the real mix, 177 MB with these).
// - The decoder process takes its own thresholds instead (decoder-process.ts,
//   DECODER_MALLOC_SETTINGS): it ends when idle, and with these its pixel work cost ~8% more.
// - --max-semi-space-size=16: V8's own default, spelled out. Under issue 13's crowd it costs a third
//   of the minor collections 2 MB did (the soak's p50 ~7% lower, decision 0038); at rest the server
//   gives it back down to 1 MB — after starting and once image work pauses (shared/collect-garbage.ts
//   `shrinkYoungGeneration`), and V8's memory reducer after 8–16 s of rest — so an idle server is no
//   larger than with 2 MB (decision 0013 chose 2 MB for that, before there was a way to shrink it).
// - --initial-old-space-size=64: V8 counts the bytes behind Buffers (every chunk of an upload, a zip
//   or a photo being sent) against the old generation's limit, which on the server's small heap
//   (~25 MB) sits ~10 MB above what is live: a full collection of the whole heap every ~10 MB
//   streamed, most of a zip's CPU. A 64 MB floor under that limit: a zip 2–2.5× faster, tus
//   uploads +15%; brief peaks up to ~25 MB higher (the 1 GB upload 146 MB against 122), all within
//   issue 14's targets (decision 0023).
export const SERVER_RUNTIME_ENV = {
  MALLOC_ARENA_MAX: '1',
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
};
export const SERVER_NODE_ARGS = ['--max-semi-space-size=16', '--initial-old-space-size=64'];
