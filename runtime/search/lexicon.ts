/**
 * Query-time knowledge of the KDD vocabulary, in Spanish and English:
 * - SYNONYMS: groups of words that name one concept in either language (rule/regla, merge/fusión…),
 *   the KDD vocabulary below plus the general software and business vocabulary of vocabulary.ts.
 *   A query term also matches the other stems of its group, at a lower weight.
 * - IDIOMS: everyday phrasings of a requirement and the concepts they stand for (idioms.ts): "same time"
 *   → overlap, "money back" → refund. A phrasing found in the query adds one concept, weighted lower.
 * - KIND_WORDS: words that say which kind of artefact the user wants ("which rule…" → business rules).
 * Entries are plain words; they go through the same tokenizer as the corpus, so they stay in step
 * with the stemmer. Add a concept by adding one line.
 */
import type { Kind } from '../../model/graph.js';
import { KIND_TABLE } from '../../model/kinds.js';
import { compareCodeUnits } from '../../model/order.js';
import { fold, tokenize } from './tokenizer.js';
import { REQUIREMENT_IDIOMS } from './idioms.js';
import { stem } from './stem.js';
import type { TermAlternative } from './types.js';
import { GENERAL_VOCABULARY } from './vocabulary.js';

const GROUPS: readonly string[] = [
  'rule rules regla reglas norma normas',
  'policy policies politica politicas',
  'command commands comando comandos',
  'event events evento eventos emit emits emitir emite emitted notification notify notificacion notificar aviso',
  'query queries consulta consultas',
  'requirement requirements requisito requisitos criterion criteria criterio criterios',
  'entity entities entidad entidades',
  'layer layers capa capas',
  'index indexes indices indice indexar indexing indexacion indexed indexado',
  'search searching busqueda busquedas buscar retrieve retrieval recuperar recuperacion lookup',
  'merge merging fusion fusionar fusiones mezclar combine combinar',
  'impact impacto impactos affected afectado afectados afecta affect',
  'conflict conflicts conflicto conflictos',
  'delete deletes deleted deletion eliminar eliminado eliminacion borrar borrado remove removed removal',
  'document documents documento documentos doc docs',
  'embedding embeddings vector vectors vectores vectorial',
  'incremental incrementales',
  'change changes changed cambio cambios cambiar modify modified modificar modificado modificacion',
  'graph graphs grafo grafos',
  'node nodes nodo nodos',
  'edge edges arista aristas relation relations relacion relaciones relationship link links enlace enlaces',
  'violation violations violacion violaciones violate viola infraccion',
  'validation validate validar validacion verify verificar verification verificacion check',
  'limit limits limite limites',
  'file files fichero ficheros archivo archivos',
  'folder folders carpeta carpetas directory directorio',
  'server servidor',
  'sync synchronize synchronization sincronizar sincronizacion',
  'enrich enrichment enriquecer enriquecimiento',
  'agent agents agente agentes',
  'performance rendimiento latency latencia fast rapido',
  'storage almacenamiento size tamano disk disco',
  'privacy privacidad private privado',
  'portability portabilidad portable',
  'manifest manifiesto',
  'semantic semantica semantico',
  'hybrid hibrida hibrido',
  'stale obsoleto obsoleta outdated desactualizado',
  'detect detected detection detectar detectado deteccion',
  'parse parsed parsing parsear parseado',
  'level levels nivel niveles',
  'domain domains dominio dominios',
  'scenario scenarios escenario escenarios',
  'test tests testing prueba pruebas',
  'coverage cobertura',
  'fragment fragments fragmento fragmentos chunk chunks',
  'section sections seccion secciones',
  'fail fails failed failure fallo fallar falla error errors',
  'request requested solicitud solicitar peticion',
  'complete completed completar completado completa',
  'create created crear creado creacion new nuevo nueva',
  'update updated actualizar actualizado actualizacion',
  'lifecycle ciclo',
  'state states estado estados status',
  'kind kinds tipo tipos type types',
  'model models modelo modelos',
  'dependency dependencies dependencia dependencias',
  'duplicate duplicates duplicado duplicados',
  'identifier identifiers identificador identificadores',
  'use uso',
  'case cases caso casos',
  'context contexto',
  'result results resultado resultados',
  'score scores puntuacion',
  'author autor',
  'token tokens',
  'strategy estrategia',
  'receive received recibir recibido',
  'offline connection conexion',
  'git repository repositorio commit',
  'push pull',
  'multi multiple multiples varios',
  'user users usuario usuarios developer desarrollador',
  'team teams equipo equipos',
  'load loads loading loaded carga cargar cargado',
  'dangling unresolved colgante colgantes huerfano huerfanos',
  'site sitio web',
  'static estatico estatica',
  'link links enlace enlaces wiki-link',
];

