/** fast-check arbitrary: small random graphs over real kinds and edge types. */
import fc from 'fast-check';
import type { EdgeInput, NodeInput } from './make-index.js';

const IDS = ['Entity:A', 'Entity:B', 'EVT:EVT-A-Created', 'BR:BR-A-001', 'CMD:CMD-001', 'UC:UC-001', 'UC:UC-002', 'REQ:REQ-001', 'PRD:PRD-X', 'FEAT:a'];
const TYPES = ['WIKI_LINK', 'ENTITY_RULE', 'EMITS', 'UC_APPLIES_RULE', 'UC_EXECUTES_CMD', 'REQ_TRACES_TO', 'VALIDATES', 'pertenece_a'];

export function arbitraryGraph(): fc.Arbitrary<{ nodes: NodeInput[]; edges: EdgeInput[] }> {
  return fc.subarray(IDS, { minLength: 1 }).chain((ids) =>
    fc
      .uniqueArray(fc.tuple(fc.constantFrom(...ids), fc.constantFrom(...ids), fc.constantFrom(...TYPES)), {
        maxLength: 30,
        selector: ([from, to, type]) => `${from}|${to}|${type}`,
      })
      .map((triples) => ({
        nodes: ids.map((id) => ({ id })),
        edges: triples.filter(([from, to]) => from !== to).map(([from, to, type]) => ({ from, to, type })),
      })),
  );
}
