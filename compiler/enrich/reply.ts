/**
 * The agent's reply → a checked enrichment body (UC-003 step 6, EX-3). Hand-written validation:
 * the shape is three fields, and a schema library would be a dependency for ~80 lines.
 *
 * Strict on the shape (not an object, no summary ⇒ AGENT_ERROR), lenient per item: a relation
 * with an unknown type, a target that is not a node, or a bad confidence is dropped with a
 * warning and the rest is kept. Every string is trimmed, stripped of control characters and capped.
 */
import { IMPLICIT_RELATION_TYPES, type ImplicitRelationType } from '../../model/enrichment.js';
import type { ImplicitRelation } from './artifact.js';
import { compareCodeUnits } from '../../model/order.js';

export interface EnrichmentBody {
  summary: string;
  implicit_relations: ImplicitRelation[];
  impact_notes: string[];
}

export type ReplyCheck = { ok: true; body: EnrichmentBody; warnings: string[] } | { ok: false; reason: string };

const MAX_SUMMARY = 2_000;
const MAX_EVIDENCE = 500;
const MAX_NOTE = 500;
const MAX_RELATIONS = 20;
const MAX_NOTES = 10;

/**
 * Finds the JSON object in an agent's text: the whole text, a ```json fence, the `result` string of
 * a `claude -p --output-format json` envelope, or the span from the first `{` to the last `}`.
 */
export function extractJson(text: string): unknown {
  const attempts = [text.trim()];
  const fence = /```(?:json)?\s*\n([\s\S]*?)```/.exec(text);
  if (fence) attempts.push(fence[1]!.trim());
  const first = text.indexOf('{');
  const last = text.lastIndexOf('}');
  if (first >= 0 && last > first) attempts.push(text.slice(first, last + 1));
  for (const attempt of attempts) {
    try {
      const value: unknown = JSON.parse(attempt);
      if (isRecord(value) && typeof value.result === 'string' && !('summary' in value)) return extractJson(value.result);
      return value;
    } catch {
      // try the next shape
    }
  }
  throw new SyntaxError('the reply holds no JSON object');
}

/**
 * @param nodeId the enriched node (a relation to itself is dropped)
 * @param exists whether a node id is in the index (relations to anything else are dropped)
 */
export function checkReply(value: unknown, nodeId: string, exists: (id: string) => boolean): ReplyCheck {
  if (!isRecord(value)) return { ok: false, reason: 'the reply is not a JSON object' };
  const summary = clean(value.summary, MAX_SUMMARY);
  if (!summary) return { ok: false, reason: 'the reply has no "summary" string' };
  if (value.implicit_relations !== undefined && !Array.isArray(value.implicit_relations)) return { ok: false, reason: '"implicit_relations" is not a list' };
  if (value.impact_notes !== undefined && !Array.isArray(value.impact_notes)) return { ok: false, reason: '"impact_notes" is not a list' };
  const warnings: string[] = [];
  const relations = new Map<string, ImplicitRelation>();
  for (const [i, raw] of ((value.implicit_relations as unknown[] | undefined) ?? []).entries()) {
    const relation = checkRelation(raw, nodeId, exists);
    if (typeof relation === 'string') {
      warnings.push(`relation ${i + 1} dropped: ${relation}`);
      continue;
    }
    const key = `${relation.target}\u0000${relation.relation_type}`;
    const old = relations.get(key);
    if (!old || old.confidence < relation.confidence) relations.set(key, relation);
  }
  const sorted = [...relations.values()].sort((a, b) => compareCodeUnits(a.target, b.target) || compareCodeUnits(a.relation_type, b.relation_type));
  if (sorted.length > MAX_RELATIONS) warnings.push(`${sorted.length - MAX_RELATIONS} relations over the limit of ${MAX_RELATIONS} dropped`);
  const notes = ((value.impact_notes as unknown[] | undefined) ?? []).map((note) => clean(note, MAX_NOTE)).filter((note): note is string => Boolean(note));
  return { ok: true, body: { summary, implicit_relations: sorted.slice(0, MAX_RELATIONS), impact_notes: notes.slice(0, MAX_NOTES) }, warnings };
}

function checkRelation(raw: unknown, nodeId: string, exists: (id: string) => boolean): ImplicitRelation | string {
  if (!isRecord(raw)) return 'not an object';
  const target = clean(raw.target, 300);
  if (!target) return 'no target';
  const type = typeof raw.relation_type === 'string' ? raw.relation_type.trim().toLowerCase().replace(/[\s-]+/g, '_') : '';
  if (!(IMPLICIT_RELATION_TYPES as readonly string[]).includes(type)) return `unknown relation type ${JSON.stringify(raw.relation_type)}`;
  if (target === nodeId) return 'a relation to the node itself';
  if (!exists(target)) return `target ${JSON.stringify(target)} is not a node of the index`;
  const confidence = typeof raw.confidence === 'string' ? Number(raw.confidence) : raw.confidence;
  if (typeof confidence !== 'number' || !(confidence >= 0 && confidence <= 1)) return `confidence ${JSON.stringify(raw.confidence)} is not a number from 0 to 1`;
  const evidence = clean(raw.evidence, MAX_EVIDENCE);
  if (!evidence) return 'no evidence sentence';
  return { target, relation_type: type as ImplicitRelationType, confidence: Math.round(confidence * 100) / 100, evidence };
}

/** Trimmed, control characters removed, capped (with an ellipsis); null when not a usable string. */
function clean(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return null;
  // eslint-disable-next-line no-control-regex
  const text = value.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '').trim();
  if (text === '') return null;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
