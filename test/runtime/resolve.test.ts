import { describe, expect, it } from 'vitest';
import { resolveNodeRef, resolveNodeRefs } from '../../runtime/queries/resolve.js';
import { makeIndex } from '../helpers/make-index.js';

const index = makeIndex([
  { id: 'UC:UC-005', title: 'MergeTeamIndexes', source_file: '02-behavior/use-cases/UC-005-MergeTeamIndexes.md' },
  { id: 'CMD:CMD-004', title: 'MergeIndexes', aliases: ['kdd merge'], source_file: '02-behavior/commands/CMD-004-MergeIndexes.md' },
  { id: 'Entity:Tombstone', title: 'Tombstone', source_file: '01-domain/entities/Tombstone.md' },
  { id: 'Entity:Pedido', title: 'Pedido', aliases: ['order'], source_file: '01-domain/entities/Pedido.md' },
  { id: 'Entity:Order', title: 'Order', source_file: '01-domain/entities/Order.md' },
]);

describe('resolveNodeRef', () => {
  it('keeps a node id as it is', () => {
    expect(resolveNodeRef(index, 'UC:UC-005')).toBe('UC:UC-005');
    expect(resolveNodeRef(index, '  Entity:Tombstone ')).toBe('Entity:Tombstone');
  });

  it('resolves a document id, a title or an alias, ignoring case', () => {
    expect(resolveNodeRef(index, 'UC-005')).toBe('UC:UC-005');
    expect(resolveNodeRef(index, 'uc-005')).toBe('UC:UC-005');
    expect(resolveNodeRef(index, 'Tombstone')).toBe('Entity:Tombstone');
    expect(resolveNodeRef(index, 'kdd merge')).toBe('CMD:CMD-004');
    expect(resolveNodeRef(index, 'CMD-004')).toBe('CMD:CMD-004');
  });

  it('resolves a source path, with or without the specs folder', () => {
    expect(resolveNodeRef(index, 'specs/01-domain/entities/Tombstone.md')).toBe('Entity:Tombstone');
    expect(resolveNodeRef(index, '02-behavior/commands/CMD-004-MergeIndexes.md')).toBe('CMD:CMD-004');
  });

  it('prefers the node whose doc id is the reference when a key is shared', () => {
    // "order" is Pedido's alias and Order's doc id.
    expect(resolveNodeRef(index, 'Order')).toBe('Entity:Order');
  });

  it('returns an unknown reference unchanged (the query then says NODE_NOT_FOUND)', () => {
    expect(resolveNodeRef(index, 'Entity:Nope')).toBe('Entity:Nope');
    expect(resolveNodeRef(index, 'nothing-like-this')).toBe('nothing-like-this');
    expect(resolveNodeRef(index, '')).toBe('');
  });

  it('maps a list', () => {
    expect(resolveNodeRefs(index, ['UC-005', 'Entity:Nope'])).toEqual(['UC:UC-005', 'Entity:Nope']);
  });
});
