/**
 * A {@link TextIndex} over the site sub-bundle (formats/site-bundle.ts) that holds only the shards
 * fetched so far. Queries stay the runtime's synchronous code (runtime/search/fuse.ts): a lookup
 * of a term or key whose shard is not loaded answers "absent" and is remembered; {@link
 * ShardedSearch.run} then fetches the missing shards and runs the query again, until nothing is
 * missing. Scores equal the full index's, because a loaded term carries all its postings and the
 * field lengths of every node come with the meta. Glossary rows come with the meta too (the stub
 * nodes carry no fields), so definition scoring reads the same rows as over the full bundle.
 */
import type { KddIndex } from '../../../runtime/kdd-index.js';
import type { GraphNode } from '../../../model/graph.js';
import { u16ToBytes, u32ToBytes } from '../../../formats/bytes.js';
import { restoreTextIndex, SEARCH_FORMAT, type SerializedTextIndex } from '../../../runtime/search/bm25f.js';
import { fold } from '../../../runtime/search/tokenizer.js';
import type { TermAlternative, TextHit, TextIndex } from '../../../runtime/search/types.js';
import type { Vocabulary } from './prefix.js';
import { decodeDefinitions, decodeVarints, DOC_CHUNK, shardFor, type DocChunk, type DocSummary, type KeyShard, type SearchMeta, type TermShard } from '../../../formats/site-bundle.js';

/** Fetches and decodes one site file by name. */
export type FetchFile = <T>(name: string) => Promise<T>;

interface LoadedTerms {
  terms: string[];
  /** Postings of term i: docs.slice(starts[i], starts[i + 1]). */
  starts: number[];
  docs: number[];
  tfs: number[];
}

/** Rounds of fetch-and-rerun before giving up (one is enough in practice; joined word pairs may need two). */
const MAX_ROUNDS = 4;

export class ShardedSearch {
  private readonly termShards = new Map<number, LoadedTerms>();
  private readonly keyShards = new Map<number, Map<string, number[]>>();
  private readonly docChunks = new Map<number, Promise<DocChunk>>();
  private readonly missingTerms = new Set<number>();
  private readonly missingKeys = new Set<number>();
  private readonly lens: Uint8Array;
  private readonly stubs: GraphNode[];
  private inner: TextIndex;
  /** A KddIndex as far as runtime/search/fuse.ts (without graph expansion) needs one. */
  readonly index: KddIndex;

  constructor(
    readonly meta: SearchMeta,
    private readonly fetchFile: FetchFile,
  ) {
    this.lens = u16ToBytes(decodeVarints(meta.lens));
    this.stubs = Array.from({ length: meta.nodes }, (_, i) => stub(meta.kind_names[meta.kinds[i]!]!, meta.layer_names[meta.layers[i]!]!));
    this.inner = this.restore();
    const text = this.textIndex();
    this.index = {
      hash: meta.source,
      vectors: null,
      nodeIndex: new Map(),
      text,
      definitions: decodeDefinitions(meta.definitions),
      bundle: { nodes: this.stubs, manifest: { index_level: meta.index_level } } as unknown as KddIndex['bundle'],
    };
  }

  /** Runs `query` (synchronous runtime code) until every shard it touched is loaded. */
  async run<T>(query: (index: KddIndex) => T): Promise<{ result: T; fetched: number }> {
    let fetched = 0;
    for (let round = 0; ; round++) {
      this.missingTerms.clear();
      this.missingKeys.clear();
      const result = query(this.index);
      if ((this.missingTerms.size === 0 && this.missingKeys.size === 0) || round === MAX_ROUNDS) return { result, fetched };
      const terms = [...this.missingTerms];
      const keys = [...this.missingKeys];
      fetched += terms.length + keys.length;
      await Promise.all([...terms.map((s) => this.loadTermShard(s)), ...keys.map((s) => this.loadKeyShard(s))]);
      this.inner = this.restore();
    }
  }

  /** What search-as-you-type reads of the vocabulary (search/prefix.ts). */
  readonly vocabulary: Vocabulary = {
    withPrefix: (prefix) => this.termsWithPrefix(prefix),
    settled: (term) => {
      const shard = shardFor(this.meta.terms, term);
      return shard < 0 || this.termShards.has(shard);
    },
  };

  /**
   * Loaded terms that start with `prefix`, in order. The shards the prefix's range spans (sorted
   * terms: one or two) are remembered as missing when not loaded, as any term lookup.
   */
  private termsWithPrefix(prefix: string): string[] {
    const first = Math.max(0, shardFor(this.meta.terms, prefix));
    const last = shardFor(this.meta.terms, `${prefix}\uffff`);
    const out: string[] = [];
    for (let shard = first; shard <= last; shard++) {
      const loaded = this.termShards.get(shard);
      if (!loaded) this.missingTerms.add(shard);
      else for (const term of loaded.terms) if (term.startsWith(prefix)) out.push(term);
    }
    return out;
  }

