/**
 * Fresh copies of the short strings of a value the extract stage just made. A parser's substrings
 * (a title, a heading, a link target, a field's name) are, in V8, views into the text they were cut
 * from, so a handful of them keep a whole document's text alive for the rest of the build after the
 * read stage let go of it: on 10,800 documents, about 110 MB of the heap held by ~3 M characters
 * of substrings (heap snapshot after the extract stage, docs/decisions/build-speed.md).
 *
 * Long strings (section texts) are left as they are: they are the text the build needs, and an
 * indexed field may share one with a section, which a copy would double.
 */

/** Strings up to this length are copied. */
const SHORT = 1024;

/** Replaces, in place, every short string of `value` (plain objects and arrays) by a copy; returns `value`. */
export function detachStrings<T>(value: T): T {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = detach(value[i]);
  } else if (typeof value === 'object' && value !== null && !ArrayBuffer.isView(value)) {
    const object = value as Record<string, unknown>;
    for (const key of Object.keys(object)) object[key] = detach(object[key]);
  }
  return value;
}

function detach(value: unknown): unknown {
  // JavaScript has no "copy this string": a one-character prefix makes V8 build the joined text
  // as new memory when it is sliced, and the slice drops the prefix again (same characters).
  if (typeof value === 'string') return value.length > 1 && value.length <= SHORT ? (` ${value}`).slice(1) : value;
  return detachStrings(value);
}
