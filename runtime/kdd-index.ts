/** The in-memory index every query takes as its first argument (restored by runtime/load.ts). */
import type { Bundle } from '../formats/bundle/types.js';
import type { GlossaryRow } from '../formats/site-bundle.js';
import type { TextIndex } from './search/types.js';
import type { VectorStore } from './vectors.js';

export interface KddIndex {
  readonly bundle: Bundle;
  /** First 12 hex chars of the bundle's SHA-256 (its file name tag). */
  readonly hash: string;
  /** Node id → position in `bundle.nodes`. */
  readonly nodeIndex: ReadonlyMap<string, number>;
  readonly text: TextIndex;
  /** L2: the bundle's int8 vectors, aligned for scanning (row i ↔ `bundle.chunks[bundle.vectors.rows[i]]`); null at L1. */
  readonly vectors: VectorStore | null;
  /** Glossary rows for definition scoring when the nodes carry no fields (the site's sub-bundle); absent: derived from the nodes. */
  readonly definitions?: readonly GlossaryRow[];
}
