/**
 * Where the node, graph and impact pages get the graph from: the site sub-bundle's graph pieces
 * ({@link ChunkedGraph}, a few small files per page) or a full bundle already in memory
 * ({@link BundleGraph}). Both answer in *slots*; the walk (walk.ts) is written once against
 * {@link GraphStore}.
 */
import type { KddIndex } from '../../../runtime/kdd-index.js';
import type { ImpactResult } from '../../../runtime/queries/impact.js';
import { GRAPH_CHUNK, type GraphChunk, type GraphMeta, type IdShard, type NodeView, type ReportName, decodeVarints, shardFor } from '../../../formats/site-bundle.js';
import { danglingByNode, nodeView } from '../../../runtime/views/node-view.js';
import type { FetchFile } from '../search/sharded.js';

export interface Label {
  id: string;
  title: string;
  kind: string;
  layer: string;
}

export interface Adjacent {
  slot: number;
  type: string;
  violation: boolean;
}

export interface GraphStore {
  /** The slot of node `id`, or null when there is none. */
  slotOf(id: string): Promise<number | null>;
  /** Makes `label`, `out` and `in` answer for these slots. */
  load(slots: Iterable<number>): Promise<void>;
  label(slot: number): Label;
  out(slot: number): Adjacent[];
  in(slot: number): Adjacent[];
  /** The node page's data. */
  nodeView(slot: number): Promise<NodeView>;
  /** The runtime's `impact` answer with default parameters (depth 3, modify_attribute). */
  impact(slot: number): Promise<ImpactResult>;
}

interface LoadedChunk {
  chunk: GraphChunk;
  out: Adjacent[][];
  in: Adjacent[][];
}

/** The sub-bundle's graph pieces, fetched chunk by chunk as walks reach them. */
export class ChunkedGraph implements GraphStore {
  private readonly chunks = new Map<number, Promise<LoadedChunk>>();
  private readonly ready = new Map<number, LoadedChunk>();
  private readonly idShards = new Map<number, Promise<Map<string, number>>>();

  constructor(
    readonly meta: GraphMeta,
    private readonly fetchFile: FetchFile,
  ) {}

  async slotOf(id: string): Promise<number | null> {
    const shard = shardFor(this.meta.ids, id);
    if (shard < 0) return null;
    let table = this.idShards.get(shard);
    if (!table) this.idShards.set(shard, (table = this.fetchFile<IdShard>(this.meta.ids[shard]!.file).then(decodeIdShard)));
    return (await table).get(id) ?? null;
  }

  async load(slots: Iterable<number>): Promise<void> {
    const wanted = new Set<number>();
    for (const slot of slots) wanted.add(Math.floor(slot / GRAPH_CHUNK));
    await Promise.all([...wanted].map((c) => this.chunk(c)));
  }

  label(slot: number): Label {
    const { chunk } = this.loaded(slot);
    const i = slot % GRAPH_CHUNK;
    return { id: chunk.ids[i]!, title: chunk.titles[i]!, kind: this.meta.kind_names[chunk.kinds[i]!]!, layer: this.meta.layer_names[chunk.layers[i]!]! };
  }

  out(slot: number): Adjacent[] {
    return this.loaded(slot).out[slot % GRAPH_CHUNK]!;
  }

  in(slot: number): Adjacent[] {
    return this.loaded(slot).in[slot % GRAPH_CHUNK]!;
  }

  async nodeView(slot: number): Promise<NodeView> {
    const { chunk } = await this.chunk(Math.floor(slot / GRAPH_CHUNK));
    return this.fetchFile<NodeView>(chunk.details[slot % GRAPH_CHUNK]!);
  }

  async impact(slot: number): Promise<ImpactResult> {
    const { chunk } = await this.chunk(Math.floor(slot / GRAPH_CHUNK));
    return this.fetchFile<ImpactResult>(chunk.impacts[slot % GRAPH_CHUNK]!);
  }

  /** A precomputed tree-wide answer, or null when the sub-bundle predates them. */
  report<T>(name: ReportName): Promise<T> | null {
    const file = this.meta.reports?.[name];
    return file ? this.fetchFile<T>(file) : null;
  }

  private loaded(slot: number): LoadedChunk {
    const chunk = this.ready.get(Math.floor(slot / GRAPH_CHUNK));
    if (!chunk) throw new Error(`graph chunk of slot ${slot} is not loaded`);
    return chunk;
  }

  private chunk(index: number): Promise<LoadedChunk> {
    let pending = this.chunks.get(index);
    if (!pending) {
      pending = this.fetchFile<GraphChunk>(this.meta.chunks[index]!).then((chunk) => {
        const loaded = { chunk, out: this.adjacency(chunk.out, chunk.ids.length), in: this.adjacency(chunk.in, chunk.ids.length) };
        this.ready.set(index, loaded);
        return loaded;
      });
      // A failed fetch is not remembered: the next page view tries again.
      pending.catch(() => this.chunks.delete(index));
      this.chunks.set(index, pending);
    }
    return pending;
  }

  private adjacency(bytes: Uint8Array, members: number): Adjacent[][] {
    const values = decodeVarints(bytes);
    const lists: Adjacent[][] = [];
    let p = 0;
    for (let m = 0; m < members; m++) {
      const count = values[p++]!;
      const list: Adjacent[] = [];
      for (let i = 0; i < count; i++, p += 2) list.push({ slot: values[p]!, type: this.meta.edge_types[values[p + 1]! >> 1]!, violation: (values[p + 1]! & 1) === 1 });
      lists.push(list);
    }
    return lists;
  }
}

function decodeIdShard(shard: IdShard): Map<string, number> {
  const ids = shard.ids === '' ? [] : shard.ids.split('\n');
  const slots = decodeVarints(shard.slots);
  return new Map(ids.map((id, i) => [id, slots[i]!]));
}

/** A full bundle in memory: slot = node position. */
export class BundleGraph implements GraphStore {
  private dangling: Map<string, string[]> | null = null;

  constructor(private readonly index: KddIndex) {}

  slotOf(id: string): Promise<number | null> {
    return Promise.resolve(this.index.nodeIndex.get(id) ?? null);
  }

  load(): Promise<void> {
    return Promise.resolve();
  }

  label(slot: number): Label {
    const node = this.index.bundle.nodes[slot]!;
    return { id: node.id, title: node.title, kind: node.kind, layer: node.layer };
  }

  out(slot: number): Adjacent[] {
    return this.adjacent(this.index.bundle.outgoing[slot], 'to_node');
  }

  in(slot: number): Adjacent[] {
    return this.adjacent(this.index.bundle.incoming[slot], 'from_node');
  }

  nodeView(slot: number): Promise<NodeView> {
    this.dangling ??= danglingByNode(this.index.bundle);
    const { bundle, nodeIndex } = this.index;
    return Promise.resolve(nodeView(bundle, nodeIndex, slot, this.dangling.get(bundle.nodes[slot]!.id) ?? []));
  }

  async impact(slot: number): Promise<ImpactResult> {
    // Loaded on first use: the first search does not download the query code.
    const { impact } = await import('../../../runtime/queries/impact.js');
    return impact(this.index, { node_id: this.index.bundle.nodes[slot]!.id });
  }

  private adjacent(list: readonly number[] | undefined, other: 'to_node' | 'from_node'): Adjacent[] {
    const { edges } = this.index.bundle;
    return (list ?? []).map((e) => ({ slot: this.index.nodeIndex.get(edges[e]![other])!, type: edges[e]!.edge_type, violation: edges[e]!.layer_violation }));
  }
}
