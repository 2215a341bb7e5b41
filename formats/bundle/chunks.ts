/** Bundle chunks: columns, ids stored without their `${node_id}#` prefix, hydrated on first access. */
import type { GraphNode } from '../../model/graph.js';
import { corrupt, decodeUints, encodeUints } from './columns.js';
import type { BundleChunk } from './types.js';

export interface EncodedChunks {
  count: number;
  /** Chunk id without its `${node_id}#` prefix, except at the positions listed in `full`. */
  ids: string[];
  /** Ascending positions whose `ids` entry is the whole id (it does not start with the prefix). */
  full: number[];
  node: Uint8Array;
  position: Uint8Array;
  section: Uint8Array;
  start: Uint8Array;
  end: Uint8Array;
  embeddable: Uint8Array;
}

export function encodeChunks(chunks: readonly BundleChunk[], nodes: readonly GraphNode[]): EncodedChunks {
  const ids: string[] = [];
  const full: number[] = [];
  chunks.forEach((chunk, i) => {
    const prefix = nodes[chunk.node] ? `${nodes[chunk.node]!.id}#` : null;
    if (prefix !== null && chunk.id.startsWith(prefix)) ids.push(chunk.id.slice(prefix.length));
    else ids.push(chunk.id), full.push(i);
  });
  return {
    count: chunks.length,
    ids,
    full,
    node: encodeUints(chunks.map((c) => c.node)),
    position: encodeUints(chunks.map((c) => c.position)),
    section: encodeUints(chunks.map((c) => c.section)),
    start: encodeUints(chunks.map((c) => c.start)),
    end: encodeUints(chunks.map((c) => c.end)),
    embeddable: encodeUints(chunks.map((c) => (c.embeddable ? 1 : 0))),
  };
}

/** Checks the columns now; returns a function building the chunk objects (called on first access). */
export function decodeChunks(data: unknown, nodes: readonly GraphNode[]): () => BundleChunk[] {
  const encoded = data as Partial<EncodedChunks> | null;
  if (!encoded || typeof encoded.count !== 'number' || !Array.isArray(encoded.ids) || !Array.isArray(encoded.full) || encoded.ids.length !== encoded.count) {
    throw corrupt('chunks are missing');
  }
  const { count, ids } = encoded;
  const node = decodeUints(encoded.node, count, 'chunk node');
  const position = decodeUints(encoded.position, count, 'chunk position');
  const section = decodeUints(encoded.section, count, 'chunk section');
  const start = decodeUints(encoded.start, count, 'chunk start');
  const end = decodeUints(encoded.end, count, 'chunk end');
  const embeddable = decodeUints(encoded.embeddable, count, 'chunk embeddable');
  const full = new Set(encoded.full);
  for (let i = 0; i < count; i++) if (!full.has(i) && node[i]! >= nodes.length) throw corrupt('chunk node out of range');
  return () => {
    const chunks = new Array<BundleChunk>(count);
    for (let i = 0; i < count; i++) {
      chunks[i] = {
        embeddable: embeddable[i] === 1,
        end: end[i]!,
        id: full.has(i) ? ids[i]! : `${nodes[node[i]!]!.id}#${ids[i]!}`,
        node: node[i]!,
        position: position[i]!,
        section: section[i]!,
        start: start[i]!,
      };
    }
    return chunks;
  };
}
