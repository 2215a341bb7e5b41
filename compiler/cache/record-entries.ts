/**
 * How the compiler's caches keep a record (compiler/cache/record-cache.ts, compiler/cache/blob-cache.ts)
 * and frame their files.
 *
 * A record is three byte strings: its light part (the node without `sections` / `indexed_fields`,
 * plus its content key, as JSON text), its raw links, and its node body exactly as the bundle stores it. A record
 * loaded from them decodes its text on first access (formats/bundle/nodes.ts `withLazyBody`), and
 * the pack stage takes its key and body as they are (compiler/cache/packed-node.ts).
 *
 * A file is a u32 (LE) header length, a msgpack header, then the entries end to end.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Packr } from 'msgpackr';
import { lightNode, withLazyBody } from '../../formats/bundle/nodes.js';
import { newPackr } from '../../formats/msgpack.js';
import type { DocumentRecord, RawLink } from '../../model/records.js';
import { writeAtomicParts, writeIfChanged } from '../atomic.js';
import { packedNode, rememberPackedNode } from './packed-node.js';

export interface StoredRecord {
  light: Uint8Array;
  links: Uint8Array;
  body: Uint8Array;
}

/** The parts of `entry` in the order a cache file holds them. */
export const entryParts = (entry: StoredRecord): Uint8Array[] => [entry.light, entry.links, entry.body];

/** Bytes `entry` takes in a cache file. */
export const entryLength = (entry: StoredRecord): number => entry.light.length + entry.links.length + entry.body.length;

/**
 * Light part as stored: `[light node, content key]`, as UTF-8 JSON. Every build decodes all of them
 * (10,800 at 10,800 documents), and `JSON.parse` does that in about a third of msgpackr's CPU in a
 * fresh process, where msgpackr's decoder has not been optimised yet (docs/decisions/bundle-patch.md).
 * A light node holds only strings, string lists and nulls, which JSON gives back exactly;
 * {@link storeRecord} refuses anything else rather than store a value that would come back changed.
 */
type StoredLight = [Record<string, unknown>, string];

/** A record's three parts (copies, safe to keep). Throws when the light part would not come back exactly. */
export function storeRecord(record: DocumentRecord, packr: Packr): StoredRecord {
  const packed = packedNode(record.node);
  const copy = (value: unknown) => Uint8Array.prototype.slice.call(packr.pack(value));
  const light = exactJson([lightNode(packed.node), packed.key] satisfies StoredLight);
  if (!light) throw new TypeError(`record ${String(record.node.id)}: a light field JSON would not give back exactly`);
  return { light, links: copy(record.links), body: packed.body };
}

/**
 * `value` as UTF-8 JSON in a plain Uint8Array (as every binary of the caches is: formats/bundle/bundle.ts),
 * or null when `JSON.parse` would not give it back exactly ({@link jsonExact}).
 */
export function exactJson(value: unknown): Uint8Array | null {
  if (!jsonExact(value)) return null;
  const bytes = Buffer.from(JSON.stringify(value));
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** What {@link exactJson} encoded. */
export function parseJson(bytes: Uint8Array): unknown {
  return JSON.parse(utf8.decode(bytes));
}

const utf8 = new TextDecoder();

/** Whether `JSON.parse(JSON.stringify(value))` gives `value` back: strings, booleans, null, finite numbers (not -0), plain arrays and objects of them. */
function jsonExact(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) return value.every(jsonExact);
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  // An own "__proto__" key comes back from JSON.parse as data but is lost when assigned: refused.
  return Object.keys(value).every((key) => key !== '__proto__' && jsonExact((value as Record<string, unknown>)[key]));
}

/**
 * The record of `entry`. Links decode `now`, or `on-access` for records most of which nobody links
 * again (a getter added to a fresh object keeps it in V8's fast mode, as an object literal with one
 * would not).
 */
export function loadRecord(entry: StoredRecord, unpackr: Packr, links: 'now' | 'on-access'): DocumentRecord {
  const [item, key] = parseJson(entry.light) as StoredLight;
  const node = withLazyBody(item, entry.body);
  rememberPackedNode(node, key, entry.body);
  if (links === 'now') return { node, links: unpackr.unpack(entry.links) as RawLink[] };
  const record = { node } as DocumentRecord;
  // The links' bytes in a hidden slot and one accessor shared by every record: a getter and a
  // setter made per record (formats/lazy.ts) gave each of 10,800 records its own closures, contexts
  // and hidden class, ~9 long-lived objects apiece that every collection had to copy or mark.
  Object.defineProperty(record, LINKS, { value: entry.links, writable: true });
  Object.defineProperty(record, 'links', LINKS_ACCESSOR);
  return record;
}

/** Where a record loaded `on-access` keeps its links: their msgpack bytes until first read, then the decoded list. */
const LINKS = Symbol('links');

type WithLinks = DocumentRecord & { [LINKS]: Uint8Array | RawLink[] };

const linksUnpackr = newPackr();

/** `links` of a record loaded `on-access`: decoded on first read and kept; an assignment replaces them. */
const LINKS_ACCESSOR: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: WithLinks): RawLink[] {
    const held = this[LINKS];
    if (held instanceof Uint8Array) return (this[LINKS] = linksUnpackr.unpack(held) as RawLink[]);
    return held;
  },
  set(this: WithLinks, links: RawLink[]) {
    this[LINKS] = links;
  },
};

/** The lengths of `entries`, three per entry, as a header lists them. */
export function entryLengths(entries: readonly StoredRecord[]): number[] {
  return entries.flatMap((entry) => entryParts(entry).map((part) => part.length));
}

/** The entries `lengths` describes, end to end in `payload`; null unless they fill it exactly. */
export function sliceEntries(payload: Uint8Array, lengths: readonly unknown[]): StoredRecord[] | null {
  if (lengths.length % 3 !== 0 || !lengths.every((n) => Number.isInteger(n) && (n as number) >= 0)) return null;
  const entries: StoredRecord[] = [];
  let at = 0;
  const next = (length: number) => payload.subarray(at, (at += length));
  for (let i = 0; i < lengths.length; i += 3) entries.push({ light: next(lengths[i] as number), links: next(lengths[i + 1] as number), body: next(lengths[i + 2] as number) });
  return at === payload.length ? entries : null;
}

/** The header and the bytes after it, or null when the file is missing or not framed so. */
export async function readFramed(file: string): Promise<{ header: unknown; payload: Uint8Array } | null> {
  const bytes = await readFile(file).catch(() => null);
  if (bytes === null || bytes.length < 4) return null;
  try {
    // A plain view: msgpackr treats Node Buffers specially (see formats/bundle/bundle.ts).
    const view = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const headerLength = new DataView(view.buffer, view.byteOffset, 4).getUint32(0, true);
    if (4 + headerLength > view.length) return null;
    return { header: newPackr().unpack(view.subarray(4, 4 + headerLength)), payload: view.subarray(4 + headerLength) };
  } catch {
    return null;
  }
}

/** Writes `header` then `parts` (atomically, one vectored write), with a `.gitignore` keeping the folder out of git. */
export async function writeFramed(file: string, header: unknown, parts: readonly Uint8Array[]): Promise<void> {
  const head = newPackr().pack(header);
  const length = new Uint8Array(4);
  new DataView(length.buffer).setUint32(0, head.length, true);
  await writeAtomicParts(file, [length, head, ...parts]);
  // Keep the cache out of git wherever it is written (a committed .kdd-index/ must not carry it).
  await writeIfChanged(join(dirname(file), '.gitignore'), '*\n');
}
