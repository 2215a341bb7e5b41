import { existsSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_CHARS, MIN_WORDS, chunkAll, chunkNode, slug, type Chunk } from '../../compiler/embed/chunk.js';
import { compile } from '../../compiler/pipeline.js';
import type { GraphNode, Kind, NodeSection } from '../../model/graph.js';
import { KDD_ENGINE_SPECS } from '../helpers/temp-tree.js';

function makeNode(kind: Kind, docId: string, sections: NodeSection[]): GraphNode {
  const prefix = { entity: 'Entity', event: 'EVT', 'use-case': 'UC', 'business-rule': 'BR' }[kind as string] ?? kind;
  return {
    id: `${prefix}:${docId}`,
    kind,
    doc_id: docId,
    title: docId,
    source_file: `${docId}.md`,
    source_hash: '0'.repeat(64),
    layer: '01-domain',
    status: 'draft',
    aliases: [],
    domain: null,
    indexed_fields: {},
    sections,
    tags: [],
    indexed_at: null,
  };
}

const section = (heading: string, field: string | null, text: string, depth = 2): NodeSection => ({ heading, depth, field, text });
const words = (text: string) => text.split(/\s+/).filter(Boolean);
const sentence = (n: number, word = 'palabra') => `${Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ')}.`;

describe('chunking per BR-EMBEDDING-001', () => {
  const pedido = makeNode('entity', 'Pedido', [
    section('Descripción', 'description', [sentence(25, 'pedido'), sentence(30, 'ciclo'), sentence(22, 'linea')].join('\n\n')),
    section('Atributos', 'attributes', 'Atributo | Tipo\nid | uuid\nestado | enum'),
  ]);

  it('one chunk per paragraph of an embeddable section, with the identity line and heading as context', () => {
    const chunks = chunkNode(pedido);
    expect(chunks.map((c) => c.chunk_id)).toEqual(['Entity:Pedido#descripcion:0', 'Entity:Pedido#descripcion:1', 'Entity:Pedido#descripcion:2']);
    expect(chunks.map((c) => c.position)).toEqual([0, 1, 2]);
    expect(chunks[0]!.context_text).toBe(`[entity: Pedido] > [Descripción]\n${sentence(25, 'pedido')}`);
    expect(chunks[0]).toMatchObject({ node_id: 'Entity:Pedido', document_id: 'Pedido', document_kind: 'entity', section: 'Descripción', section_path: 'descripcion', field: 'description', embeddable: true, block: 'text' });
  });

  it('the document title follows the identity line when it says more than the id', () => {
    const rule = { ...makeNode('business-rule', 'BR-EMBEDDING-001', [section('Declaración', 'declaration', sentence(21))]), title: 'Embedding Strategy' };
    expect(chunkNode(rule)[0]!.context_text).toBe(`[business-rule: BR-EMBEDDING-001] > [Embedding Strategy] > [Declaración]\n${sentence(21)}`);
  });

  it('chunkAll adds the non-embeddable sections, marked, with the same ids for shared chunks', () => {
    const all = chunkAll(pedido);
    expect(all.map((c) => [c.chunk_id, c.embeddable, c.block])).toEqual([
      ['Entity:Pedido#descripcion:0', true, 'text'],
      ['Entity:Pedido#descripcion:1', true, 'text'],
      ['Entity:Pedido#descripcion:2', true, 'text'],
      ['Entity:Pedido#atributos:0', false, 'table'],
    ]);
    expect(all.map((c) => c.position)).toEqual([0, 1, 2, 3]);
  });

  it('merges paragraphs under 20 words with the next; a trailing short one joins the previous chunk', () => {
    const text = [sentence(5, 'a'), sentence(6, 'b'), sentence(12, 'c'), sentence(30, 'd'), sentence(3, 'e')].join('\n\n');
    const chunks = chunkNode(makeNode('entity', 'X', [section('Descripción', 'description', text)]));
    expect(chunks.map((c) => words(c.text).length)).toEqual([5 + 6 + 12, 30 + 3]);
    expect(chunks.every((c) => words(c.text).length >= MIN_WORDS)).toBe(true);
  });

  it('a table is one chunk, never merged with prose', () => {
    const table = ['Nivel | Condición | Produce', 'L1 | siempre | nodos', 'L2 | modelo local | embeddings', 'L3 | agente | enrichments'].join('\n');
    const text = [sentence(4, 'intro'), table, sentence(25, 'after')].join('\n\n');
    const chunks = chunkNode(makeNode('business-rule', 'BR-INDEX-001', [section('Declaración', 'declaration', text)]));
    expect(chunks.map((c) => c.block)).toEqual(['text', 'table', 'text']);
    expect(chunks[1]!.text).toBe(table);
  });

  it('events have no embeddings; their text is still chunked for RAG', () => {
    const event = makeNode('event', 'EVT-Pedido-Creado', [section('Descripción', 'description', sentence(30))]);
    expect(chunkNode(event)).toEqual([]);
    expect(chunkAll(event)).toHaveLength(1);
    expect(chunkAll(event)[0]!.embeddable).toBe(false);
  });

  it('sub-sections inherit the field, get a dotted path and their ancestors as context', () => {
    const uc = makeNode('use-case', 'UC-001', [
      section('Flujo Principal', 'main_flow', 'El flujo completo de indexación de un documento. Tiene varios pasos.'),
      section('Paso 3', 'main_flow', sentence(25, 'extrae'), 3),
      section('Ejemplo', 'main_flow', sentence(21, 'ej'), 3),
      section('Ejemplo', 'main_flow', sentence(21, 'otro'), 3),
    ]);
    const chunks = chunkNode(uc);
    expect(chunks.map((c) => c.section_path)).toEqual(['flujo_principal', 'flujo_principal.paso_3', 'flujo_principal.ejemplo', 'flujo_principal.ejemplo~2']);
    expect(chunks[1]!.context_text).toBe(`[use-case: UC-001] > [Flujo Principal: El flujo completo de indexación de un documento.] > [Paso 3]\n${sentence(25, 'extrae')}`);
    expect(new Set(chunks.map((c) => c.chunk_id)).size).toBe(chunks.length);
  });

  it('splits paragraphs over the limit at sentence boundaries', () => {
    const long = Array.from({ length: 80 }, (_, i) => `Frase número ${i} del párrafo largo con bastante texto.`).join(' ');
    expect(long.length).toBeGreaterThan(2 * MAX_CHARS);
    const chunks = chunkNode(makeNode('entity', 'Long', [section('Descripción', 'description', long)]));
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    for (const chunk of chunks) {
      expect(chunk.text.length).toBeLessThan(MAX_CHARS);
      expect(chunk.text.endsWith('.')).toBe(true);
    }
    expect(chunks.map((c) => c.text).join(' ')).toBe(long);
  });

  it('slugs strip accents and punctuation', () => {
    expect(slug('Qué pasa si se incumple')).toBe('que_pasa_si_se_incumple');
    expect(slug('FA-4: Degradación de nivel L2 → L1')).toBe('fa_4_degradacion_de_nivel_l2_l1');
    expect(slug('🚀')).toBe('section');
  });
});

