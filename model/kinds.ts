/**
 * The kind table: every piece of per-kind knowledge in one place (ARCHITECTURE "The kind table").
 *
 * - `prefix`: the node id prefix (`Entity:Pedido`, `UC:UC-001`), from the GraphNode spec.
 * - `idPattern`: recognises a document id of this kind inside a link target (`CMD-004-MergeIndex` → `CMD-004`).
 * - `folders`: where BR-DOCUMENT-001 expects the kind (a mismatch is a warning, front-matter wins).
 * - `layer`: the layer used when the path does not name one.
 * - `sections`: canonical field → heading aliases (Spanish v1 and English v2), `embed` per BR-EMBEDDING-001,
 *   and `shape` telling the generic extractor how to read the section body.
 * - `edges`: which typed edges a wiki-link produces, by section field and target kind (PRD edge table).
 *   Every resolved link also yields a `WIKI_LINK` edge; these rules add the structural type on top.
 * - `coverage`: the related artefacts KDD governance expects (QRY-005, `kdd coverage` and `kdd check`).
 * - `hints`: where the kind ranks among the context amplifier's items, and which fields are its content (QRY-007).
 * - `intent`: the query words that ask for the kind (search ranks it up, QRY-003).
 * - `label`: how sentences name the kind when its name does not read well capitalised (`UI view`).
 *
 * Adding a kind or a heading alias is one line here. The compiler and the queries both read this
 * table, so it is isomorphic: no Node-only imports.
 */
import { KINDS, type Kind, type Layer, type StructuralEdgeType } from './graph.js';

/** How a section's body is turned into an indexed field. */
export type SectionShape =
  | 'text' // prose, kept as plain text
  | 'list' // bullet / numbered items → string[]
  | 'table' // first table → row objects keyed by normalised header
  | 'state_machine' // mermaid stateDiagram → { states, transitions }
  | 'flow'; // numbered steps (use-case flows, process steps) → string[]

export interface SectionSpec {
  /** Canonical field name in `indexed_fields`. */
  field: string;
  /** Heading texts that name this section, any language; compared after normalisation. */
  headings: readonly string[];
  shape: SectionShape;
  /** Whether BR-EMBEDDING-001 embeds the paragraphs of this section. */
  embed?: boolean;
}

export interface EdgeRule {
  type: StructuralEdgeType;
  /** Section fields where a link produces this edge; omitted = anywhere in the document. */
  in?: readonly string[];
  /** Target kinds that qualify; omitted = any kind. */
  to?: readonly Kind[];
}

/** One related artefact that KDD governance expects of a kind (QRY-005). */
export interface CoverageRule {
  /** snake_case name of the expectation (`events`, `business_rules`). */
  category: string;
  description: string;
  /** The edge that proves the relation. `WIKI_LINK` means any link between the two counts. */
  edge_type: StructuralEdgeType;
  /** `out`: the analysed node points at the artefact; `in`: the artefact points at the node. */
  direction: 'in' | 'out';
  /** Kinds of artefact that satisfy the expectation. */
  kinds: readonly Kind[];
}

/** A kind's place in the context amplifier's answer (QRY-007). */
export interface HintsSpec {
  /** 0 = hard constraint (rules, policies) … 5; kinds without one rank {@link OTHER_PRIORITY}. */
  priority: number;
  /** Fields, in order, whose non-empty values make up an item's content (else its first sections). */
  content?: readonly string[];
}

/** Words (es/en) that ask for a kind in a query. */
export interface IntentSpec {
  /** Any one of these words asks for the kind. */
  words?: readonly string[];
  /** Two-word names (`use case`): both words must appear. */
  pairs?: readonly (readonly [string, string])[];
}

export interface KindSpec {
  kind: Kind;
  prefix: string;
  idPattern?: RegExp;
  folders: readonly string[];
  layer: Layer;
  sections: readonly SectionSpec[];
  edges: readonly EdgeRule[];
  /** Absent: coverage answers UNKNOWN_KIND and `kdd check` has nothing to expect. */
  coverage?: readonly CoverageRule[];
  hints?: HintsSpec;
  intent?: IntentSpec;
  label?: string;
}

/** Hint priorities up to this one are constraints; the rest is behaviour. */
export const CONSTRAINT_MAX_PRIORITY = 2;
/** The priority of kinds whose row has no `hints`: after every kind that has one. */
export const OTHER_PRIORITY = 6;