const stems = (words: string) => [...new Set(tokenize(words))];

/** Weight of a translation / same-concept word of the KDD vocabulary, relative to the word typed. */
const KDD_WEIGHT = 0.8;
/**
 * Weight of a word of the general vocabulary: lower, because everyday words have looser senses
 * (`pedido` ↔ `order` also finds every "in order to").
 */
const GENERAL_WEIGHT = 0.6;

// stem → other stem → weight (the largest when two lines link the same pair).
const SYNONYMS = new Map<string, Map<string, number>>();
function addGroups(lines: readonly string[], weight: number): void {
  for (const line of lines) {
    const group = stems(line);
    for (const s of group) {
      let others = SYNONYMS.get(s);
      if (!others) SYNONYMS.set(s, (others = new Map()));
      for (const o of group) if (o !== s && (others.get(o) ?? 0) < weight) others.set(o, weight);
    }
  }
}
addGroups(GROUPS, KDD_WEIGHT);
addGroups(GENERAL_VOCABULARY, GENERAL_WEIGHT);
const ALTERNATIVES = new Map<string, readonly TermAlternative[]>();
for (const [s, others] of SYNONYMS) ALTERNATIVES.set(s, [...others].sort(([a], [b]) => compareCodeUnits(a, b)).map(([term, weight]) => ({ term, weight })));

/**
 * Weight of a concept that an everyday phrasing stands for: below the general vocabulary's, because the
 * phrasing names a related concept, not the same word in other words.
 */
const IDIOM_WEIGHT = 0.5;

/** Stands for up to {@link GAP_WORDS} words in a phrasing ("let … know"). */
const GAP = '…';
const GAP_WORDS = 3;

