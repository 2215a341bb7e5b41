import { Packr } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { buildTextIndex, restoreTextIndex } from '../../../runtime/search/index.js';
import { makeTextNode } from './_random-index.js';

const nodes = [
  makeTextNode('BR:BR-PEDIDO-001', 'business-rule', '01-domain', 'Precio final del pedido', [['declaration', 'El precio final de un pedido se calcula con impuestos.']]),
  makeTextNode('CMD:CMD-001', 'command', '02-behavior', 'CrearPedido', [['purpose', 'Crear un pedido nuevo.'], ['postconditions', 'Se emite EVT-Pedido-Creado.']]),
  makeTextNode('Entity:Pedido', 'entity', '01-domain', 'Pedido', [['description', 'Un pedido de un cliente.'], ['invariants', 'El precio nunca es negativo.']]),
  makeTextNode('UC:UC-001', 'use-case', '02-behavior', 'Checkout', [['description', 'The customer confirms the order and the price.']]),
];
const packr = () => new Packr({ useRecords: false, variableMapSize: true });

describe('buildTextIndex', () => {
  it('is deterministic: same nodes, deep-equal data and equal bytes', () => {
    const a = buildTextIndex(nodes);
    const b = buildTextIndex(structuredClone(nodes));
    expect(a).toEqual(b);
    expect(Buffer.from(packr().pack(a)).equals(Buffer.from(packr().pack(b)))).toBe(true);
  });

  it('holds only msgpack-safe values (no Map, Set or non-Uint8Array typed arrays)', () => {
    const data = buildTextIndex(nodes) as unknown as Record<string, unknown>;
    for (const value of Object.values(data)) {
      expect(value instanceof Map || value instanceof Set).toBe(false);
      if (ArrayBuffer.isView(value)) expect(value).toBeInstanceOf(Uint8Array);
    }
  });
});

describe('restoreTextIndex', () => {
  it('answers the same after a msgpack round trip', () => {
    const data = buildTextIndex(nodes);
    const direct = restoreTextIndex(data, nodes);
    const restored = restoreTextIndex(packr().unpack(packr().pack(data)), nodes);
    for (const q of ['pedido', 'precio final', 'CMD-001', 'order price']) expect(restored.search(q)).toEqual(direct.search(q));
  });

  it('ranks a title match above a body-only match', () => {
    const text = restoreTextIndex(buildTextIndex(nodes), nodes);
    const hits = text.search('checkout');
    expect(hits[0]?.node).toBe(3);
    expect(text.search('precio final')[0]?.node).toBe(0);
  });

  it('finds an id as a whole token', () => {
    const text = restoreTextIndex(buildTextIndex(nodes), nodes);
    expect(text.search('EVT-Pedido-Creado')[0]?.node).toBe(1);
  });

  it('looks nodes up by id, doc id, title, alias and file name', () => {
    const text = restoreTextIndex(buildTextIndex(nodes), nodes);
    expect(text.lookup('CMD-001')).toEqual([1]);
    expect(text.lookup('entity:pedido')).toEqual([2]);
    expect(text.lookup('crearpedido')).toEqual([1]);
    expect(text.lookup('nothing')).toEqual([]);
  });

  it('rejects data of another format and a node count that does not match', () => {
    expect(() => restoreTextIndex({ format: 'orama' }, nodes)).toThrow(/format/);
    expect(() => restoreTextIndex(buildTextIndex(nodes), nodes.slice(1))).toThrow(/nodes/);
  });
});

describe('aliases', () => {
  const vet = { ...makeTextNode('Entity:Veterinarian', 'entity', '01-domain', 'Veterinarian', [['description', 'Treats the animals.']]), aliases: ['Doctor', 'Vet surgeon'] };
  const rule = makeTextNode('BR:BR-SLOT-001', 'business-rule', '01-domain', 'Appointment overlap', [['declaration', 'A doctor never has two appointments in one slot.']]);
  const both = [vet, rule];

  it('are indexed with the title, and each is an exact key of its node', () => {
    const text = restoreTextIndex(buildTextIndex(both), both);
    expect(text.fieldsOf('doctor', 0)).toEqual(['title']);
    expect(text.fieldsOf('doctor', 1)).toEqual(['primary']);
    expect(text.lookup('doctor')).toEqual([0]);
    expect(text.lookup('vet surgeon')).toEqual([0]);
  });
});
