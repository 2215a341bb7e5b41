/**
 * Measures Orama 3.1.18 save()/load() through msgpack at 1k and 10k synthetic docs (~150 words,
 * 5 string fields), sort disabled, no vectors: the number behind docs/decisions/search-engine.md.
 * Run: npx tsx bench/eval/orama-load.ts
 */
import { create, insertMultiple, load, save, search } from '@orama/orama';
import { Packr } from 'msgpackr';

const WORDS = 'index document entity rule command query event merge layer graph node edge search embedding incremental conflict delete update hybrid semantic lexical token budget manifest bundle domain agent context impact coverage violation regla comando evento fusión capa índice búsqueda impacto documento entidad consulta'.split(' ');
let seed = 7;
const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const text = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(rnd() * WORDS.length)]! + (rnd() < 0.3 ? String(Math.floor(rnd() * 500)) : '')).join(' ');

async function run(n: number) {
  const schema = { nid: 'string', title: 'string', kind: 'string', primary: 'string', body: 'string' } as const;
  const db = create({ schema, sort: { enabled: false } });
  const docs = Array.from({ length: n }, (_, i) => ({ nid: `CMD-${i}`, title: text(4), kind: 'command', primary: text(40), body: text(110) }));
  await insertMultiple(db, docs);
  const packr = new Packr({ useRecords: false, variableMapSize: true });
  const bytes = packr.pack(save(db));
  const times: number[] = [];
  for (let r = 0; r < 3; r++) {
    const t0 = performance.now();
    const raw = new Packr({ useRecords: false, variableMapSize: true }).unpack(bytes);
    const db2 = create({ schema, sort: { enabled: false } });
    load(db2, raw);
    times.push(performance.now() - t0);
    if (r === 0) search(db2, { term: 'merge conflict' });
  }
  console.log(`orama n=${n} bytes=${(bytes.length / 1e6).toFixed(1)}MB unpack+load ms=${times.map((t) => t.toFixed(0)).join('/')}`);
}
await run(1000);
await run(10000);
