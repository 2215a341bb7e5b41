/**
 * When a content-keyed cache file (pack memo, git blob cache) is worth rewriting. Such a file is tens
 * of megabytes at 10k nodes, while an entry missing from it costs the next run about a millisecond
 * (one node tokenised, one blob read): a few new entries wait for more.
 */

/** New entries a run may leave out of the file (the next run computes them again). */
export const CACHE_SLACK = 16;

/**
 * Whether a file that held `stored` entries, of which this run used `used` and to which it added
 * `added`, should be rewritten: always when it held none, else when more than {@link CACHE_SLACK}
 * entries are new or more than a twentieth of it went unused.
 */
export function worthRewriting(stored: number, used: number, added: number): boolean {
  if (stored === 0) return added > 0;
  return added > CACHE_SLACK || stored - used > stored / 20;
}
