/** A new array in uniformly random order (Fisher–Yates); the input is left alone. */
export function shuffled<T>(items: readonly T[], random: () => number = Math.random): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/**
 * `items` in the order of `previous` (ids) drawn earlier: items no longer there drop out, and
 * items not in it yet follow in random order. A list that is read again keeps its shuffled order.
 */
export function keepingOrder<T extends { _id: string }>(previous: readonly string[], items: readonly T[], random: () => number = Math.random): T[] {
  const byId = new Map(items.map((item) => [item._id, item]));
  const kept = previous.flatMap((id) => {
    const item = byId.get(id);
    return item ? [item] : [];
  });
  const known = new Set(previous);
  return [...kept, ...shuffled(items.filter((item) => !known.has(item._id)), random)];
}
