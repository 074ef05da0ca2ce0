/**
 * Values kept on the object they belong to, under a symbol of their own, instead of in a WeakMap.
 *
 * Why: V8 marks a WeakMap's entries (ephemerons) in the pause of every full collection, going over
 * them until nothing new is marked, and the read path kept an entry per image card (its JSON
 * pieces, its date text), per facts object and per request (the library version it started with).
 * A property is marked as part of its object and dies with it, as the WeakMap entry did (decision
 * 0029).
 *
 * Read the value where it is used — `(row as Kept<typeof row, typeof KEY, V>)[KEY]`, the symbol a
 * constant of that module — so each place reads one kind of object and V8 keeps the read as fast
 * as a named property's; one shared helper reading every kind of object was ~2% of the soak's
 * server time. The property is not enumerable: spreading or listing the object leaves it out.
 */
export type Kept<O, K extends symbol, V> = O & { [key in K]?: V };

/** Keeps `value` on `object` under `key` (replacing what was kept there), and returns it. */
export function keepOn<V>(object: object, key: symbol, value: V): V {
  Object.defineProperty(object, key, { value, writable: true, configurable: true, enumerable: false });
  return value;
}
