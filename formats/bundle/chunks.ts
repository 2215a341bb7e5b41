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
  private readonly node: Uint32Array;
  private readonly position: Uint32Array;
  private readonly section: Uint32Array;
  private readonly start: Uint32Array;
  private readonly end: Uint32Array;
  /** 0 or 1. */
  private readonly embeddable: Uint32Array;
  private count = 0;

  constructor(readonly capacity: number) {
    this.node = new Uint32Array(capacity);
    this.position = new Uint32Array(capacity);
    this.section = new Uint32Array(capacity);
    this.start = new Uint32Array(capacity);
    this.end = new Uint32Array(capacity);
    this.embeddable = new Uint32Array(capacity);
  }

  /** `nodeId`: the id of node `node`, undefined when there is no such node (the id is then kept whole). */
  add(id: string, node: number, nodeId: string | undefined, position: number, section: number, start: number, end: number, embeddable: boolean): void {
    const i = this.count++;
    if (nodeId !== undefined && id.length > nodeId.length && id.charCodeAt(nodeId.length) === 0x23 /* # */ && id.startsWith(nodeId)) this.ids.push(id.slice(nodeId.length + 1));
    else this.ids.push(id), this.full.push(i);
    this.node[i] = node;
    this.position[i] = position;
    this.section[i] = section;
    this.start[i] = start;
    this.end[i] = end;
    this.embeddable[i] = embeddable ? 1 : 0;
  }

  encode(): EncodedChunks {
    if (this.count !== this.capacity) throw new Error(`chunk columns hold ${this.count} of ${this.capacity} chunks`);
    const { node, position, section, start, end, embeddable } = this;
    return {
      count: this.count,
      ids: this.ids,
      full: this.full,
      node: encodeUints(node),
      position: encodeUints(position),
      section: encodeUints(section),
      start: encodeUints(start),
      end: encodeUints(end),
      embeddable: encodeUints(embeddable),
    };
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
