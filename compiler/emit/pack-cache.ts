/**
 * Pack cache: the per-node products of the pack stage, so a one-document edit re-tokenises and
 * re-chunks one node instead of all of them (compiler/emit/pack.ts `packBundle(input, { memo })`).
 *
 * Per node, keyed by the SHA-256 of the node's canonical JSON as packed (enrichment section
 * included), so an entry is valid for any tree and any position of the node:
 * - the text-index terms ({@link NodeTerms}: tokens per field, `[term, field << 12 | tf]` pairs);
 * - its exact-match keys;
 * - its chunks (`chunkAll`: id, position, section, start, end, embeddable) and each chunk's
 *   `[term, tf]` pairs for the chunk index.
 * Term ids index one vocabulary shared by every entry. Postings are assembled from these lists
 * (`assembleTextIndex`, `assembleChunkIndex`), which give the bytes a cold build gives.
 *
 * On disk: one msgpack file `.kdd-index/.cache/pack` (git-ignored folder, see record-cache.ts), read
 * once per build and rewritten atomically with the entries the last pack used. Never the source of
 * truth: a missing, unreadable or foreign file (format, or tokenizer/chunker fingerprint) is ignored.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { newPackr } from '../../runtime/bundle-codec.js';
import type { GraphNode, NodeSection } from '../../runtime/model.js';
import { TermIds, TermCounter, exactKeys, nodeTerms, type NodeTerms } from '../../runtime/search/bm25f.js';
import { chunkTermIds } from '../../runtime/search/chunk-index.js';
import { bytesToU32, u32ToBytes } from '../../runtime/search/_bytes.js';
import { chunkAll } from '../embed/chunk.js';
import { writeAtomic, writeIfChanged } from './atomic.js';
import { CACHE_DIR } from './record-cache.js';

const FORMAT = 'kdd-pack-cache/1';

/** Pack products of one node (position-independent). `terms`: `[term, field << 12 | tf]` pairs. */
export interface NodePack extends NodeTerms {
  lens: number[];
  terms: Uint32Array;
  keys: string[];
  /** Chunk ids (chunkAll order). */
  chunkIds: string[];
  /** Per chunk: position, section, start, end, embeddable (0/1). */
  chunkRows: number[];
  /** Every chunk's `[term, tf]` pairs, concatenated; chunk i's end in `chunkEnds[i]`. */
  chunkTerms: Uint32Array;
  chunkEnds: number[];
}

export interface PackMemo {
  vocab: TermIds;
  entries: Map<string, NodePack>;
  /** Keys the last pack used (what is saved). */
  used: Set<string>;
  /** Entries computed since the memo was created or read; entries it was read with. */
  added: number;
  stored: number;
}

export function createPackMemo(): PackMemo {
  return { vocab: new TermIds(), entries: new Map(), used: new Set(), added: 0, stored: 0 };
}

export function packCachePath(indexDir: string): string {
  return join(indexDir, CACHE_DIR, 'pack');
}

/** Computes a node's products; new terms go into `vocab`. */
export function computeNodePack(node: GraphNode, vocab: TermIds, counter?: TermCounter): NodePack {
  const text = nodeTerms(node, vocab, counter);
  const chunkIds: string[] = [];
  const chunkRows: number[] = [];
  const pairs: number[] = [];
  const chunkEnds: number[] = [];
  for (const chunk of chunkAll(node)) {
    chunkIds.push(chunk.chunk_id);
    chunkRows.push(chunk.position, chunk.section_index, chunk.start, chunk.end, chunk.embeddable ? 1 : 0);
    chunkTermIds({ section: chunk.section_index, start: chunk.start, end: chunk.end }, node, vocab, pairs);
    chunkEnds.push(pairs.length);
  }
  return { lens: Array.from(text.lens), terms: Uint32Array.from(text.terms), keys: exactKeys(node), chunkIds, chunkRows, chunkTerms: Uint32Array.from(pairs), chunkEnds };
}

