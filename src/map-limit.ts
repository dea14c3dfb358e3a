// Fan-out with a ceiling: a hub's rate limit (and the simulator's) is shared, so a burst of one request per item would
// only queue behind itself. Used by preflight's live namespace reads, the drills and the benches.

/** `fn` over `items` with at most `limit` in flight; results in the order of `items`. The first failure rejects. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
