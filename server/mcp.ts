/**
 * `kdd mcp` (#5): the tools of {@link TOOLS} and one resource template (`kdd://node/{id}`) over
 * MCP stdio. Only `cli/commands/mcp.ts` imports this module, lazily: the SDK (express, hono…)
 * never loads with the library or the runtime.
 *
 * Tools are served with the SDK's low-level request handlers rather than `registerTool`, whose
 * schemas must be zod objects: ours are the registry's JSON Schemas, sent as they are, and the
 * arguments are validated by the queries themselves, so a bad argument gets the same typed error
 * code here as at every other door (not an SDK validation message).
 *
 * stdout is the protocol channel: every log line goes to stderr. The bundle hot-swaps like
 * `kdd serve` (same {@link createBundleHolder}); each tool call grabs the current bundle once.
 * Answers carry `structuredContent` (matching the tool's `outputSchema`) and a Markdown text
 * block; failures come back as tool errors (`isError: true`) whose text is `{"error":{"code","message"}}`.
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { resolve } from 'node:path';
import { createQueryVectors, type QueryVectorOptions } from '../library/query-vectors.js';
import { createError, toKddError } from '../model/errors.js';
import { nodeSummary } from '../runtime/queries/lookup.js';
import { createBundleHolder, type BundleHolder, type BundleHolderOptions } from './bundle-holder.js';
import { TOOLS, type ToolContext } from './mcp-tools.js';
import { createSpecReader, type SpecReader } from './spec-files.js';

export interface McpOptions {
  /** Folder with `kdd.json` (e.g. `dist`). */
  dir: string;
  /** Specs tree for raw-file reads in `kdd_read_section`; absent: index sections only. */
  specsRoot?: string | null;
  log?: (line: string) => void;
  holder?: Omit<BundleHolderOptions, 'dir' | 'log'>;
  /** Reported in `initialize`. */
  version?: string;
  /** How text queries are embedded at L2 (`embedder`, `modelsDir`: library/query-vectors.ts). */
  vectors?: QueryVectorOptions;
}

/** Most elements (array items and object members) one call's arguments may hold: parameters are flat. */
const MAX_INPUT_ELEMENTS = 1000;

const INSTRUCTIONS = [
  'kdd indexes the KDD specifications of this project (entities, business rules, commands, use cases, events, requirements, BDD features) as a graph.',
  'Before implementing a task call kdd_context with the task description; before editing files call kdd_hints with the paths and names involved;',
  'before changing a spec call kdd_impact. Ids look like Entity:Pedido, UC:UC-001, BR:BR-PEDIDO-001; every tool also accepts a document id, title or file name that names one spec, and kdd_find_spec shows what a name resolves to.',
].join(' ');

export async function createMcpServer(options: McpOptions): Promise<{ server: McpServer; holder: BundleHolder; close(): Promise<void> }> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const specs: SpecReader | null = options.specsRoot ? await createSpecReader(options.specsRoot) : null;
  const holder = createBundleHolder({ ...options.holder, dir: resolve(options.dir), log });
  const vectors = createQueryVectors(options.vectors);
  const server = new McpServer({ name: 'kdd', version: options.version ?? '0.1.0' }, { instructions: INSTRUCTIONS });

  const tools: Tool[] = TOOLS.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema as Tool['inputSchema'],
    outputSchema: tool.outputSchema as Tool['outputSchema'],
    annotations: { readOnlyHint: true, openWorldHint: false },
  }));
  server.server.registerCapabilities({ tools: {} });
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = TOOLS.find((candidate) => candidate.name === request.params.name);
    try {
      if (!tool) throw createError('INVALID_PARAMS', { field: 'name', reason: `no tool '${request.params.name}' (tools: ${TOOLS.map((t) => t.name).join(', ')})` });
      const args = request.params.arguments ?? {};
      if (countElements(args) > MAX_INPUT_ELEMENTS) throw createError('INVALID_PARAMS', { field: 'arguments', reason: `hold more than ${MAX_INPUT_ELEMENTS} elements` });
      const ctx: ToolContext = { loaded: holder.require(), specs, vectors };
      const { structured, text } = await tool.run(ctx, args);
      return { content: [{ type: 'text', text }], structuredContent: structured };
    } catch (error) {
      const kdd = toKddError(error);
      if (kdd.code === 'INTERNAL_ERROR') log(`kdd mcp: ${request.params.name} failed: ${kdd.message.replace(/\s+/g, ' ')}`);
      return { isError: true, content: [{ type: 'text', text: JSON.stringify(kdd.toJSON()) }] };
    }
  });

  server.registerResource(
    'kdd-node',
    new ResourceTemplate('kdd://node/{id}', {
      list: () => {
        const loaded = holder.current();
        const nodes = loaded?.index.bundle.nodes ?? [];
        return {
          resources: nodes.map((node) => ({
            uri: `kdd://node/${encodeURIComponent(node.id)}`,
            name: node.id,
            title: node.title,
            description: `${node.kind} in ${node.layer} (${node.source_file})`,
            mimeType: 'application/json',
          })),
        };
      },
    }),
    { title: 'KDD spec node', description: 'One spec node as JSON: id, kind, layer, title, aliases, indexed_fields, section texts.', mimeType: 'application/json' },
    (uri, variables) => {
      const raw = Array.isArray(variables.id) ? variables.id[0] : variables.id;
      const id = decodeURIComponent(String(raw ?? ''));
      const { index } = holder.require();
      const at = index.nodeIndex.get(id);
      if (at === undefined) throw createError('NODE_NOT_FOUND', { node_id: id });
      const node = index.bundle.nodes[at]!;
      const body = { ...nodeSummary(node), sections: node.sections.map(({ heading, field, text }) => ({ heading, field, text })) };
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(body) }] };
    },
  );

  // Answer the first call from a loaded bundle, not a 503 race with the initial load.
  await holder.ready;
  return {
    server,
    holder,
    async close() {
      holder.close();
      await server.close();
      await vectors.close();
    },
  };
}

/** Serves MCP on stdin/stdout until the client disconnects or the process is signalled. */
export async function runMcpStdio(options: McpOptions): Promise<void> {
  const mcp = await createMcpServer(options);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((done) => {
    transport.onclose = done;
    process.stdin.once('end', done);
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  await mcp.server.connect(transport);
  await closed;
  await mcp.close();
}

/** Array items and object members in `value`, counted without recursion, stopping past the cap. */
function countElements(value: unknown): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && count <= MAX_INPUT_ELEMENTS) {
    const item = stack.pop();
    if (item === null || typeof item !== 'object') continue;
    const children = Array.isArray(item) ? item : Object.values(item);
    count += children.length;
    stack.push(...children.slice(0, MAX_INPUT_ELEMENTS + 1));
  }
  return count;
}