// Section vocabularies shared by several kinds. Each alias list mixes v1 (es) and v2 (en) headings.
const description: SectionSpec = {
  field: 'description',
  headings: ['Descripción', 'Description', 'Resumen', 'Summary', 'Overview'],
  shape: 'text',
  embed: true,
};
const purpose: SectionSpec = { field: 'purpose', headings: ['Purpose', 'Propósito', 'Objetivo del comando'], shape: 'text', embed: true };
const inputParams: SectionSpec = { field: 'input_params', headings: ['Input', 'Entrada', 'Parámetros de entrada', 'Inputs', 'Parameters'], shape: 'table' };
const preconditions: SectionSpec = { field: 'preconditions', headings: ['Preconditions', 'Precondiciones'], shape: 'list' };
const postconditions: SectionSpec = { field: 'postconditions', headings: ['Postconditions', 'Postcondiciones'], shape: 'list' };
const errors: SectionSpec = { field: 'errors', headings: ['Possible Errors', 'Errores Posibles', 'Errores', 'Errors'], shape: 'table' };
const examples: SectionSpec = { field: 'examples', headings: ['Ejemplos', 'Examples', 'Example', 'Ejemplo'], shape: 'text' };
const events: SectionSpec = { field: 'events', headings: ['Eventos', 'Events', 'Eventos Emitidos', 'Events Emitted', 'Eventos del ciclo de vida'], shape: 'list' };
const consumedEvents: SectionSpec = { field: 'consumed_events', headings: ['Eventos Consumidos', 'Events Consumed', 'Consumed Events', 'Subscribes To'], shape: 'list' };
const declaration: SectionSpec = { field: 'declaration', headings: ['Declaración', 'Statement', 'Declaration'], shape: 'text', embed: true };
const whenApplies: SectionSpec = { field: 'when_applies', headings: ['Cuándo aplica', 'When Applies', 'When it applies'], shape: 'text' };
const violation: SectionSpec = { field: 'violation', headings: ['Qué pasa si se incumple', 'Violation Behavior', 'Violation', 'Violación'], shape: 'text' };
const rationale: SectionSpec = { field: 'rationale', headings: ['Por qué existe', 'Rationale', 'Justificación', 'Why it exists'], shape: 'text' };
const parameters: SectionSpec = { field: 'parameters', headings: ['Parámetros', 'Parameters'], shape: 'table' };
const formalization: SectionSpec = { field: 'formalization', headings: ['Formalización', 'Formalization'], shape: 'text' };
const traceability: SectionSpec = { field: 'traceability', headings: ['Trazabilidad', 'Traceability', 'Traceability Matrix', 'Matriz de Trazabilidad'], shape: 'list' };
const acceptance: SectionSpec = { field: 'acceptance_criteria', headings: ['Criterios de Aceptación', 'Acceptance Criteria', 'Requirements Summary', 'Exit Criteria', 'Criterios de Salida'], shape: 'list' };
const objectiveText: SectionSpec = { field: 'objective', headings: ['Objetivo', 'Objective', 'Goal', 'Meta'], shape: 'text', embed: true };
const scope: SectionSpec = { field: 'scope', headings: ['Alcance', 'Scope', 'Scope (end-to-end)'], shape: 'text' };
const dependencies: SectionSpec = { field: 'dependencies', headings: ['Dependencias', 'Dependencies', 'Risks / Dependencies'], shape: 'list' };
const metrics: SectionSpec = { field: 'metrics', headings: ['Métricas', 'Metrics', 'Success Metrics', 'Métricas de éxito', 'Métricas de éxito y telemetría'], shape: 'text' };
const uiStates: SectionSpec = { field: 'states', headings: ['Estados', 'States', 'View States', 'Functional States', 'Estados de la vista'], shape: 'text' };
const behavior: SectionSpec = { field: 'behavior', headings: ['Comportamiento', 'Behavior', 'Behaviour'], shape: 'text', embed: true };

/** The kinds that are domain things (an entity, a role, a system): links to any of them count alike. */
const ENTITY_LIKE: readonly Kind[] = ['entity', 'role', 'system'];
const RULE_KINDS: readonly Kind[] = ['business-rule', 'business-policy', 'cross-policy'];

