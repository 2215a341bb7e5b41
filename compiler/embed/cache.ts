/**
 * The vector cache: `.kdd-index/embeddings/<model-slug>/<2-hex>.bin`, keyed by (SHA-256 of the
 * chunk's `context_text`, model). Incremental builds embed only chunks whose text is new, and since
 * vectors come from the cache rather than from ONNX (whose floats can differ between CPUs), a rebuild
 * of the same specs with a committed cache gives byte-identical artifacts and bundles.
 *
 * Shard format (little-endian, documented in docs/embeddings.md):
 *
 *   header  16 bytes: magic "KDDV" | u16 version = 1 | u16 reserved = 0 | u32 dims | u32 count
 *   records count × (32-byte SHA-256 | float32 × dims), sorted by hash ascending
 *
 * Same content ⇒ same bytes. Only shards whose content changed are rewritten; emptied shards are
 * deleted. `model.json` next to the shards names the model and dimensions for external tools.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeAtomic, writeIfChanged } from '../atomic.js';
import { modelSlug, type Embedder } from './embedder.js';

export const SHARD_MAGIC = 'KDDV';
export const SHARD_VERSION = 1;
const HEADER_BYTES = 16;
const HASH_BYTES = 32;

/** Hex SHA-256 of a chunk's `context_text` (the `text_hash` of the Embedding entity). */
export function textHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Encodes one shard; records must all have `dims` floats. Deterministic: sorted by hash. */
export function encodeShard(dims: number, records: ReadonlyMap<string, Float32Array>): Uint8Array {
  const hashes = [...records.keys()].sort();
  const recordBytes = HASH_BYTES + 4 * dims;
  const out = new Uint8Array(HEADER_BYTES + hashes.length * recordBytes);
  const view = new DataView(out.buffer);
  out.set(new TextEncoder().encode(SHARD_MAGIC), 0);
  view.setUint16(4, SHARD_VERSION, true);
  view.setUint16(6, 0, true);
  view.setUint32(8, dims, true);
  view.setUint32(12, hashes.length, true);
  hashes.forEach((hash, index) => {
    const offset = HEADER_BYTES + index * recordBytes;
    out.set(Buffer.from(hash, 'hex'), offset);
    const vector = records.get(hash)!;
    for (let d = 0; d < dims; d++) view.setFloat32(offset + HASH_BYTES + 4 * d, vector[d]!, true);
  });
  return out;
}

/** Decodes a shard; null when the bytes are not a valid shard (bad magic, version or length). */
export function decodeShard(bytes: Uint8Array): { dims: number; records: Map<string, Float32Array> } | null {
  if (bytes.length < HEADER_BYTES) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (new TextDecoder().decode(bytes.subarray(0, 4)) !== SHARD_MAGIC || view.getUint16(4, true) !== SHARD_VERSION) return null;
  const dims = view.getUint32(8, true);
  const count = view.getUint32(12, true);
  const recordBytes = HASH_BYTES + 4 * dims;
  if (dims === 0 || bytes.length !== HEADER_BYTES + count * recordBytes) return null;
  const records = new Map<string, Float32Array>();
  for (let index = 0; index < count; index++) {
    const offset = HEADER_BYTES + index * recordBytes;
    const hash = Buffer.from(bytes.subarray(offset, offset + HASH_BYTES)).toString('hex');
    const vector = new Float32Array(dims);
    for (let d = 0; d < dims; d++) vector[d] = view.getFloat32(offset + HASH_BYTES + 4 * d, true);
    records.set(hash, vector);
  }
  return { dims, records };
}

const sameVector = (a: Float32Array, b: Float32Array) => a.length === b.length && a.every((value, index) => Object.is(value, b[index]));

export interface CacheSaveReport {
  /** Shard files (relative to the model folder) rewritten. */
  written: string[];
  /** Shard files deleted because they became empty. */
  removed: string[];
}

export class VectorCache {
  private readonly shards = new Map<string, Map<string, Float32Array>>();
  private readonly dirty = new Set<string>();

  private constructor(
    /** `<indexDir>/embeddings/<model-slug>` */
    readonly dir: string,
    readonly modelId: string,
    private dims: number | null,
  ) {}

