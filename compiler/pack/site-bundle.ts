/**
 * Site sub-bundle (#7): splits a bundle's text index into small content-hashed files so the static
 * site's first search downloads a few hundred kB instead of the whole bundle, plus the graph pieces
 * the node, graph and impact pages read (compiler/pack/site-graph.ts; see docs/site.md and
 * formats/site-bundle.ts for the layout). A pure function of the bundle: equal bundles give equal files.
 *
 * Callers: `kdd site DIR` (library/site.ts) today; `kdd build --site` can call
 * {@link packSiteBundle} on the bundle it just packed and write the files with {@link writeSiteBundle}.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Packr } from 'msgpackr';
import type { Bundle } from '../../formats/bundle/types.js';
import { KINDS, LAYERS, type GraphNode } from '../../model/graph.js';
import { bytesToU16, bytesToU32 } from '../../formats/bytes.js';
import { exactKeys, keyTable, type SerializedTextIndex } from '../../runtime/search/bm25f.js';
import { glossaryRows } from '../../runtime/search/definitions.js';
import { PRIMARY_SECTIONS } from '../../runtime/search/fields.js';
import {
  DOC_CHUNK,
  encodeDefinitions,
  encodeVarints,
  SITE_FILE,
  SITE_FORMAT,
  SITE_POINTER_FILE,
  SNIPPET_SOURCE_CHARS,
  type DocChunk,
  type DocSummary,
  type GraphChunk,
  type GraphMeta,
  type KeyShard,
  type SearchMeta,
  type SitePointer,
  type TermShard,
} from '../../formats/site-bundle.js';
import { publishHashedFiles } from './publish.js';
import { runsWithin } from './shards.js';
import { packSiteGraph } from './site-graph.js';

/** Encoded posting bytes per term shard before a new one starts (a bigger term gets its own). */
const TERM_SHARD_BYTES = 16 * 1024;
/** Encoded bytes per exact-key shard. */
const KEY_SHARD_BYTES = 8 * 1024;

export interface SiteFile {
  /** `kdd-s-<sha256:12>.msgpack` */
  name: string;
  bytes: Uint8Array;
}

export interface SiteBundle {
  pointer: SitePointer;
  /** Meta first, then term shards, key shards, doc chunks and the graph pieces. */
  files: SiteFile[];
}

// Same fixed options as the bundle (formats/msgpack.ts).
const packr = () => new Packr({ useRecords: false, variableMapSize: true });

/** `bundleFile` is the full bundle's file name (`kdd-<hash>.msgpack`), recorded as the source. */
export function packSiteBundle(bundle: Bundle, bundleFile: string): SiteBundle {
  const search = bundle.search as SerializedTextIndex;
  const files: SiteFile[] = [];
  const names = new Set<string>();
  const emit = (value: unknown): string => {
    const bytes = packr().pack(value);
    const name = `kdd-s-${createHash('sha256').update(bytes).digest('hex').slice(0, 12)}.msgpack`;
    if (!names.has(name)) files.push({ name, bytes }), names.add(name);
    return name;
  };
  const terms = termShards(search).map((shard) => ({ first: shard.first, file: emit(shard.shard) }));
  const keys = keyShards(bundle.nodes).map((shard) => ({ first: shard.first, file: emit(shard.shard) }));
  const docs = docChunks(bundle.nodes).map((chunk) => emit(chunk));
  const graph = emit(packSiteGraph(bundle, bundleFile, emit));
  const meta: SearchMeta = {
    format: SITE_FORMAT,
    source: bundleFile,
    nodes: bundle.nodes.length,
    fields: search.fields,
    lens: encodeVarints(bytesToU16(search.lens)),
    kinds: Uint8Array.from(bundle.nodes, (node) => KINDS.indexOf(node.kind)),
    layers: Uint8Array.from(bundle.nodes, (node) => LAYERS.indexOf(node.layer)),
    kind_names: [...KINDS],
    layer_names: [...LAYERS],
    terms,
    keys,
    docs,
    index_level: bundle.manifest.index_level,
    definitions: encodeDefinitions(glossaryRows(bundle.nodes)),
  };
  const metaName = emit(meta);
  const metaFile = files.pop()!;
  files.unshift(metaFile);
  return {
    pointer: {
      format: SITE_FORMAT,
      source: bundleFile,
      meta: metaName,
      meta_bytes: metaFile.bytes.byteLength,
      info: {
        nodes: bundle.nodes.length,
        edges: bundle.edges.length,
        index_level: bundle.manifest.index_level,
        kinds: KINDS.filter((kind) => bundle.nodes.some((node) => node.kind === kind)),
        layers: LAYERS.filter((layer) => bundle.nodes.some((node) => node.layer === layer)),
      },
      graph,
      files: files.length,
      total_bytes: files.reduce((sum, file) => sum + file.bytes.byteLength, 0),
    },
    files,
  };
}