/** The products of the node with content key `key` (compiler/emit/packed-node.ts), computed and stored when missing; marks the entry used. */
export function memoNodePack(memo: PackMemo, key: string, node: GraphNode, counter?: TermCounter): NodePack {
  let pack = memo.entries.get(key);
  if (!pack) memo.entries.set(key, (pack = computeNodePack(node, memo.vocab, counter))), memo.added++;
  memo.used.add(key);
  return pack;
}

// Tokenizer, fields and chunker output on a fixed probe: a cache written by code that tokenises or
// chunks differently is discarded (the format string covers the layout).
let fingerprintValue: string | null = null;
function fingerprint(): string {
  if (fingerprintValue !== null) return fingerprintValue;
  const section = (heading: string, depth: number, field: string | null, text: string): NodeSection => ({ heading, depth, field, text }) as NodeSection;
  const probe = {
    id: 'UC:UC-001-IndexDocument',
    kind: 'use-case',
    doc_id: 'UC-001-IndexDocument',
    title: 'Índice incremental del KDDDocument',
    source_file: 'specs/02-behavior/use-cases/UC-001-IndexDocument.md',
    source_hash: '0',
    layer: '02-behavior',
    status: 'approved',
    aliases: ['Indexar documento', 'CMD-004'],
    domain: null,
    indexed_fields: { description: 'El sistema indexa cada documento.' },
    sections: [
      section('Descripción', 2, 'description', 'El sistema indexa cada `KDDDocument` modificado: BR-DOCUMENT-001, Entity:Pedido y EVT-KDDDocument-Indexed.\n\nLos índices se construyen de forma incremental, con búsqueda rápida y determinista sobre 10.000 documentos.'),
      section('Flujo principal', 2, null, '1. El desarrollador ejecuta `kdd build`.\n2. El compilador lee los ficheros cambiados.\n\n| paso | acción |\n| --- | --- |\n| 1 | leer |\n\n```ts\nconst x = indexDocument(path);\n```'),
      section('Paso 3', 3, null, 'Short.'),
    ],
    tags: ['búsqueda', 'core'],
    indexed_at: null,
  } as unknown as GraphNode;
  const vocab = new TermIds();
  const pack = computeNodePack(probe, vocab);
  const data = JSON.stringify([vocab.terms, pack.lens, Array.from(pack.terms), pack.keys, pack.chunkIds, pack.chunkRows, Array.from(pack.chunkTerms), pack.chunkEnds]);
  return (fingerprintValue = createHash('sha256').update(data).digest('hex'));
}

/** Per entry: key, lens, terms length, exact keys, chunk ids, chunk rows, chunk terms length, chunk ends. */
type StoredEntry = [key: string, lens: number[], terms: number, keys: string[], chunkIds: string[], chunkRows: number[], chunkTerms: number, chunkEnds: number[]];