  /** What result rows show for node `position` (fetches its doc chunk once). */
  async summary(position: number): Promise<DocSummary> {
    const chunk = Math.floor(position / DOC_CHUNK);
    let pending = this.docChunks.get(chunk);
    if (!pending) this.docChunks.set(chunk, (pending = this.fetchFile<DocChunk>(this.meta.docs[chunk]!)));
    const loaded = await pending;
    return loaded.docs[position - loaded.start]!;
  }

  private textIndex(): TextIndex {
    // Arrow functions read `this.inner` at call time: it is replaced after each fetch round.
    return {
      size: this.meta.nodes,
      search: (query, options) => this.inner.search(query, options),
      searchTerms: (groups, options) => this.searchTerms(groups, options),
      docFrequency: (term) => (this.termLoaded(term) ? this.inner.docFrequency(term) : 0),
      fieldsOf: (term, node) => (this.termLoaded(term) ? this.inner.fieldsOf(term, node) : []),
      lookup: (key) => this.lookup(key),
    };
  }

  private searchTerms(groups: readonly (readonly TermAlternative[])[], options?: { limit?: number }): TextHit[] {
    for (const group of groups) for (const alt of group) this.termLoaded(alt.term);
    return this.inner.searchTerms(groups, options);
  }

  /** True when `term`'s shard is loaded; otherwise remembers the shard as missing. */
  private termLoaded(term: string): boolean {
    const shard = shardFor(this.meta.terms, term);
    if (shard < 0 || this.termShards.has(shard)) return true;
    this.missingTerms.add(shard);
    return false;
  }

  private lookup(raw: string): readonly number[] {
    const key = fold(raw).trim();
    const shard = shardFor(this.meta.keys, key);
    if (shard < 0) return [];
    const table = this.keyShards.get(shard);
    if (!table) {
      this.missingKeys.add(shard);
      return [];
    }
    return table.get(key) ?? [];
  }

  private async loadTermShard(shard: number): Promise<void> {
    const data = await this.fetchFile<TermShard>(this.meta.terms[shard]!.file);
    const terms = data.terms === '' ? [] : data.terms.split('\n');
    const counts = decodeVarints(data.counts);
    const deltas = decodeVarints(data.docs);
    const tfs = decodeVarints(data.tfs);
    const starts = [0];
    const docs: number[] = [];
    let p = 0;
    for (const count of counts) {
      let last = 0;
      for (let i = 0; i < count; i++, p++) docs.push((last += deltas[p]!));
      starts.push(docs.length);
    }
    this.termShards.set(shard, { terms, starts, docs, tfs });
  }

  private async loadKeyShard(shard: number): Promise<void> {
    const data = await this.fetchFile<KeyShard>(this.meta.keys[shard]!.file);
    const keys = data.keys === '' ? [] : data.keys.split('\n');
    const values = decodeVarints(data.nodes);
    const table = new Map<string, number[]>();
    let p = 0;
    for (const key of keys) {
      const count = values[p++]!;
      const nodes: number[] = [];
      let last = 0;
      for (let i = 0; i < count; i++) nodes.push((last += values[p++]!));
      table.set(key, nodes);
    }
    this.keyShards.set(shard, table);
  }

  /** The runtime's BM25F index over the loaded terms only (same scores: full postings, full lengths). */
  private restore(): TextIndex {
    const loaded = [...this.termShards.entries()].sort((a, b) => a[0] - b[0]).map(([, shard]) => shard);
    const offsets = [0];
    const docs: number[] = [];
    const tfs: number[] = [];
    const terms: string[] = [];
    for (const shard of loaded) {
      shard.terms.forEach((term, i) => {
        terms.push(term);
        for (let p = shard.starts[i]!; p < shard.starts[i + 1]!; p++) docs.push(shard.docs[p]!), tfs.push(shard.tfs[p]!);
        offsets.push(docs.length);
      });
    }
    const data: SerializedTextIndex = {
      format: SEARCH_FORMAT,
      fields: this.meta.fields,
      nodes: this.meta.nodes,
      terms: terms.join('\n'),
      offsets: u32ToBytes(offsets),
      docs: u32ToBytes(docs),
      tfs: u16ToBytes(tfs),
      lens: this.lens,
    };
    return restoreTextIndex(data, this.stubs);
  }
}

/** A node with only what ranking reads (kind, layer); exact keys come from the key shards instead. */
function stub(kind: string, layer: string): GraphNode {
  return {
    id: '',
    kind,
    doc_id: '',
    title: '',
    source_file: '',
    source_hash: '',
    layer,
    status: '',
    aliases: [],
    domain: null,
    indexed_fields: {},
    sections: [],
    tags: [],
    indexed_at: null,
  } as unknown as GraphNode;
}
