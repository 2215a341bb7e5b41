/**
 * Pack stage: graph + manifest (+ L2 vectors) → bundle bytes. A pure function of its input; the
 * file name tag is the first 12 hex chars of the bytes' SHA-256, so equal bundles have equal names.
 */
import { createHash } from 'node:crypto';
import { type BundleContent, encodeBundleParts } from '../../formats/bundle/bundle.js';
import { defineLazy } from '../../formats/lazy.js';
import { BUNDLE_FORMAT_VERSION, type BundleVectors } from '../../formats/bundle/types.js';
import { ChunkColumns, type EncodedChunks } from '../../formats/bundle/chunks.js';
import type { PairRuns } from '../../runtime/search/postings.js';
import type { IndexManifest } from '../../model/graph.js';
import { TermCounter, assembleTextIndex } from '../../runtime/search/bm25f.js';
import { TermIds } from '../../runtime/search/term-ids.js';
import { assembleChunkIndex } from '../../runtime/search/chunk-index.js';
import type { QuantizedVectors } from '../../formats/bundle/vectors.js';
import { withEnrichmentSections } from '../enrich/edges.js';
import type { Graph } from '../graph/link.js';
import { canonical } from '../../formats/canonical.js';
import { chunkCount, memoNodePack, type NodePack, type PackMemo } from '../cache/pack-memo.js';
import { computeNodePack } from './node-pack.js';
import { packedEdges, packedNode, type PackedNode } from '../cache/packed-node.js';
import { graphPackedEdges } from '../graph/edge-facts.js';
import type { GraphNode } from '../../model/graph.js';

/** Hex characters of the SHA-256 in a bundle's name. */
const TAG = 12;

export interface PackedBundle {
  bytes: Uint8Array;
  /** 12 hex chars of SHA-256. */
  hash: string;
  /** `kdd-<hash>.msgpack` */
  fileName: string;
  /**
   * The bytes as consecutive pieces ({@link packedParts}: every pack and patch gives them), written
   * without joining them; `bytes` joins them on first read. Absent when the bundle came whole (a
   * bundle read back from a file).
   */
  parts?: readonly Uint8Array[];
}

/** L2 output of the embed stage: row i of `quantized` embeds the chunk `chunk_ids[i]`. */
export interface PackVectors {
  model: string;
  dimensions: number;
  chunk_ids: string[];
  quantized: QuantizedVectors;
}

export type PackInput = Pick<Graph, 'nodes' | 'edges' | 'dangling' | 'unresolved_ids' | 'layer_violations' | 'enrichment_summaries'> & { manifest: IndexManifest; vectors?: PackVectors | null };

export interface PackOptions {
  /**
   * Per-node pack products from earlier packs (compiler/cache/pack-memo.ts): nodes whose content
   * it holds are not tokenised or chunked again, new ones are added. The bytes do not depend on it.
   */
  memo?: PackMemo;
}

export function packBundle(input: PackInput, options: PackOptions = {}): PackedBundle {
  return packPrepared(input, prepareNodes(input, options.memo));
}

/** Every node as packed (canonical form, key, body) with its pack products, in bundle order. */
export interface PreparedNodes {
  packed: PackedNode[];
  packs: NodePack[];
  /** The vocabulary the products' term ids index. */
  terms: readonly string[];
}

/**
 * Tokenises and chunks each node once (or takes it from the memo): the per-node half of the pack.
 * `release`: once a node's products are made, its sections and indexed fields are read from its
 * packed body instead (equal values, keys in canonical order), so the texts it held can be
 * collected during the pack; for callers that read them rarely afterwards (`kdd build`: ~100 MB of
 * heap at 10,800 documents, docs/decisions/build-speed.md).
 */
export function prepareNodes(input: PackInput, memo?: PackMemo, release = false): PreparedNodes {
  // L3 summaries become a last, searchable section of their node (compiler/enrich/edges.ts).
  const nodes = withEnrichmentSections(input.nodes, input.enrichment_summaries);
  const packed = nodes.map(packedNode);
  if (memo) memo.used.clear();
  const vocab = memo?.vocab ?? new TermIds();
  const counter = new TermCounter();
  // Products come from the node as given (key order does not change them), not from the packed
  // node, whose text would have to be decoded from its body again.
  const packs = packed.map((p, i) => {
    const pack = memo ? memoNodePack(memo, p.key, () => computeNodePack(nodes[i]!, memo.vocab, counter)) : computeNodePack(nodes[i]!, vocab, counter);
    if (release) releaseHeavyParts(nodes[i]!, p);
    return pack;
  });
  return { packed, packs, terms: vocab.terms };
}

/** From here on, `node`'s sections and indexed fields decode from its packed body when read (a node that is its own packed form, read from a cache, already does). */
function releaseHeavyParts(node: GraphNode, packed: PackedNode): void {
  if (packed.node === node) return;
  for (const key of ['sections', 'indexed_fields'] as const) defineLazy(node, key, () => packed.node[key]);
}

/**
 * The parts of the bundle that are not per-node products: as `encodeBundle` receives them. The
 * graph's lists are canonicalised when first read: the patch reads them only when it has no bytes
 * for them yet (compiler/cache/packed-node.ts `packedGraphPart`).
 */
