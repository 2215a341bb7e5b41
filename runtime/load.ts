/**
 * bytes → {@link KddIndex}. Isomorphic (Node 20 and browsers): hashing uses WebCrypto, fetching
 * uses the global `fetch`. Loading restores precomputed structures and never re-tokenises the
 * corpus (ARCHITECTURE "The bundle"); the input bytes are never mutated.
 *
 * The Node-only convenience `loadBundle(path)` lives in `library/load-bundle.ts`.
 */
import { decodeBundle } from '../formats/bundle/bundle.js';
import '../formats/native-strings.js';
import { POINTER_FILE, type Bundle, type BundlePointer } from '../formats/bundle/types.js';
import { createError, isKddError } from '../model/errors.js';
import type { KddIndex } from './kdd-index.js';
import { restoreTextIndex } from './search/index.js';
import { toVectorStore, type VectorStore } from './vectors.js';

export { POINTER_FILE, type BundlePointer } from '../formats/bundle/types.js';

const BUNDLE_NAME = /^kdd-([0-9a-f]{12})\.msgpack$/;

export interface LoadOptions {
  /**
   * `'hash'` (default): compute the SHA-256 tag of the bytes (`index.hash`), so callers can compare
   * it with the `kdd-<hash>.msgpack` name they fetched. `'none'`: skip it — for bytes whose integrity
   * is already established (e.g. read from a content-addressed cache); `index.hash` is then
   * `options.hash` if given, else ''. Structural checks run either way.
   */
  verify?: 'hash' | 'none';
  /** The known tag of the bytes, used as `index.hash` with `verify: 'none'`. */
  hash?: string;
}

/** Decodes and restores a bundle. Rejects with `INDEX_UNAVAILABLE` when the bytes are not a usable bundle. */
export async function loadIndex(bytes: Uint8Array, options: LoadOptions = {}): Promise<KddIndex> {
  if (!(bytes instanceof Uint8Array)) {
    throw createError('INDEX_UNAVAILABLE', { reason: 'bundle bytes must be a Uint8Array' });
  }
  // WebCrypto hashes off the main thread (Node: libuv pool; browsers likewise), so start it first
  // and decode meanwhile. The bytes are never written, so the two can share them.
  const hashing = options.verify === 'none' ? Promise.resolve(options.hash ?? '') : bundleHash(bytes);
  hashing.catch(() => undefined); // awaited below; avoid an unhandled rejection if decoding throws first
  // Decode through a fresh plain Uint8Array view: msgpackr caches a `dataView` property on the object
  // it reads (the caller's object stays untouched) and, given a Node Buffer, returns Buffer views
  // whose `.slice()` does not copy, which breaks the aligned copies runtime/search makes on restore.
  const bundle = decodeBundle(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  checkShape(bundle);
  const nodeIndex = new Map<string, number>();
  const nodes = bundle.nodes;
  for (let i = 0; i < nodes.length; i++) nodeIndex.set(nodes[i]!.id, i);
  let text: KddIndex['text'];
  try {
    text = restoreTextIndex(bundle.search, bundle.nodes);
  } catch (error) {
    if (isKddError(error)) throw error;
    throw createError('INDEX_UNAVAILABLE', { reason: `cannot restore the text index (${(error as Error).message})` }, { cause: error });
  }
  let vectors: VectorStore | null = null;
  try {
    vectors = bundle.vectors ? toVectorStore(bundle.vectors.quantized) : null;
  } catch (error) {
    throw createError('INDEX_UNAVAILABLE', { reason: `cannot restore the vectors (${(error as Error).message})` }, { cause: error });
  }
  const hash = await hashing;
  return { bundle, hash, nodeIndex, text, vectors };
}

/** First 12 hex characters of the SHA-256 of `bytes`: the tag in the bundle's file name. */
export async function bundleHash(bytes: Uint8Array): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw createError('INDEX_UNAVAILABLE', { reason: 'WebCrypto (crypto.subtle) is not available' });
  // digest() reads a copy-free view; it never writes to its input.
  const digest = await subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest).subarray(0, 6), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Throws unless the tag in a `kdd-<hash>.msgpack` name matches the bytes (detects truncation/corruption). */
export function checkBundleName(fileName: string, hash: string, where: string): void {
  const tag = BUNDLE_NAME.exec(fileName)?.[1];
  if (tag !== undefined && tag !== hash) {
    throw createError('INDEX_UNAVAILABLE', { reason: `${where} is corrupt: its content hash is ${hash}, its name says ${tag}` });
  }
}

/** Reads the bundle file name out of a parsed `kdd.json`. */
export function parsePointer(value: unknown, where: string): BundlePointer {
  const pointer = value as Partial<BundlePointer> | null;
  if (!pointer || typeof pointer !== 'object' || typeof pointer.bundle !== 'string' || !BUNDLE_NAME.test(pointer.bundle)) {
    throw createError('INDEX_UNAVAILABLE', { reason: `${where} does not name a kdd-<hash>.msgpack bundle` });
  }
  return pointer as BundlePointer;
}

export interface FetchIndexOptions {
  /** Defaults to the global `fetch`. */
  fetch?: (url: string) => Promise<Pick<Response, 'ok' | 'status' | 'json' | 'arrayBuffer'>>;
}

/**
 * Browser loader: fetches `<baseUrl>/kdd.json`, then the bundle it names, and checks the hash tag.
 * @example const index = await fetchIndex('/kdd/');
 */
export async function fetchIndex(baseUrl: string, options: FetchIndexOptions = {}): Promise<KddIndex> {
  const get = options.fetch ?? ((url: string) => globalThis.fetch(url));
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  const pointerUrl = `${base}${POINTER_FILE}`;
  const pointer = parsePointer(await fetchOk(get, pointerUrl, (r) => r.json()), pointerUrl);
  const bundleUrl = `${base}${pointer.bundle}`;
  const bytes = new Uint8Array(await fetchOk(get, bundleUrl, (r) => r.arrayBuffer()));
  const index = await loadIndex(bytes);
  checkBundleName(pointer.bundle, index.hash, bundleUrl);
  return index;
}

async function fetchOk<T>(
  get: NonNullable<FetchIndexOptions['fetch']>,
  url: string,
  read: (response: Pick<Response, 'json' | 'arrayBuffer'>) => Promise<T>,
): Promise<T> {
  try {
    const response = await get(url);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return await read(response);
  } catch (error) {
    throw createError('INDEX_UNAVAILABLE', { reason: `cannot fetch ${url} (${(error as Error).message})` }, { cause: error });
  }
}

/** Cheap structural checks so a query never trips over a malformed bundle. */
function checkShape(bundle: Bundle): void {
  const arrays = ['nodes', 'edges', 'outgoing', 'incoming', 'layer_violations', 'dangling'] as const;
  for (const key of arrays) {
    if (!Array.isArray(bundle[key])) throw createError('INDEX_UNAVAILABLE', { reason: `bundle field '${key}' is missing` });
  }
  if (bundle.outgoing.length !== bundle.nodes.length || bundle.incoming.length !== bundle.nodes.length) {
    throw createError('INDEX_UNAVAILABLE', { reason: 'bundle adjacency lists do not match its nodes' });
  }
}
