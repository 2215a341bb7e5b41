/**
 * Blob cache for merges from git refs (compiler/sync.ts `readIndexFromGit`): the record each node
 * file parses to, keyed by the file's git blob id. A blob id names the file's exact bytes, so an
 * entry is valid for any ref, path or repository that holds the same blob; a merge after a push
 * asks git only for the node files the push changed.
 *
 * An entry is stored the way the record cache stores a record (compiler/emit/record-cache.ts): the
 * light node with its content key, the raw links, and the node body exactly as the bundle stores it.
 * Only the entries a merge asks for are decoded, texts on first access, and the pack stage takes key
 * and body as they are (compiler/emit/packed-node.ts).
 *
 * Layout: u32 (LE) header length, msgpack header (format, code fingerprint, blob ids, lengths,
 * SHA-256 of the rest), then per entry its light part, links and body. Never the source of truth: a
 * missing, unreadable, truncated, altered or foreign file (format, or written by other code:
 * compiler/emit/code-fingerprint.ts) is an empty cache. Bodies go into the bundle as they are,
 * hence the checksum (about 20 ms for 10k entries). It lives in the merge's cache folder
 * (`<outDir>/.cache/`).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { lightNode, newPackr, withLazyBody } from '../../runtime/bundle-codec.js';
import type { DocumentRecord, RawLink } from '../kinds/extract.js';
import { writeAtomic, writeIfChanged } from './atomic.js';
import { codeFingerprint } from './code-fingerprint.js';
import { packedNode, rememberPackedNode } from './packed-node.js';

const FORMAT = 'kdd-blob-cache/1';

export interface BlobCache {
  /** The record of the node file whose blob id is `oid`, if cached (the same object for every ask). */
  get(oid: string): DocumentRecord | undefined;
  /** Remembers the record parsed from blob `oid`. */
  set(oid: string, record: DocumentRecord): void;
  /** Entries the file held when opened; entries asked for and found / stored since. */
  readonly stored: number;
  readonly hits: number;
  readonly misses: number;
  /** Writes the entries used since opening (atomically), unless the file already holds exactly those. */
  save(): Promise<void>;
}

interface Header {
  format: string;
  fingerprint: string;
  oids: string[];
  /** Per entry: byte length of its light part, of its links, then of its body. */
  lengths: number[];
  /** SHA-256 (hex) of everything after the header. */
  sha256: string;
}

/** Light part of an entry as stored: `[light node, content key]`. */
type StoredLight = [Record<string, unknown>, string];

interface Stored {
  light: Uint8Array;
  links: Uint8Array;
  body: Uint8Array;
}

export async function openBlobCache(file: string): Promise<BlobCache> {
  const stored = await readStored(file);
  const unpackr = newPackr();
  const records = new Map<string, DocumentRecord>();
  const fresh = new Map<string, DocumentRecord>();
  const used = new Set<string>();
  let hits = 0;
  return {
    get(oid) {
      let record = records.get(oid);
      if (record === undefined) {
        const entry = stored.get(oid);
        if (entry === undefined) return undefined;
        try {
          const [item, key] = unpackr.unpack(entry.light) as StoredLight;
          const node = withLazyBody(item, entry.body);
          rememberPackedNode(node, key, entry.body);
          // Links decode now: almost every cached blob is some input's version of a winner, and a
          // plain `{ node, links }` keeps fast properties (own accessors would not).
          record = { node, links: unpackr.unpack(entry.links) as RawLink[] };
        } catch {
          return undefined;
        }
        records.set(oid, record);
      }
      if (!used.has(oid)) used.add(oid), hits++;
      return record;
    },
    set(oid, record) {
      records.set(oid, record);
      fresh.set(oid, record);
      used.add(oid);
    },
    stored: stored.size,
    get hits() {
      return hits;
    },
    get misses() {
      return fresh.size;
    },
    async save() {
      if (fresh.size === 0 && used.size === stored.size) return;
      const packr = newPackr();
      const copy = (value: unknown) => Uint8Array.prototype.slice.call(packr.pack(value));
      const oids = [...used].sort();
      const parts: Uint8Array[] = [];
      const lengths: number[] = [];
      for (const oid of oids) {
        let entry = fresh.has(oid) ? undefined : stored.get(oid);
        if (entry === undefined) {
          const record = records.get(oid)!;
          const packed = packedNode(record.node);
          entry = { light: copy([lightNode(packed.node), packed.key] satisfies StoredLight), links: copy(record.links), body: packed.body };
        }
        parts.push(entry.light, entry.links, entry.body);
        lengths.push(entry.light.length, entry.links.length, entry.body.length);
      }
      const hash = createHash('sha256');
      let size = 0;
      for (const part of parts) hash.update(part), (size += part.length);
      const head = packr.pack({ format: FORMAT, fingerprint: codeFingerprint(), oids, lengths, sha256: hash.digest('hex') } satisfies Header);
      const out = new Uint8Array(4 + head.length + size);
      new DataView(out.buffer).setUint32(0, head.length, true);
      out.set(head, 4);
      let at = 4 + head.length;
      for (const part of parts) out.set(part, at), (at += part.length);
      await writeAtomic(file, out);
      await writeIfChanged(join(dirname(file), '.gitignore'), '*\n');
    },
  };
}

/** The file's entries as byte ranges, or none when it is missing or does not fit this code. */
async function readStored(file: string): Promise<Map<string, Stored>> {
  const entries = new Map<string, Stored>();
  const bytes = await readFile(file).catch(() => null);
  if (bytes === null || bytes.length < 4) return entries;
  try {
    // A plain view: msgpackr treats Node Buffers specially (see runtime/bundle-format.ts).
    const view = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const headerLength = new DataView(view.buffer, view.byteOffset, 4).getUint32(0, true);
    const header = newPackr().unpack(view.subarray(4, 4 + headerLength)) as Header;
    if (header?.format !== FORMAT || header.fingerprint !== codeFingerprint() || !Array.isArray(header.oids) || !Array.isArray(header.lengths)) return new Map();
    if (header.lengths.length !== header.oids.length * 3) return new Map();
    if (createHash('sha256').update(view.subarray(4 + headerLength)).digest('hex') !== header.sha256) return new Map();
    let at = 4 + headerLength;
    for (let i = 0; i < header.oids.length; i++) {
      const [a, b, c] = [header.lengths[3 * i], header.lengths[3 * i + 1], header.lengths[3 * i + 2]];
      if (!Number.isInteger(a) || !Number.isInteger(b) || !Number.isInteger(c) || a! < 0 || b! < 0 || c! < 0) return new Map();
      const light = view.subarray(at, (at += a!));
      const links = view.subarray(at, (at += b!));
      const body = view.subarray(at, (at += c!));
      if (at > view.length) return new Map();
      entries.set(String(header.oids[i]), { light, links, body });
    }
    return at === view.length ? entries : new Map();
  } catch {
    return new Map();
  }
}

