/** What a node file of `.kdd-index/` holds: the node, and the links it makes as written (resolved later). */
import type { GraphNode } from './graph.js';

/** A link as written, with where it was found; resolved to a node (or reported dangling) later. */
export interface RawLink {
  target: string | null;
  domain: string | null;
  anchor: string | null;
  alias: string | null;
  /** Canonical field of the section holding the link (`relations`, `declaration`…), or null. */
  field: string | null;
  /** Heading text of the section holding the link, or null for the preamble. */
  section: string | null;
  /** `wiki` for authored `[[...]]`; `id` for bare ids in Gherkin, which never count as dangling. */
  origin: 'wiki' | 'id';
  /** Business relation name and cardinality from an entity's relations table row. */
  relation?: string;
  cardinality?: string;
}

export interface DocumentRecord {
  node: GraphNode;
  links: RawLink[];
}