export function plainParts(input: PackInput, nodes: readonly GraphNode[]) {
  const parts = {
    format: BUNDLE_FORMAT_VERSION,
    // Who built it and at which HEAD is not part of what was built: two developers' bundles of the
    // same tree are equal, and a commit that touches no spec does not change the bundle.
    manifest: canonical({ ...input.manifest, indexed_by: null, git_commit: null }),
    edges: graphPackedEdges(input, nodes),
  } as Pick<PackInput, 'manifest' | 'layer_violations' | 'dangling' | 'unresolved_ids'> & { format: typeof BUNDLE_FORMAT_VERSION; edges: ReturnType<typeof packedEdges> };
  for (const key of ['layer_violations', 'dangling', 'unresolved_ids'] as const) defineLazy(parts, key, () => canonical(input[key]));
  return parts;
}

/** The bundle from prepared nodes: both indexes assembled from the products, then encoded. */
export function packPrepared(input: PackInput, { packed, packs, terms }: PreparedNodes): PackedBundle {
  const nodes = packed.map((p) => p.node);
  const { edges, ...plain } = plainParts(input, nodes);
  const search = assembleTextIndex(packs, terms, packs.map((pack) => pack.keys));
  const chunk_search = assembleChunkIndex(chunkTermRuns(packs), terms); // chunk_search: issue #10
  const bundle: BundleContent = {
    ...plain,
    nodes,
    edges: input.edges,
    search,
    chunk_search,
    // Written as columns straight from the products (`chunks` below); no chunk object is made.
    chunks: [],
    vectors: input.vectors ? bundleVectors(input.vectors, packs) : null,
  };
  return packedParts(encodeBundleParts(bundle, { bodies: packed.map((p) => p.body), edges, chunks: chunkColumns(packs, nodes) }));
}

/**
 * The bundle as pieces: hashed piece by piece when its name is first asked, written with one
 * vectored write, joined only if someone reads `bytes`. A full pack's pieces are the columns and
 * bodies it was made from, so the bundle is never held twice (at 54,000 documents the joined copy
 * was 326 MB at the build's peak); a patch's are runs of the previous bundle (joining 60 MB costs
 * more than the whole patch). Pieces that sit next to each other in one buffer (copied runs, bodies
 * from one cache file) are merged first.
 */
export function packedParts(pieces: readonly Uint8Array[]): PackedBundle {
  const parts: Uint8Array[] = [];
  for (const piece of pieces) {
    const last = parts.at(-1);
    if (last && last.buffer === piece.buffer && last.byteOffset + last.byteLength === piece.byteOffset) parts[parts.length - 1] = new Uint8Array(last.buffer, last.byteOffset, last.byteLength + piece.byteLength);
    else if (piece.byteLength > 0) parts.push(piece);
  }
  const packed = { parts } as Pick<PackedBundle, 'parts'> as PackedBundle;
  // The hash when first asked: `kdd build` asks while the bundle is being written (compiler/pack/dist.ts).
  defineLazy(packed, 'hash', () => {
    const hasher = createHash('sha256');
    for (const part of parts) hasher.update(part);
    return hasher.digest('hex').slice(0, TAG);
  });
  defineLazy(packed, 'fileName', () => `kdd-${packed.hash}.msgpack`);
  defineLazy(packed, 'bytes', () => Buffer.concat(parts));
  return packed;
}

export function bundleHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, TAG);
}

/** The bundle's chunks (`chunkAll` of each node, in node order) as the bundle's columns. */
function chunkColumns(packs: readonly NodePack[], nodes: readonly GraphNode[]): EncodedChunks {
  const columns = new ChunkColumns(totalChunks(packs));
  packs.forEach((pack, node) => {
    const r = pack.chunkRows;
    pack.chunkIds.forEach((id, k) => columns.add(id, node, nodes[node]!.id, r[k * 5]!, r[k * 5 + 1]!, r[k * 5 + 2]!, r[k * 5 + 3]!, r[k * 5 + 4] === 1));
  });
  return columns.encode();
}

/** Each chunk's `[term, tf]` pairs (chunk i = item i, bundle order): ranges of its node's `chunkTerms`. */
function chunkTermRuns(packs: readonly NodePack[]): PairRuns {
  return {
    count: totalChunks(packs),
    forEach(visit) {
      let item = 0;
      for (const pack of packs) {
        let from = 0;
        for (const end of pack.chunkEnds) visit(pack.chunkTerms, from, end, item++), (from = end);
      }
    },
  };
}

/** Chunks of all `packs` (cache/pack-memo.ts `chunkCount` of each: a stored entry need not be decoded for it). */
function totalChunks(packs: readonly NodePack[]): number {
  let count = 0;
  for (const pack of packs) count += chunkCount(pack);
  return count;
}

/** Re-orders the embed stage's rows to follow the bundle's chunk order. */
function bundleVectors(vectors: PackVectors, packs: readonly NodePack[]): BundleVectors {
  const chunkIndex = new Map<string, number>();
  let index = 0;
  for (const pack of packs) for (const id of pack.chunkIds) chunkIndex.set(id, index++);
  const rows = vectors.chunk_ids.map((id) => {
    const index = chunkIndex.get(id);
    if (index === undefined) throw new Error(`embedded chunk ${id} is not a chunk of the bundle`);
    return index;
  });
  // The embed stage sorts chunks by (node id, position) like the bundle does, so rows ascend already.
  for (let i = 1; i < rows.length; i++) if (rows[i]! <= rows[i - 1]!) throw new Error('embedded chunks are not in bundle order');
  return { model: vectors.model, dimensions: vectors.dimensions, rows, quantized: vectors.quantized };
}