// ── Properties ─────────────────────────────────────────────────────────────────────────────────
const word = fc.stringMatching(/^[a-záéíóúñ]{1,12}[.,]?$/);
const paragraph = fc.array(word, { minLength: 1, maxLength: 400 }).map((ws) => ws.join(' '));
const list = fc.array(fc.array(word, { minLength: 1, maxLength: 30 }), { minLength: 1, maxLength: 40 }).map((items) => items.map((ws) => `- ${ws.join(' ')}`).join('\n'));
const table = fc.array(fc.array(word, { minLength: 2, maxLength: 4 }), { minLength: 2, maxLength: 80 }).map((rows) => rows.map((cells) => cells.join(' | ')).join('\n'));
const body = fc.array(fc.oneof({ weight: 4, arbitrary: paragraph }, { weight: 1, arbitrary: list }, { weight: 1, arbitrary: table }), { minLength: 0, maxLength: 6 }).map((blocks) => blocks.join('\n\n'));
const headings = ['Descripción', 'Actores', 'Flujo Principal', 'Paso 1', 'Excepciones', 'Notas', 'Descripción'];
const sectionArb = fc.record({
  heading: fc.constantFrom(...headings),
  depth: fc.constantFrom(2, 2, 3),
  field: fc.constantFrom('description', 'main_flow', 'actors', null),
  text: body,
});
const nodeArb = fc.array(sectionArb, { minLength: 0, maxLength: 6 }).map((sections) => makeNode('use-case', 'UC-042', sections));

function bySection(chunks: readonly Chunk[]): Map<string, Chunk[]> {
  const out = new Map<string, Chunk[]>();
  for (const chunk of chunks) out.set(chunk.section_path, [...(out.get(chunk.section_path) ?? []), chunk]);
  return out;
}

describe('chunking properties', () => {
  it('ids are unique and stable; texts non-empty, < 2000 chars; positions 0..n-1; no word lost', () => {
    fc.assert(
      fc.property(nodeArb, (node) => {
        const all = chunkAll(node);
        expect(chunkAll(structuredClone(node))).toEqual(all);
        expect(new Set(all.map((c) => c.chunk_id)).size).toBe(all.length);
        expect(all.map((c) => c.position)).toEqual(all.map((_, i) => i));
        for (const chunk of all) {
          expect(chunk.text.trim()).toBe(chunk.text);
          expect(chunk.text.length).toBeGreaterThan(0);
          expect(chunk.text.length).toBeLessThan(MAX_CHARS);
          expect(chunk.context_text.endsWith(chunk.text)).toBe(true);
        }
        // Sections with text, in order, lose no words (sections are keyed by their unique path).
        const groups = [...bySection(all).values()];
        const withText = node.sections.filter((s) => s.text.trim());
        expect(groups).toHaveLength(withText.length);
        groups.forEach((chunks, index) => {
          expect(chunks.flatMap((c) => words(c.text))).toEqual(words(withText[index]!.text));
          expect(chunks.map((c) => c.chunk_index)).toEqual(chunks.map((_, i) => i));
        });
        const embeddable = chunkNode(node);
        expect(embeddable.map((c) => c.position)).toEqual(embeddable.map((_, i) => i));
        expect(embeddable.map(({ position: _, ...rest }) => rest)).toEqual(all.filter((c) => c.embeddable).map(({ position: _, ...rest }) => rest));
      }),
      { numRuns: 100 },
    );
  });

  it.skipIf(!existsSync(KDD_ENGINE_SPECS))('holds on the kdd-engine corpus: every node chunks within the limits, only embeddable fields embedded', async () => {
    const { graph } = await compile({ specsDir: KDD_ENGINE_SPECS });
    let embedded = 0;
    for (const node of graph.nodes) {
      const all = chunkAll(node);
      expect(new Set(all.map((c) => c.chunk_id)).size).toBe(all.length);
      for (const chunk of all) expect(chunk.text.length).toBeLessThan(MAX_CHARS);
      const chunks = chunkNode(node);
      if (node.kind === 'event') expect(chunks).toEqual([]);
      embedded += chunks.length;
    }
    expect(embedded).toBeGreaterThan(graph.nodes.length / 2);
  });
});
