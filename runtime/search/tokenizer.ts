/**
 * The one tokenizer used at build time and at query time: lower-case, accent folding, Spanish and
 * English stop words, light stemming, CamelCase splitting, and id tokens.
 *
 * Ids (`CMD-004`, `BR-DOCUMENT-001`, `EVT-KDDDocument-Indexed`, `Entity:Pedido`, `UC-001-IndexDocument`)
 * yield the whole id, every shorter leading run of its parts (`uc-001` from `UC-001-IndexDocument`),
 * and each part as an ordinary word (`kdd`, `document`, `indexed` → stemmed).
 */
import { stem } from './stem.js';
import { STOP_WORDS } from './stopwords.js';

/** Lower-case and strip diacritics (`Índice` → `indice`, `ñ` → `n`). */
export function fold(text: string): string {
  // ASCII text is its own NFD form and has no combining marks: only the case changes.
  if (ASCII.test(text)) return text.toLowerCase();
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}
const ASCII = /^[\x00-\x7f]*$/;

// A run of letters/digits joined by - : _ . / (no spaces). Applied to the original (unfolded) text so
// CamelCase is still visible.
export const CHUNK = /[\p{L}\p{N}]+(?:[-:_./][\p{L}\p{N}]+)*/gu;
const CAMEL = /\p{Lu}+(?!\p{Ll})|\p{Lu}?\p{Ll}+|\p{N}+/gu;
// Words CAMEL matches whole (`indice`, `Pedido`, `KDD`, `2024`): most words, answered without
// running the Unicode expression.
const ONE_PIECE = /^(?:[A-Z]?[a-z]+|[A-Z]+|[0-9]+)$/;

/** Splits `KDDDocument` → [KDD, Document], `IndexIncremental` → [Index, Incremental]. */
export function splitCamel(word: string): string[] {
  if (ONE_PIECE.test(word)) return [word];
  return word.match(CAMEL) ?? [word];
}

// Words repeat a lot (build and snippets tokenise the same vocabulary again and again): memoise the
// word → term step. Bounded so a long-lived process does not grow without limit.
const MEMO = new Map<string, string | null>();
const MEMO_MAX = 200_000;

/** Word → index term: folded, stop words dropped, stemmed. Returns null for dropped words. */
export function term(word: string): string | null {
  const cached = MEMO.get(word);
  if (cached !== undefined) return cached;
  const w = fold(word);
  const out = w.length < 2 || STOP_WORDS.has(w) ? null : stem(w);
  if (MEMO.size >= MEMO_MAX) MEMO.clear();
  MEMO.set(word, out);
  return out;
}

const isIdLike = (chunk: string) => /[-:]/.test(chunk) && /[A-Z]/.test(chunk) && /^[A-Za-z]/.test(chunk);

/**
 * Tokens of `text` in order. Id-like chunks add their id tokens (never stemmed) before their parts.
 * Repeats are kept: term frequency matters to BM25.
 */
export function tokenize(text: string, out: string[] = []): string[] {
  for (const m of text.matchAll(CHUNK)) {
    const chunk = m[0];
    const parts = chunk.split(/[-:_./]/).filter(Boolean);
    if (parts.length > 1 && isIdLike(chunk)) {
      const f = fold(chunk).replace(/[_./]/g, '-');
      const fparts = f.split(/[-:]/);
      const sep = f.includes(':') ? ':' : '-';
      // Whole id and its leading runs (`uc-001-indexdocument` → `uc-001`), at least two parts.
      for (let k = 2; k <= fparts.length; k++) out.push(k === fparts.length ? f : fparts.slice(0, k).join(sep === ':' && k === 2 ? ':' : '-'));
      if (sep === ':') out.push(fparts.slice(1).join('-'));
    }
    for (const part of parts) pushWord(part, out);
  }
  return out;
}

/** Tokens of one word (letters and digits only, no joiners): `tokenize(word)` without the search for chunks. */
export function wordTokens(word: string): string[] {
  const out: string[] = [];
  pushWord(word, out);
  return out;
}

function pushWord(part: string, out: string[]): void {
  const pieces = splitCamel(part);
  if (pieces.length > 1) {
    const whole = term(part);
    if (whole) out.push(whole);
    for (const p of pieces) {
      const t = term(p);
      if (t) out.push(t);
    }
    return;
  }
  const t = term(part);
  if (t) out.push(t);
}

/**
 * A cheaper tokenisation for ranking text that is already found (snippets): one fold for the whole
 * text, ASCII word split, memoised terms. No id tokens and no CamelCase split (the joined CamelCase
 * term is still produced, as the full tokenizer also emits it).
 */
export function quickTerms(text: string): string[] {
  const out: string[] = [];
  for (const word of fold(text).split(/[^a-z0-9]+/)) {
    if (word.length < 2) continue;
    const t = term(word);
    if (t) out.push(t);
  }
  return out;
}