  /**
   * Loads every shard of `modelId` under `<indexDir>/embeddings/`. Unreadable shards, or shards
   * whose dimensions disagree with the majority, are ignored (and rewritten on save): a bad cache
   * costs re-embedding, never a failed build.
   */
  static async open(indexDir: string, modelId: string): Promise<VectorCache> {
    const dir = join(indexDir, 'embeddings', modelSlug(modelId));
    const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => /^[0-9a-f]{2}\.bin$/.test(name)).sort();
    const decoded = await Promise.all(names.map(async (name) => ({ prefix: name.slice(0, 2), shard: decodeShard(await readFile(join(dir, name))) })));
    const dimsVotes = new Map<number, number>();
    for (const { shard } of decoded) if (shard) dimsVotes.set(shard.dims, (dimsVotes.get(shard.dims) ?? 0) + shard.records.size);
    const dims = [...dimsVotes].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? null;
    const cache = new VectorCache(dir, modelId, dims);
    for (const { prefix, shard } of decoded) {
      const usable = shard && shard.dims === dims && [...shard.records.keys()].every((hash) => hash.startsWith(prefix));
      if (usable) cache.shards.set(prefix, shard.records);
      else cache.dirty.add(prefix);
    }
    return cache;
  }

  get dimensions(): number | null {
    return this.dims;
  }

  get size(): number {
    let total = 0;
    for (const shard of this.shards.values()) total += shard.size;
    return total;
  }

  get(hash: string): Float32Array | undefined {
    return this.shards.get(hash.slice(0, 2))?.get(hash);
  }

  set(hash: string, vector: Float32Array): void {
    if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error(`not a hex SHA-256: ${hash}`);
    if (this.dims === null) this.dims = vector.length;
    if (vector.length !== this.dims) throw new Error(`vector has ${vector.length} dimensions, the cache holds ${this.dims}`);
    const prefix = hash.slice(0, 2);
    let shard = this.shards.get(prefix);
    if (!shard) this.shards.set(prefix, (shard = new Map()));
    const current = shard.get(hash);
    if (current && sameVector(current, vector)) return;
    shard.set(hash, Float32Array.from(vector));
    this.dirty.add(prefix);
  }

  /** Drops every vector whose hash is not in `keep` (run after a full build: the cache mirrors the specs). */
  retain(keep: Iterable<string>): void {
    const wanted = new Set(keep);
    for (const [prefix, shard] of this.shards) {
      for (const hash of [...shard.keys()]) {
        if (!wanted.has(hash)) {
          shard.delete(hash);
          this.dirty.add(prefix);
        }
      }
    }
  }

  /** Empties the cache (e.g. the model under this id now has other dimensions). */
  clear(): void {
    for (const prefix of this.shards.keys()) this.dirty.add(prefix);
    this.shards.clear();
    this.dims = null;
  }

  /** Writes the changed shards (atomically) and `model.json`; deletes emptied shards. */
  async save(): Promise<CacheSaveReport> {
    const report: CacheSaveReport = { written: [], removed: [] };
    for (const prefix of [...this.dirty].sort()) {
      const shard = this.shards.get(prefix);
      const name = `${prefix}.bin`;
      if (!shard || shard.size === 0 || this.dims === null) {
        await rm(join(this.dir, name), { force: true });
        this.shards.delete(prefix);
        report.removed.push(name);
      } else {
        await writeAtomic(join(this.dir, name), encodeShard(this.dims, shard));
        report.written.push(name);
      }
    }
    this.dirty.clear();
    if (this.dims !== null && this.size > 0) {
      await writeIfChanged(join(this.dir, 'model.json'), `${JSON.stringify({ dimensions: this.dims, format: `kdd-vectors/${SHARD_VERSION}`, model: this.modelId }, null, 2)}\n`);
    }
    return report;
  }
}

export interface EmbedWithCacheResult {
  /** One vector per input text, in input order. */
  vectors: Float32Array[];
  /** Texts sent to the model (cache misses, deduplicated). */
  embedded: number;
  /** Texts answered from the cache. */
  reused: number;
}

/**
 * Vectors for `texts` (chunk `context_text`s): cache hits are reused, misses are embedded in one
 * `embedDocuments` call (deduplicated) and stored in the cache. Call `cache.save()` afterwards.
 */
export async function embedWithCache(texts: readonly string[], embedder: Embedder, cache: VectorCache): Promise<EmbedWithCacheResult> {
  if (cache.modelId !== embedder.id) throw new Error(`cache is for ${cache.modelId}, embedder is ${embedder.id}`);
  if (cache.dimensions !== null && cache.dimensions !== embedder.dimensions) cache.clear();
  const hashes = texts.map(textHash);
  const missing = new Map<string, string>();
  hashes.forEach((hash, index) => {
    if (!cache.get(hash) && !missing.has(hash)) missing.set(hash, texts[index]!);
  });
  if (missing.size > 0) {
    const fresh = await embedder.embedDocuments([...missing.values()]);
    [...missing.keys()].forEach((hash, index) => cache.set(hash, fresh[index]!));
  }
  return { vectors: hashes.map((hash) => cache.get(hash)!), embedded: missing.size, reused: texts.length - missing.size };
}
