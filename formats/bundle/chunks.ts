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
  const columns = new ChunkColumns(chunks.length);
  for (const chunk of chunks) columns.add(chunk.id, chunk.node, nodes[chunk.node]?.id, chunk.position, chunk.section, chunk.start, chunk.end, chunk.embeddable);
  return columns.encode();
}

/**
 * The chunk columns filled one chunk at a time, in bundle order: a packer that holds its chunks as
 * per-node rows writes them here without making a {@link BundleChunk} per chunk.
 */
export class ChunkColumns {
  private readonly ids: string[] = [];
  private readonly full: number[] = [];
  /** node, position, section, start, end, embeddable (0/1): one column each. */
  private readonly values: Uint32Array[];
  private count = 0;

  constructor(readonly capacity: number) {
    this.values = Array.from({ length: 6 }, () => new Uint32Array(capacity));
  }

  /** `nodeId`: the id of node `node`, undefined when there is no such node (the id is then kept whole). */
  add(id: string, node: number, nodeId: string | undefined, position: number, section: number, start: number, end: number, embeddable: boolean): void {
    const i = this.count++;
    if (nodeId !== undefined && id.length > nodeId.length && id.charCodeAt(nodeId.length) === 0x23 /* # */ && id.startsWith(nodeId)) this.ids.push(id.slice(nodeId.length + 1));
    else this.ids.push(id), this.full.push(i);
    const [nodes, positions, sections, starts, ends, embeddables] = this.values as [Uint32Array, Uint32Array, Uint32Array, Uint32Array, Uint32Array, Uint32Array];
    nodes[i] = node;
    positions[i] = position;
    sections[i] = section;
    starts[i] = start;
    ends[i] = end;
    embeddables[i] = embeddable ? 1 : 0;
  }

  encode(): EncodedChunks {
    if (this.count !== this.capacity) throw new Error(`chunk columns hold ${this.count} of ${this.capacity} chunks`);
    const [node, position, section, start, end, embeddable] = this.values.map(encodeUints) as [Uint8Array, Uint8Array, Uint8Array, Uint8Array, Uint8Array, Uint8Array];
    return { count: this.count, ids: this.ids, full: this.full, node, position, section, start, end, embeddable };
  }
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
