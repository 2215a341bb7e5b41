/**
 * Mermaid state diagrams → states and transitions. Entity specs draw their life cycle as a
 * `stateDiagram-v2` block; the entity extractor indexes it as a state machine, and the `EVT-…`
 * named in a transition label links the event to the entity.
 */
import { findIdReferences } from './wiki-links.js';

export interface StateTransition {
  from: string;
  to: string;
  /** The `EVT-…` id named in the label, if any. */
  event: string | null;
  label: string | null;
}

export interface StateDiagram {
  /** Declared or used states in order of first appearance; the pseudo-state `[*]` is left out. */
  states: string[];
  /** Transitions in source order; start and end keep the pseudo-state `[*]`. */
  transitions: StateTransition[];
}

/** The pseudo-state that marks start and end. */
const TERMINAL = '[*]';
/** A state id as Mermaid writes it, `[*]` included; an optional `:::cssClass` suffix is dropped. */
const STATE = String.raw`(\[\*\]|[^\s:\-{}"][^\s:{}"]*?)(?::::[\w-]+)?`;
const TRANSITION = new RegExp(String.raw`^${STATE}\s*-->\s*${STATE}\s*(?::\s*(.*))?$`);
const ALIAS = /^state\s+"[^"]*"\s+as\s+([^\s{:]+)/;
const DECLARATION = /^state\s+([^\s{:"]+)/;
const DESCRIPTION = /^([^\s:]+)\s*:\s*\S/;
/** Lines that shape the drawing but name no state. */
const SKIPPED = /^(?:direction\b|classDef\b|class\b|style\b|click\b|accTitle\b|accDescr\b|--$|}$)/;

/**
 * The diagram type named by a Mermaid block (`stateDiagram-v2`, `flowchart`, `sequenceDiagram`…),
 * or null for an empty block. Init directives, comments and a YAML config header are skipped.
 */
export function mermaidKind(code: string): string | null {
  const first = meaningfulLines(code)[0];
  return first ? first.split(/\s+/)[0]! : null;
}

/** States and transitions of a `stateDiagram` / `stateDiagram-v2` block; null for other diagrams. */
export function parseStateDiagram(code: string): StateDiagram | null {
  const lines = meaningfulLines(code);
  const kind = lines[0]?.split(/\s+/)[0];
  if (kind !== 'stateDiagram' && kind !== 'stateDiagram-v2') return null;

  const states = new Set<string>();
  const transitions: StateTransition[] = [];
  const see = (state: string) => {
    if (state !== TERMINAL) states.add(state);
  };
  let inNote = false;
  for (const line of lines.slice(1)) {
    // Multi-line notes (`note right of X` … `end note`) are prose about a state, not structure.
    if (inNote) {
      inNote = !/^end\s+note$/.test(line);
      continue;
    }
    if (/^note\b/.test(line)) {
      inNote = !line.includes(':');
      continue;
    }
    if (SKIPPED.test(line)) continue;

    const transition = TRANSITION.exec(line);
    if (transition) {
      const [, from, to, rawLabel] = transition as unknown as [string, string, string, string | undefined];
      const label = rawLabel?.trim() || null;
      see(from);
      see(to);
      transitions.push({ from, to, event: eventIn(label), label });
      continue;
    }
    const declared = ALIAS.exec(line) ?? DECLARATION.exec(line) ?? DESCRIPTION.exec(line);
    if (declared) see(declared[1]!);
  }
  return { states: [...states], transitions };
}

function eventIn(label: string | null): string | null {
  if (!label) return null;
  return findIdReferences(label).find((id) => id.startsWith('EVT-')) ?? null;
}

/** Trimmed lines without blanks, `%%` comments, `%%{init}%%` directives or a leading `---` config block. */
function meaningfulLines(code: string): string[] {
  const lines = code.split(/\r?\n/).map((line) => line.trim());
  if (lines[0] === '---') {
    const end = lines.indexOf('---', 1);
    if (end !== -1) lines.splice(0, end + 1);
  }
  return lines.filter((line) => line !== '' && !line.startsWith('%%'));
}