/** Words of a text as the phrasings are compared: folded, apostrophes dropped ("can't" → cant), stemmed, stop words kept. */
function phraseWords(text: string): string[] {
  return fold(text.replace(/['’]/g, ''))
    .split(/[^a-z0-9…]+/)
    .filter(Boolean)
    .map((w) => (w === GAP ? GAP : stem(w)));
}

interface Phrasing {
  /** As written in idioms.ts (what `why` reports). */
  text: string;
  words: readonly string[];
  /** Its entry in {@link REQUIREMENT_IDIOMS}. */
  entry: number;
}
// First word → the phrasings that start with it.
const PHRASINGS = new Map<string, Phrasing[]>();
REQUIREMENT_IDIOMS.forEach(({ en, es }, entry) => {
  for (const text of [...en, ...es]) {
    const words = phraseWords(text);
    const list = PHRASINGS.get(words[0]!) ?? [];
    list.push({ text, words, entry });
    PHRASINGS.set(words[0]!, list);
  }
});

// Entry → what its phrasings stand for, made when one of them first matches: a query meets a few
// entries of the table, and a one-shot process (`kdd context`) would otherwise pay for all of them
// at start-up.
const CONCEPTS = new Map<number, readonly TermAlternative[]>();
/**
 * The concepts of an entry at {@link IDIOM_WEIGHT}, then their translations and same-concept words
 * (`overlap` → `solapamiento`…) at that weight times theirs, best first, each term once.
 */
function entryConcepts(entry: number): readonly TermAlternative[] {
  let alternatives = CONCEPTS.get(entry);
  if (alternatives) return alternatives;
  const best = new Map<string, number>();
  for (const concept of stems(REQUIREMENT_IDIOMS[entry]!.means)) {
    best.set(concept, IDIOM_WEIGHT);
    for (const alt of alternativesOf(concept)) best.set(alt.term, Math.max(best.get(alt.term) ?? 0, IDIOM_WEIGHT * alt.weight));
  }
  alternatives = [...best].map(([term, weight]) => ({ term, weight })).sort((a, b) => b.weight - a.weight || compareCodeUnits(a.term, b.term));
  CONCEPTS.set(entry, alternatives);
  return alternatives;
}

/** End (exclusive) of `words` matched from `at` on, or -1. */
function matchAt(query: readonly string[], at: number, words: readonly string[]): number {
  let i = at;
  for (let k = 0; k < words.length; k++) {
    if (words[k] === GAP) {
      // The shortest gap after which the rest matches.
      for (let skip = 0; skip <= GAP_WORDS && i + skip <= query.length; skip++) {
        const end = matchAt(query, i + skip, words.slice(k + 1));
        if (end >= 0) return end;
      }
      return -1;
    }
    if (query[i] !== words[k]) return -1;
    i++;
  }
  return i;
}

/**
 * Concepts the query's everyday phrasings stand for, one group each (its best concept word counts), at
 * {@link IDIOM_WEIGHT}, each alternative marked with the phrasing (`from`). A phrasing inside a longer
 * one that matched is left out ("at once" in "all at once"); concept words already in `covered` (the
 * query's words and their translations) are too.
 */
export function idiomGroups(text: string, covered: ReadonlySet<string>): TermAlternative[][] {
  const query = phraseWords(text.replaceAll(GAP, ' '));
  const found: { start: number; end: number; phrasing: Phrasing }[] = [];
  query.forEach((word, start) => {
    for (const phrasing of PHRASINGS.get(word) ?? []) {
      const end = matchAt(query, start, phrasing.words);
      if (end > start) found.push({ start, end, phrasing });
    }
  });
  found.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const kept: typeof found = [];
  for (const m of found) if (!kept.some((k) => k.start <= m.start && m.end <= k.end && k.end - k.start > m.end - m.start)) kept.push(m);
  kept.sort((a, b) => a.start - b.start);
  const groups: TermAlternative[][] = [];
  const used = new Set(covered);
  for (const { phrasing } of kept) {
    const group: TermAlternative[] = [];
    for (const { term, weight } of entryConcepts(phrasing.entry)) if (!used.has(term)) used.add(term), group.push({ term, weight, from: phrasing.text });
    if (group.length > 0) groups.push(group);
  }
  return groups;
}

// The words that ask for each kind are the kind table's `intent` (model/kinds.ts); stemmed here.
const KIND_BY_STEM = new Map<string, Kind[]>();
for (const { kind, intent } of KIND_TABLE) for (const s of stems((intent?.words ?? []).join(' '))) KIND_BY_STEM.set(s, [...(KIND_BY_STEM.get(s) ?? []), kind]);
const PAIRS = KIND_TABLE.flatMap(({ kind, intent }) => (intent?.pairs ?? []).map(([a, b]) => [stems(a)[0]!, stems(b)[0]!, [kind]] as const));

/** Other-language / same-concept stems of a stem (sorted), or an empty list. */
export function synonymsOf(stem: string): readonly string[] {
  return (ALTERNATIVES.get(stem) ?? []).map((alt) => alt.term);
}

/** {@link synonymsOf} with the weight each one carries in a query (sorted by term). */
export function alternativesOf(stem: string): readonly TermAlternative[] {
  return ALTERNATIVES.get(stem) ?? [];
}

// A how-to question ("how do I…", "cómo se…", "steps to…") that names no kind asks for the behaviour
// that does it: use cases, commands, processes and the UI flows that walk a user through its steps.
// "how" and "cómo" are stop words, so this reads the text itself. "How" before a word of degree ("how
// long", "how many", "how much", "how often"…) asks for a quantity, which a rule or an entity states,
// not for steps (Spanish asks those with "cuánto", never with "cómo").
const HOW_TO = /^\s*(?:¿\s*)?(?:how\b(?!\s+(?:long|many|much|often|far|soon|old|big|large|small|fast|late|early)\b)|c[oó]mo\b|steps\b|pasos\b)/iu;
const HOW_TO_KINDS: readonly Kind[] = ['use-case', 'command', 'process', 'ui-flow'];

/** The query stems that name a kind ("entity", "regla", both words of "business rule"). */
export function kindWords(queryStems: readonly string[]): Set<string> {
  const present = new Set(queryStems);
  const out = new Set(queryStems.filter((s) => KIND_BY_STEM.has(s)));
  for (const [a, b] of PAIRS) if (present.has(a) && present.has(b)) out.add(a).add(b);
  return out;
}

/** Kinds the query asks for by name ("which rule…", "casos de uso de…"), or by asking how ("how do I…"). */
export function kindIntent(queryStems: readonly string[], text = ''): Set<Kind> {
  const out = new Set<Kind>();
  const present = new Set(queryStems);
  for (const s of queryStems) for (const k of KIND_BY_STEM.get(s) ?? []) out.add(k);
  for (const [a, b, kinds] of PAIRS) if (present.has(a) && present.has(b)) for (const k of kinds) out.add(k);
  if (out.size === 0 && HOW_TO.test(text)) for (const k of HOW_TO_KINDS) out.add(k);
  return out;
}