/**
 * Writes the files (hashed files are never rewritten), then `kdd-site.json` last, then removes
 * site files that neither the new pointer nor the previous one names (a reader holding the old
 * pointer can finish its session, as with the bundle).
 */
export async function writeSiteBundle(dir: string, site: SiteBundle): Promise<void> {
  await publishHashedFiles(dir, { files: site.files, pointer: { file: SITE_POINTER_FILE, value: site.pointer }, owns: SITE_FILE, previouslyNamed: readSiteFiles });
}

/** Names of every file the current `kdd-site.json` of `dir` references (empty when there is none). */
async function readSiteFiles(dir: string): Promise<string[]> {
  try {
    const pointer = JSON.parse(await readFile(join(dir, SITE_POINTER_FILE), 'utf8')) as SitePointer;
    const read = async <T>(name: string) => packr().unpack(await readFile(join(dir, name))) as T;
    const meta = await read<SearchMeta>(pointer.meta);
    const names = [pointer.meta, ...meta.terms.map((s) => s.file), ...meta.keys.map((s) => s.file), ...meta.docs];
    if (pointer.graph) {
      const graph = await read<GraphMeta>(pointer.graph);
      names.push(pointer.graph, ...graph.ids.map((s) => s.file), ...graph.chunks);
      for (const name of graph.chunks) {
        const chunk = await read<GraphChunk>(name);
        names.push(...chunk.details, ...chunk.impacts);
      }
    }
    return names;
  } catch {
    return [];
  }
}

function termShards(search: SerializedTextIndex): { first: string; shard: TermShard }[] {
  const terms = search.terms === '' ? [] : search.terms.split('\n');
  const offsets = bytesToU32(search.offsets);
  const docs = bytesToU32(search.docs);
  const tfs = bytesToU16(search.tfs);
  // Rough encoded size: the term, ~1.5 bytes per delta, ~1.5 per tf.
  const size = (t: number) => terms[t]!.length + 3 * (offsets[t + 1]! - offsets[t]!) + 2;
  return runsWithin(terms.keys(), size, TERM_SHARD_BYTES).map((run) => {
    const counts: number[] = [];
    const deltas: number[] = [];
    const frequencies: number[] = [];
    for (const t of run) {
      const start = offsets[t]!;
      const end = offsets[t + 1]!;
      counts.push(end - start);
      let last = 0;
      for (let p = start; p < end; p++) {
        deltas.push(docs[p]! - last);
        last = docs[p]!;
        frequencies.push(tfs[p]!);
      }
    }
    return {
      first: terms[run[0]!]!,
      shard: { terms: run.map((t) => terms[t]!).join('\n'), counts: encodeVarints(counts), docs: encodeVarints(deltas), tfs: encodeVarints(frequencies) },
    };
  });
}

function keyShards(nodes: readonly GraphNode[]): { first: string; shard: KeyShard }[] {
  // The full index's exact-match keys; a key with a line break cannot go into a '\n'-joined shard.
  const table = keyTable(nodes.map((node) => exactKeys(node).filter((key) => !key.includes('\n'))));
  const keys = [...table.keys()].sort();
  return runsWithin(keys, (key) => key.length + 2 * table.get(key)!.length + 2, KEY_SHARD_BYTES).map((run) => {
    const lists: number[] = [];
    for (const key of run) {
      const list = table.get(key)!;
      lists.push(list.length);
      let last = 0;
      for (const node of list) lists.push(node - last), (last = node);
    }
    return { first: run[0]!, shard: { keys: run.join('\n'), nodes: encodeVarints(lists) } };
  });
}

function docChunks(nodes: readonly GraphNode[]): DocChunk[] {
  const chunks: DocChunk[] = [];
  for (let start = 0; start < nodes.length; start += DOC_CHUNK) {
    chunks.push({ start, docs: nodes.slice(start, start + DOC_CHUNK).map(summary) });
  }
  return chunks;
}

function summary(node: GraphNode): DocSummary {
  const defining = node.sections.find((s) => s.field !== null && PRIMARY_SECTIONS.has(s.field) && s.text.trim() !== '');
  const section = defining ?? node.sections.find((s) => s.text.trim() !== '') ?? null;
  return {
    id: node.id,
    doc_id: node.doc_id,
    title: node.title,
    kind: node.kind,
    layer: node.layer,
    status: node.status,
    source_file: node.source_file,
    section: section?.heading ?? null,
    text: section ? clip(section.text.replace(/\s+/g, ' ').trim(), SNIPPET_SOURCE_CHARS) : '',
  };
}

/** At most `max` characters, cut at a word boundary, with an ellipsis when cut. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf(' ', max - 1);
  return `${text.slice(0, cut > max / 2 ? cut : max - 1)}…`;
}
