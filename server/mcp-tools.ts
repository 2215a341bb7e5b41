/**
 * The MCP tools of `kdd mcp`, derived from the query registry (runtime/queries/registry.ts): each
 * query with an MCP door becomes a tool whose `inputSchema` is its parameters, whose
 * `outputSchema` is its answer, and whose description is its summary, when to use it and an
 * example. A call is answered by {@link answerQuery} (the same preparation, query vector and
 * validation as every other door) and returned twice: as `structuredContent` (the answer, as
 * HTTP and `--json` give it) and as compact Markdown written for a model to read (mcp-markdown.ts).
 * No SDK import here, so the table is testable in-process.
 */
import { answerQuery, type QueryVectors } from '../library/query-vectors.js';
import type { JsonSchema } from '../runtime/param-spec.js';
import { inputSchema, QUERY_LIST, type QueryDef, type QueryName } from '../runtime/queries/registry.js';
import type { SpecSource } from '../runtime/queries/lookup.js';
import type { LoadedBundle } from './bundle-holder.js';
import { markdownOf } from './mcp-markdown.js';

export interface ToolContext {
  /** The bundle of this call (grabbed once, like an HTTP request). */
  loaded: LoadedBundle;
  /** Present when the server was started with `--specs-root`. */
  specs: SpecSource | null;
  vectors: QueryVectors;
}

export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  run(ctx: ToolContext, args: Record<string, unknown>): Promise<{ structured: Record<string, unknown>; text: string }>;
}

function toolOf(def: QueryDef, name: string): ToolSpec {
  const example = def.example ? ` Example: ${JSON.stringify(def.example)}.` : '';
  return {
    name,
    title: def.title,
    description: `${def.summary} ${def.guidance}${example}`,
    inputSchema: inputSchema(def),
    outputSchema: def.result,
    async run({ loaded, specs, vectors }, args) {
      const env = { now: new Date(), specs, loaded: { file: loaded.file, loadedAt: loaded.loadedAt } };
      const name = def.name as QueryName;
      const result = await answerQuery(name, loaded.index, args, vectors, env);
      // Every answer is a JSON object (its outputSchema says which).
      return { structured: result as unknown as Record<string, unknown>, text: markdownOf(name, result) };
    },
  };
}

/** Every tool, in registry order. */
export const TOOLS: readonly ToolSpec[] = QUERY_LIST.flatMap((def) => (def.doors.mcp ? [toolOf(def, def.doors.mcp)] : []));
