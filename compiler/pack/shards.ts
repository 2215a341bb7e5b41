/**
 * The site's shards (term postings, exact-match keys, node ids) are sorted lists cut into pieces
 * small enough to fetch one at a time; a page finds the piece of a key by its first entry.
 */

/**
 * Cuts `items`, in their order, into runs whose summed `sizeOf` stays within `budget`: a run ends
 * before the item that would take it over, so an item larger than the budget gets a run of its own
 * (sizes are positive). No run is empty.
 */
export function runsWithin<T>(items: Iterable<T>, sizeOf: (item: T) => number, budget: number): T[][] {
  const runs: T[][] = [];
  let run: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = sizeOf(item);
    if (bytes > 0 && bytes + size > budget) {
      runs.push(run);
      run = [];
      bytes = 0;
    }
    run.push(item);
    bytes += size;
  }
  if (run.length > 0) runs.push(run);
  return runs;
}