interface Stored {
  format: string;
  fingerprint: string;
  terms: string[];
  entries: StoredEntry[];
  /** Every entry's `terms` then `chunkTerms`, in entry order: one little-endian u32 column (after the header). */
  ids?: Uint8Array;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The memo saved in `file`, or an empty one when there is none (or it does not fit this code). */
export async function readPackMemo(file: string): Promise<PackMemo> {
  const bytes = await readFile(file).catch(() => null);
  if (bytes === null) return createPackMemo();
  try {
    const view = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const headerLength = new DataView(view.buffer, view.byteOffset, 4).getUint32(0, true);
    const data = newPackr().unpack(view.subarray(4, 4 + headerLength)) as Stored;
    if (!data || data.format !== FORMAT || data.fingerprint !== fingerprint() || !Array.isArray(data.terms) || !Array.isArray(data.entries)) return createPackMemo();
    data.ids = view.subarray(4 + headerLength);
    const vocab = new TermIds(data.terms);
    if (vocab.size !== data.terms.length) return createPackMemo();
    const ids = bytesToU32(data.ids!);
    const limit = vocab.size;
    const entries = new Map<string, NodePack>();
    let at = 0;
    for (const entry of data.entries) {
      const [key, lens, termCount, keys, chunkIds, chunkRows, chunkTermCount, chunkEnds] = entry;
      if (at + termCount + chunkTermCount > ids.length) return createPackMemo();
      const terms = ids.subarray(at, (at += termCount));
      const chunkTerms = ids.subarray(at, (at += chunkTermCount));
      // Term ids must be in range (a corrupt entry would index past the vocabulary).
      if (terms.length % 2 !== 0 || chunkIds.length * 5 !== chunkRows.length || chunkEnds.length !== chunkIds.length || (chunkEnds.at(-1) ?? 0) !== chunkTerms.length) return createPackMemo();
      for (let k = 0; k < terms.length; k += 2) if (terms[k]! >= limit) return createPackMemo();
      for (let k = 0; k < chunkTerms.length; k += 2) if (chunkTerms[k]! >= limit) return createPackMemo();
      entries.set(key, { lens, terms, keys, chunkIds, chunkRows, chunkTerms, chunkEnds });
    }
    if (at !== ids.length) return createPackMemo();
    return { vocab, entries, used: new Set(), added: 0, stored: entries.size };
  } catch {
    return createPackMemo();
  }
}

/** Saves the entries the last pack used (atomically); a vocabulary grown mostly stale is compacted. */
export async function writePackMemo(file: string, memo: PackMemo): Promise<void> {
  // Nothing new and every stored entry used: the file already holds exactly this.
  if (memo.added === 0 && memo.used.size === memo.stored && memo.stored > 0) return;
  const kept = [...memo.used].filter((key) => memo.entries.has(key)).sort();
  let terms = memo.vocab.terms;
  const seen = new Uint8Array(terms.length);
  let count = 0;
  let total = 0;
  const mark = (list: Uint32Array, from: number, step: number) => {
    for (let k = from; k < list.length; k += step) if (!seen[list[k]!]) (seen[list[k]!] = 1), count++;
  };
  for (const key of kept) {
    const pack = memo.entries.get(key)!;
    mark(pack.terms, 0, 2);
    mark(pack.chunkTerms, 0, 2);
    total += pack.terms.length + pack.chunkTerms.length;
  }
  let remap: Uint32Array | null = null;
  if (count < terms.length * 0.8) {
    remap = new Uint32Array(terms.length);
    const compact: string[] = [];
    for (let t = 0; t < terms.length; t++) if (seen[t]) remap[t] = compact.push(terms[t]!) - 1;
    terms = compact;
  }
  const ids = new Uint32Array(total);
  let at = 0;
  const put = (list: Uint32Array, from: number, step: number) => {
    ids.set(list, at);
    if (remap) for (let k = at + from; k < at + list.length; k += step) ids[k] = remap[ids[k]!]!;
    at += list.length;
  };
  const entries: StoredEntry[] = kept.map((key) => {
    const p = memo.entries.get(key)!;
    put(p.terms, 0, 2);
    put(p.chunkTerms, 0, 2);
    return [key, p.lens, p.terms.length, p.keys, p.chunkIds, p.chunkRows, p.chunkTerms.length, p.chunkEnds];
  });
  // Framing: u32 header length, msgpack header, then the id column as raw bytes (not through msgpack).
  const header = newPackr().pack({ format: FORMAT, fingerprint: fingerprint(), terms, entries });
  const column = LITTLE_ENDIAN ? new Uint8Array(ids.buffer) : u32ToBytes(ids);
  const out = new Uint8Array(4 + header.length + column.length);
  new DataView(out.buffer).setUint32(0, header.length, true);
  out.set(header, 4);
  out.set(column, 4 + header.length);
  await writeAtomic(file, out);
  await writeIfChanged(join(dirname(file), '.gitignore'), '*\n');
}
