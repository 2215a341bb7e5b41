import { describe, expect, it } from 'vitest';
import type { Enrichment } from '../../compiler/enrich/artifact.js';
import { enrichmentEdges } from '../../compiler/enrich/edges.js';
import { checkReply, extractJson } from '../../compiler/enrich/reply.js';
import { makeNode } from '../helpers/make-index.js';

const HASH = 'a'.repeat(64);
const nodes = ['CMD:CMD-001', 'Entity:Pedido', 'BR:BR-PEDIDO-001'].map((id) => ({ ...makeNode(id), source_hash: HASH }));

function enrichment(nodeId: string, sourceHash = HASH): Enrichment {
  return {
    format: 1,
    node_id: nodeId,
    source_file: 'x.md',
    source_hash: sourceHash,
    summary: 's',
    implicit_relations: [
      { target: 'Entity:Pedido', relation_type: 'affects', confidence: 0.7, evidence: 'e1' },
      { target: 'Entity:Gone', relation_type: 'uses', confidence: 0.9, evidence: 'e2' },
    ],
    impact_notes: [],
    provenance: { prompt_version: 'p', provider: 'command', model: 'm', cache_key: 'k', neighbourhood_hash: 'n' },
  };
}

describe('enrichmentEdges', () => {
  it('turns current relations into IMPLICIT_ edges kept apart from authored ones', () => {
    expect(enrichmentEdges([enrichment('CMD:CMD-001')], nodes)).toEqual([
      {
        from_node: 'CMD:CMD-001',
        to_node: 'Entity:Pedido',
        edge_type: 'IMPLICIT_AFFECTS',
        source_file: nodes[0]!.source_file,
        extraction_method: 'implicit',
        metadata: { confidence: '0.70', evidence: 'e1', relation: 'affects' },
        layer_violation: false,
        bidirectional: false,
      },
    ]);
  });

  it('ignores stale enrichments and enrichments of unknown nodes', () => {
    expect(enrichmentEdges([enrichment('CMD:CMD-001', 'b'.repeat(64)), enrichment('CMD:CMD-404')], nodes)).toEqual([]);
  });
});

describe('checkReply', () => {
  const exists = (id: string) => nodes.some((n) => n.id === id);

  it('keeps valid relations, normalises types and drops the rest with reasons', () => {
    const result = checkReply(
      {
        summary: '  Un resumen.\u0007 ',
        implicit_relations: [
          { target: 'Entity:Pedido', relation_type: 'Depends-On', confidence: '0.456', evidence: 'Dice algo.' },
          { target: 'Entity:Pedido', relation_type: 'explodes', confidence: 0.5, evidence: 'x' },
          { target: 'CMD:CMD-001', relation_type: 'uses', confidence: 0.5, evidence: 'x' },
          { target: 'BR:BR-PEDIDO-001', relation_type: 'uses', confidence: 3, evidence: 'x' },
        ],
        impact_notes: ['uno', 7, ''],
        file: '../../escape.json',
      },
      'CMD:CMD-001',
      exists,
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.body).toEqual({
      summary: 'Un resumen.',
      implicit_relations: [{ target: 'Entity:Pedido', relation_type: 'depends_on', confidence: 0.46, evidence: 'Dice algo.' }],
      impact_notes: ['uno'],
    });
    expect(result.warnings).toHaveLength(3);
  });

  it('rejects a reply without a summary or with the wrong shape', () => {
    expect(checkReply([], 'X', exists)).toMatchObject({ ok: false });
    expect(checkReply({ summary: 'ok', implicit_relations: {} }, 'X', exists)).toMatchObject({ ok: false });
  });
});

describe('extractJson', () => {
  it('reads bare JSON, fenced JSON, prose around JSON and a claude -p JSON envelope', () => {
    expect(extractJson('{"summary":"a"}')).toEqual({ summary: 'a' });
    expect(extractJson('Here:\n```json\n{"summary":"b"}\n```\n')).toEqual({ summary: 'b' });
    expect(extractJson('Sure. {"summary":"c"} Done.')).toEqual({ summary: 'c' });
    expect(extractJson(JSON.stringify({ type: 'result', result: '```json\n{"summary":"d"}\n```' }))).toEqual({ summary: 'd' });
    expect(() => extractJson('no json here')).toThrow();
  });
});