const RULE_SECTIONS = [declaration, { ...whenApplies, embed: true }, rationale, violation, parameters, formalization, examples];
const RULE_EDGES: readonly EdgeRule[] = [{ type: 'ENTITY_RULE', in: ['declaration'], to: ENTITY_LIKE }];

// Coverage expectations shared by several kinds.
const rule = (category: string, description: string, edge_type: StructuralEdgeType, direction: 'in' | 'out', kinds: readonly Kind[]): CoverageRule => ({
  category,
  description,
  edge_type,
  direction,
  kinds,
});
const tracedBy = rule('requirements', 'Traced by at least one requirement', 'REQ_TRACES_TO', 'in', ['requirement']);
const validatedBy = rule('features', 'Validated by at least one BDD feature', 'VALIDATES', 'in', ['feature']);
const referencedByUseCase = rule('use_cases', 'Referenced by at least one use case', 'WIKI_LINK', 'in', ['use-case']);
const appliedByUseCase = rule('use_cases', 'Applied by at least one use case', 'UC_APPLIES_RULE', 'in', ['use-case']);
const executedByUseCase = rule('use_cases', 'Executed by at least one use case', 'UC_EXECUTES_CMD', 'in', ['use-case']);
const triggersUseCase = rule('use_cases', 'Triggers at least one use case', 'VIEW_TRIGGERS_UC', 'out', ['use-case']);

// Hint content shared by several kinds.
const RULE_CONTENT = ['declaration', 'when_applies', 'violation'];

// Query words shared by several kinds.
const RULE_WORDS = ['rule', 'rules', 'regla', 'reglas', 'norma', 'normas'];
const POLICY_WORDS = ['policy', 'policies', 'politica', 'politicas'];
const REQUIREMENT_WORDS = ['requirement', 'requirements', 'requisito', 'requisitos', 'criteria', 'criterios', 'nfr'];

const entity = (kind: Kind, coverage: readonly CoverageRule[]): KindSpec => ({
  kind,
  prefix: 'Entity',
  folders: ['01-domain/entities'],
  layer: '01-domain',
  sections: [
    description,
    { field: 'attributes', headings: ['Atributos', 'Attributes'], shape: 'table' },
    { field: 'relations', headings: ['Relaciones', 'Relations', 'Relationships'], shape: 'table' },
    { field: 'invariants', headings: ['Invariantes', 'Invariants'], shape: 'list' },
    { field: 'state_machine', headings: ['Ciclo de Vida', 'Lifecycle', 'States', 'Estados', 'Transitions', 'Transiciones', 'State Machine'], shape: 'state_machine' },
    events,
    consumedEvents,
    examples,
  ],
  edges: [
    { type: 'DOMAIN_RELATION', in: ['relations', 'attributes'], to: ENTITY_LIKE },
    { type: 'EMITS', in: ['events', 'state_machine'], to: ['event'] },
    { type: 'CONSUMES', in: ['consumed_events'], to: ['event'] },
  ],
  coverage,
  hints: { priority: 2, content: ['invariants', 'description'] },
  intent: { words: ['entity', 'entities', 'entidad', 'entidades'] },
});

