import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detachStrings } from '../../compiler/kinds/detach.js';

describe('detachStrings', () => {
  it('leaves every value as it was, in place (short and long strings, nested lists and objects, bytes)', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.string({ maxLength: 40 }), fc.string({ minLength: 1000, maxLength: 1100 }), fc.integer(), fc.boolean(), fc.constant(null), tie('list'), tie('object')),
      list: fc.array(tie('value'), { maxLength: 4 }),
      object: fc.dictionary(fc.string({ maxLength: 8 }), tie('value'), { maxKeys: 4 }),
    })).object;
    fc.assert(
      fc.property(json, (object) => {
        const before = JSON.stringify(object);
        expect(detachStrings(object)).toBe(object);
        expect(JSON.stringify(object)).toBe(before);
      }),
    );
    const bytes = new Uint8Array([1, 2, 3]);
    const holder = { bytes, text: 'a title cut from a longer text'.slice(2, 20) };
    detachStrings(holder);
    expect(holder.bytes).toBe(bytes);
    expect(holder.text).toBe('title cut from a l');
  });
});
