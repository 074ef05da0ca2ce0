/**
 * Values kept on the object they belong to, under a symbol of their own, instead of in a WeakMap.
 *
 * Why: V8 marks a WeakMap's entries (ephemerons) in the pause of every full collection, and goes
 * over them until nothing new is marked. The read path kept a WeakMap entry per image card (its
 * JSON pieces, its date text) and per request (the library version it started with): under issue
 * 13's soak that marking was 70–85 ms of each full collection's 86–98 ms pause (V8's
 * `--trace-gc-nvp`: `mark.ephemeron.marking`), the slowest moments of the run. A property is marked
 * as part of its object, at no extra cost, and dies with it, as the WeakMap entry did.
 *
 * The property is not enumerable: spreading or listing the object does not carry it along.
 */
export function keptOn<O extends object, V>(object: O, key: symbol, make: (object: O) => V): V {
  const kept = (object as Record<symbol, V | undefined>)[key];
  if (kept !== undefined) return kept;
  const value = make(object);
  keepOn(object, key, value);
  return value;
}

/** Keeps `value` on `object` under `key` (replacing what was kept there). */
export function keepOn<O extends object, V>(object: O, key: symbol, value: V): void {
  Object.defineProperty(object, key, { value, writable: true, configurable: true, enumerable: false });
}

/** What is kept on `object` under `key`, if anything. */
export function keptValue<V>(object: object, key: symbol): V | undefined {
  return (object as Record<symbol, V | undefined>)[key];
}