export const KIND_TABLE: readonly KindSpec[] = [
  entity('entity', [
    rule('events', 'At least one domain event', 'EMITS', 'out', ['event']),
    rule('business_rules', 'At least one business rule', 'ENTITY_RULE', 'in', ['business-rule']),
    referencedByUseCase,
    tracedBy,
  ]),
  entity('role', [referencedByUseCase]),
  entity('system', [referencedByUseCase]),
  {
    kind: 'event',
    prefix: 'EVT',
    idPattern: /^EVT-[\w-]+/,
    folders: ['01-domain/events'],
    layer: '01-domain',
    // BR-EMBEDDING-001: events carry no embeddings.
    sections: [
      { ...description, embed: false },
      { field: 'payload', headings: ['Payload', 'Carga'], shape: 'table' },
      { field: 'producer', headings: ['Productor', 'Producer', 'Emitter', 'Emisor'], shape: 'text' },
      { field: 'consumers', headings: ['Consumidores', 'Consumers', 'Subscribers', 'Suscriptores'], shape: 'list' },
      examples,
      { field: 'rules', headings: ['Rules', 'Reglas'], shape: 'list' },
      { field: 'related_events', headings: ['Related Events', 'Eventos Relacionados'], shape: 'list' },
    ],
    edges: [],
    coverage: [rule('producers', 'Emitted by at least one entity, command or process', 'EMITS', 'in', [...ENTITY_LIKE, 'command', 'process'])],
    hints: { priority: 4, content: ['description'] },
    intent: { words: ['event', 'events', 'evento', 'eventos'] },
  },
  {
    kind: 'business-rule',
    prefix: 'BR',
    idPattern: /^BR-[A-Z0-9]+(?:-[A-Z0-9]+)*?-\d{3}|^BR-\d{3}/,
    folders: ['01-domain/rules'],
    layer: '01-domain',
    sections: RULE_SECTIONS,
    edges: RULE_EDGES,
    coverage: [rule('entities', 'Constrains at least one entity', 'ENTITY_RULE', 'out', ENTITY_LIKE), appliedByUseCase, validatedBy],
    hints: { priority: 0, content: RULE_CONTENT },
    intent: { words: RULE_WORDS, pairs: [['business', 'rule']] },
  },
  {
    kind: 'business-policy',
    prefix: 'BP',
    idPattern: /^BP-[A-Z0-9]+(?:-[A-Z0-9]+)*?-\d{3}|^BP-\d{3}/,
    folders: ['02-behavior/policies', '01-domain/rules'],
    layer: '02-behavior',
    sections: [declaration, whenApplies, rationale, violation, parameters, formalization, examples],
    edges: [{ type: 'ENTITY_POLICY', in: ['declaration'], to: ENTITY_LIKE }],
    coverage: [rule('entities', 'Governs at least one entity', 'ENTITY_POLICY', 'out', ENTITY_LIKE), appliedByUseCase],
    hints: { priority: 0, content: RULE_CONTENT },
    intent: { words: [...RULE_WORDS, ...POLICY_WORDS] },
  },
  {
    kind: 'cross-policy',
    prefix: 'XP',
    idPattern: /^XP-[A-Z0-9]+(?:-[A-Z0-9]+)*?-\d{3}|^XP-\d{3}/,
    // Multi-domain trees keep cross-domain policies in `_shared/policies/`.
    folders: ['02-behavior/policies', 'policies'],
    layer: '02-behavior',
    sections: [
      purpose,
      declaration,
      { field: 'formalization_ears', headings: ['Formalización EARS', 'EARS Formalization'], shape: 'text' },
      { field: 'standard_behavior', headings: ['Comportamiento Estándar', 'Standard Behavior'], shape: 'text' },
      examples,
    ],
    edges: [],
    coverage: [appliedByUseCase],
    hints: { priority: 0, content: ['purpose', 'declaration', 'standard_behavior'] },
    intent: { words: [...RULE_WORDS, ...POLICY_WORDS] },
  },
  {
    kind: 'command',
    prefix: 'CMD',
    idPattern: /^CMD-\d{3}/,
    folders: ['02-behavior/commands'],
    layer: '02-behavior',
    sections: [
      purpose,
      inputParams,
      preconditions,
      postconditions,
      { field: 'rules', headings: ['Rules Validated', 'Reglas Validadas', 'Reglas'], shape: 'list' },
      events,
      errors,
    ],
    edges: [{ type: 'EMITS', in: ['postconditions', 'events'], to: ['event'] }],
    coverage: [rule('events', 'Emits at least one event', 'EMITS', 'out', ['event']), executedByUseCase, tracedBy, validatedBy],
    hints: { priority: 3, content: ['purpose', 'preconditions', 'postconditions'] },
    intent: { words: ['command', 'commands', 'comando', 'comandos'] },
  },
  {
    kind: 'query',
    prefix: 'QRY',
    idPattern: /^QRY-\d{3}/,
    folders: ['02-behavior/queries'],
    layer: '02-behavior',
    sections: [
      purpose,
      inputParams,
      { field: 'output_structure', headings: ['Output', 'Salida', 'Resultado'], shape: 'text' },
      { field: 'algorithm', headings: ['Algorithm', 'Algoritmo'], shape: 'flow' },
      { field: 'authorization', headings: ['Authorization', 'Autorización'], shape: 'text' },
      errors,
      examples,
    ],
    edges: [],
    coverage: [executedByUseCase, tracedBy, validatedBy],
    hints: { priority: 3, content: ['purpose'] },
    intent: { words: ['query', 'queries', 'consulta', 'consultas'] },
  },
  {
    kind: 'process',
    prefix: 'PROC',
    idPattern: /^PROC-\d{3}/,
    folders: ['02-behavior/processes'],
    layer: '02-behavior',
    sections: [
      { ...description, embed: false },
      { field: 'mermaid_flow', headings: ['Diagram', 'Diagrama', 'Flujo', 'Flow'], shape: 'text' },
      { field: 'participants', headings: ['Participants', 'Participantes'], shape: 'list', embed: true },
      { field: 'steps', headings: ['Steps', 'Pasos'], shape: 'flow', embed: true },
      { field: 'related_use_cases', headings: ['Related Use Cases', 'Casos de Uso Relacionados'], shape: 'list' },
      events,
      consumedEvents,
      { field: 'integration_points', headings: ['Integration Points', 'Puntos de Integración'], shape: 'list' },
    ],
    edges: [
      { type: 'EMITS', in: ['events'], to: ['event'] },
      { type: 'CONSUMES', in: ['consumed_events'], to: ['event'] },
    ],
    coverage: [
      rule('events', 'Emits or consumes at least one event', 'WIKI_LINK', 'out', ['event']),
      rule('use_cases', 'Orchestrates at least one use case', 'WIKI_LINK', 'out', ['use-case']),
    ],
    hints: { priority: 3, content: ['description', 'steps'] },
    intent: { words: ['process', 'processes', 'proceso', 'procesos'] },
  },
  {
    kind: 'use-case',
    prefix: 'UC',
    idPattern: /^UC-\d{3}/,
    folders: ['02-behavior/use-cases'],
    layer: '02-behavior',
    sections: [
      description,
      { field: 'actors', headings: ['Actores', 'Actors'], shape: 'list' },
      preconditions,
      { field: 'main_flow', headings: ['Flujo Principal', 'Main Flow', 'Main Flow (Happy Path)', 'Happy Path'], shape: 'flow', embed: true },
      { field: 'alternatives', headings: ['Flujos Alternativos', 'Alternative Flows', 'Extensions / Alternative Flows', 'Extensions'], shape: 'text' },
      { field: 'exceptions', headings: ['Excepciones', 'Exceptions'], shape: 'text' },
      postconditions,
      { field: 'rules', headings: ['Reglas Aplicadas', 'Business Rules', 'Rules Applied', 'Applied Rules', 'Reglas de Negocio'], shape: 'list' },
      { field: 'commands', headings: ['Comandos Ejecutados', 'Commands Executed', 'Executed Commands', 'Commands'], shape: 'list' },
    ],
    edges: [
      { type: 'UC_APPLIES_RULE', in: ['rules'], to: ['business-rule', 'business-policy', 'cross-policy'] },
      { type: 'UC_EXECUTES_CMD', in: ['commands'], to: ['command'] },
      { type: 'UC_STORY', to: ['objective'] },
    ],
    coverage: [
      rule('commands', 'Executes at least one command', 'UC_EXECUTES_CMD', 'out', ['command', 'query']),
      rule('business_rules', 'Applies at least one business rule', 'UC_APPLIES_RULE', 'out', RULE_KINDS),
      tracedBy,
      validatedBy,
    ],
    hints: { priority: 3, content: ['description', 'main_flow', 'postconditions'] },
    intent: {
      pairs: [
        ['use', 'case'],
        ['caso', 'uso'],
      ],
    },
  },
  {
    kind: 'ui-view',
    prefix: 'UI',
    idPattern: /^UI-[\w-]+/,
    folders: ['03-experience/views'],
    layer: '03-experience',
    sections: [
      { ...description, headings: [...description.headings, 'Purpose', 'Propósito'] },
      { field: 'navigation', headings: ['Navigation', 'Navegación'], shape: 'text' },
      { field: 'layout', headings: ['Layout', 'Disposición'], shape: 'text' },
      { field: 'components', headings: ['Components', 'Componentes'], shape: 'list' },
      { field: 'data', headings: ['Data', 'Datos'], shape: 'text' },
      uiStates,
      behavior,
    ],
    edges: [
      { type: 'VIEW_TRIGGERS_UC', to: ['use-case'] },
      { type: 'VIEW_USES_COMPONENT', to: ['ui-component'] },
    ],
    coverage: [triggersUseCase],
    intent: { words: ['view', 'views', 'vista', 'vistas', 'screen', 'pantalla'] },
    label: 'UI view',
  },
  {
    kind: 'ui-component',
    prefix: 'UI',
    idPattern: /^UI-[\w-]+/,
    folders: ['03-experience/components', '03-experience/views'],
    layer: '03-experience',
    sections: [
      { ...description, headings: [...description.headings, 'Purpose', 'Propósito'] },
      { field: 'entities', headings: ['Data', 'Datos', 'Entities', 'Entidades'], shape: 'list' },
      { field: 'use_cases', headings: ['Actions', 'Acciones', 'Use Cases', 'Casos de Uso'], shape: 'list' },
      { field: 'structure', headings: ['Structure', 'Estructura'], shape: 'text' },
      uiStates,
      { field: 'variants', headings: ['Variants', 'Variantes'], shape: 'list' },
    ],
    edges: [{ type: 'COMPONENT_USES_ENTITY', to: ENTITY_LIKE }],
    coverage: [
      rule('entities', 'Displays at least one entity', 'COMPONENT_USES_ENTITY', 'out', ENTITY_LIKE),
      rule('views', 'Used by at least one view', 'VIEW_USES_COMPONENT', 'in', ['ui-view']),
    ],
    intent: { words: ['component', 'components', 'componente', 'componentes'] },
    label: 'UI component',
  },
  {
    kind: 'ui-flow',
    prefix: 'UI',
    folders: ['03-experience/flows'],
    layer: '03-experience',
    sections: [
      { ...purpose, field: 'description' },
      { field: 'steps', headings: ['Steps', 'Pasos'], shape: 'flow', embed: true },
      { field: 'decision_points', headings: ['Decision Points', 'Puntos de Decisión'], shape: 'list' },
    ],
    edges: [{ type: 'VIEW_TRIGGERS_UC', to: ['use-case'] }],
    coverage: [triggersUseCase],
    label: 'UI flow',
  },
  {
    kind: 'requirement',
    prefix: 'REQ',
    idPattern: /^REQ-\d{3}/,
    folders: ['04-verification/criteria'],
    layer: '04-verification',
    sections: [description, acceptance, traceability],
    edges: [{ type: 'REQ_TRACES_TO', in: ['traceability'], to: ['use-case', 'business-rule', 'business-policy', 'command', 'query'] }],
    coverage: [rule('traces', 'Traces to at least one use case, rule or command', 'REQ_TRACES_TO', 'out', ['use-case', ...RULE_KINDS, 'command', 'query']), validatedBy],
    hints: { priority: 1, content: ['description', 'acceptance_criteria'] },
    intent: { words: REQUIREMENT_WORDS },
  },
  {
    kind: 'objective',
    prefix: 'OBJ',
    idPattern: /^OBJ-\d{3}/,
    folders: ['00-requirements/objectives'],
    layer: '00-requirements',
    sections: [
      { field: 'actor', headings: ['Actor', 'Actores', 'Actors'], shape: 'text' },
      objectiveText,
      { field: 'success_criteria', headings: ['Criterios de éxito', 'Success Criteria'], shape: 'list' },
    ],
    edges: [],
    coverage: [rule('use_cases', 'Realised by at least one use case', 'UC_STORY', 'in', ['use-case'])],
  },
  {
    kind: 'prd',
    prefix: 'PRD',
    idPattern: /^PRD-[\w-]+/,
    folders: ['00-requirements'],
    layer: '00-requirements',
    sections: [
      { field: 'problem', headings: ['Problema / Oportunidad', 'Problem / Opportunity', 'Problem', 'Problema'], shape: 'text', embed: true },
      { field: 'users', headings: ['Usuarios y Jobs-to-be-done', 'Users and Jobs-to-be-done', 'Users'], shape: 'text' },
      scope,
      metrics,
      dependencies,
      { field: 'acceptance_criteria', headings: ['Criterios de aceptación / Go-Live', 'Acceptance Criteria / Go-Live', 'Acceptance Criteria'], shape: 'list' },
    ],
    edges: [],
    intent: { words: ['prd'] },
    label: 'PRD',
  },
  {
    kind: 'adr',
    prefix: 'ADR',
    idPattern: /^ADR-\d{4}/,
    folders: ['00-requirements/decisions', '05-architecture/decisions'],
    layer: '00-requirements',
    sections: [
      { field: 'context', headings: ['Contexto', 'Context'], shape: 'text', embed: true },
      { field: 'decision', headings: ['Decisión', 'Decision'], shape: 'text', embed: true },
      { field: 'options', headings: ['Options Considered', 'Opciones Consideradas', 'Alternativas'], shape: 'text' },
      { field: 'consequences', headings: ['Consecuencias', 'Consequences'], shape: 'text' },
    ],
    edges: [{ type: 'DECIDES_FOR' }],
    coverage: [rule('decisions', 'Decides for at least one artefact', 'DECIDES_FOR', 'out', KINDS)],
    hints: { priority: 1 },
    intent: { words: ['adr', 'decision', 'decisions', 'decisión', 'decisiones'] },
    label: 'ADR',
  },
  {
    kind: 'value-unit',
    prefix: 'UV',
    idPattern: /^UV-\d{3}/,
    folders: ['00-requirements/value-units'],
    layer: '00-requirements',
    sections: [objectiveText, scope, { field: 'inputs', headings: ['Inputs', 'Entradas'], shape: 'list' }, { field: 'outputs', headings: ['Outputs', 'Salidas'], shape: 'list' }, acceptance, traceability],
    edges: [],
  },
  {
    kind: 'release',
    prefix: 'REL',
    idPattern: /^REL-\d{3}/,
    folders: ['00-requirements/releases'],
    layer: '00-requirements',
    sections: [objectiveText, { field: 'value_units', headings: ['Value Units', 'Unidades de Valor'], shape: 'list' }, scope, dependencies, acceptance, metrics],
    edges: [],
  },
  {
    kind: 'nfr',
    prefix: 'NFR',
    idPattern: /^NFR-[\w-]+/,
    folders: ['00-requirements'],
    layer: '00-requirements',
    sections: [objectiveText, metrics, { field: 'affected_use_cases', headings: ['Affected Use Cases', 'Casos de Uso Afectados'], shape: 'list' }, { field: 'trade_offs', headings: ['Trade-offs', 'Compromisos'], shape: 'text' }],
    edges: [],
    hints: { priority: 1 },
    intent: { words: REQUIREMENT_WORDS },
    label: 'NFR',
  },
  {
    kind: 'glossary',
    prefix: 'GLOSS',
    folders: ['00-requirements', '01-domain'],
    layer: '01-domain',
    sections: [description, { field: 'terms', headings: ['Terms', 'Términos', 'Glossary', 'Glosario'], shape: 'table' }],
    edges: [],
  },
  {
    // Gherkin files have no front-matter: routed by extension. Scenarios are extracted by compiler/parse/gherkin.
    kind: 'feature',
    prefix: 'FEAT',
    folders: ['04-verification/examples', '04-verification/features'],
    layer: '04-verification',
    sections: [{ ...description, embed: false }],
    edges: [{ type: 'VALIDATES', to: ['use-case', 'business-rule', 'business-policy', 'cross-policy', 'command', 'query', 'requirement'] }],
    coverage: [
      rule('validates', 'Validates at least one use case, rule, command or requirement', 'VALIDATES', 'out', ['use-case', ...RULE_KINDS, 'command', 'query', 'requirement']),
    ],
    hints: { priority: 5 },
    intent: { words: ['scenario', 'scenarios', 'escenario', 'escenarios', 'test', 'tests', 'prueba', 'pruebas', 'gherkin', 'feature', 'features'] },
  },
];

const BY_KIND = new Map<Kind, KindSpec>(KIND_TABLE.map((spec) => [spec.kind, spec]));

/** Looks a kind up; undefined for strings the table does not know (→ UNKNOWN_KIND). */
export function kindSpec(kind: string): KindSpec | undefined {
  return BY_KIND.get(kind as Kind);
}

/** How sentences name a kind: its `label`, else its name capitalised (`use-case` → `Use case`). */
export function kindLabel(kind: string): string {
  return kindSpec(kind)?.label ?? kind.replace('-', ' ').replace(/^./, (c) => c.toUpperCase());
}
