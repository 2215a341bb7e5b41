/**
 * Blob cache for merges from git refs (compiler/team/merge-inputs.ts `readIndexFromGit`): the record each node
 * file parses to, keyed by the file's git blob id. A blob id names the file's exact bytes, so an
 * entry is valid for any ref, path or repository that holds the same blob; a merge after a push
 * asks git only for the node files the push changed.
 *
 * Entries and file framing are the record cache's (compiler/cache/record-entries.ts). Only the
 * entries a merge asks for are decoded, texts on first access. The header holds the format, the code
 * fingerprint, the blob ids, the lengths and the SHA-256 of the rest. Never the source of truth: a
 * missing, unreadable, truncated, altered or foreign file (format, or written by other code:
 * compiler/cache/code-fingerprint.ts) is an empty cache. Bodies go into the bundle as they are,
 * hence the checksum (about 20 ms for 10k entries). It lives in the merge's cache folder
 * (`<outDir>/.cache/`).
 */
import { createHash } from 'node:crypto';
import { newPackr } from '../../formats/msgpack.js';
import type { DocumentRecord } from '../../model/records.js';
import { codeFingerprint } from './code-fingerprint.js';
import { entryLengths, entryParts, loadRecord, readFramed, sliceEntries, storeRecord, writeFramed, type StoredRecord } from './record-entries.js';

const FORMAT = 'kdd-blob-cache/2';

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
          // Links decode now: almost every cached blob is some input's version of a winner.
          record = loadRecord(entry, unpackr, 'now');
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
      const oids = [...used].sort();
      const entries = oids.map((oid) => (fresh.has(oid) ? undefined : stored.get(oid)) ?? storeRecord(records.get(oid)!, packr));
      const parts = entries.flatMap(entryParts);
      const hash = createHash('sha256');
      for (const part of parts) hash.update(part);
      await writeFramed(file, { format: FORMAT, fingerprint: codeFingerprint(), oids, lengths: entryLengths(entries), sha256: hash.digest('hex') } satisfies Header, parts);
    },
  };
}

/** The file's entries as byte ranges, or none when it is missing or does not fit this code. */
async function readStored(file: string): Promise<Map<string, StoredRecord>> {
  const entries = new Map<string, StoredRecord>();
  const framed = await readFramed(file);
  const header = framed?.header as Header | null | undefined;
  if (!framed || header?.format !== FORMAT || header.fingerprint !== codeFingerprint() || !Array.isArray(header.oids) || !Array.isArray(header.lengths)) return entries;
  if (header.lengths.length !== header.oids.length * 3) return entries;
  if (createHash('sha256').update(framed.payload).digest('hex') !== header.sha256) return entries;
  const sliced = sliceEntries(framed.payload, header.lengths);
  if (sliced === null) return entries;
  sliced.forEach((entry, i) => entries.set(String(header.oids[i]), entry));
  return entries;
}

