/**
 * `kdd mcp` (#5): the tools of {@link TOOLS} and one resource template (`kdd://node/{id}`) over
 * MCP stdio. Only `cli/commands/mcp.ts` imports this module, lazily: the SDK (express, hono, zod…)
 * never loads with the library or the runtime.
 *
 * stdout is the protocol channel: every log line goes to stderr. The bundle hot-swaps like
 * `kdd serve` (same {@link createBundleHolder}); each tool call grabs the current bundle once.
 * Failures come back as tool errors (`isError: true`) whose text is `{"error":{"code","message"}}`.
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { resolve } from 'node:path';
import { createError, toKddError } from '../runtime/errors.js';
import { createBundleHolder, type BundleHolder, type BundleHolderOptions } from './bundle-holder.js';
import { nodeSummary, TOOLS, type ToolContext } from './mcp-tools.js';
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
}

const INSTRUCTIONS = [
  'kdd indexes the KDD specifications of this project (entities, business rules, commands, use cases, events, requirements, BDD features) as a graph.',
  'Before implementing a task call kdd_context with the task description; before editing files call kdd_hints with the paths and names involved;',
  'before changing a spec call kdd_impact. Ids look like Entity:Pedido, UC:UC-001, BR:BR-PEDIDO-001; kdd_find_spec turns names and file names into ids.',
].join(' ');

export async function createMcpServer(options: McpOptions): Promise<{ server: McpServer; holder: BundleHolder; close(): Promise<void> }> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const specs: SpecReader | null = options.specsRoot ? await createSpecReader(options.specsRoot) : null;
  const holder = createBundleHolder({ ...options.holder, dir: resolve(options.dir), log });
  const server = new McpServer({ name: 'kdd', version: options.version ?? '0.1.0' }, {
    instructions: INSTRUCTIONS,
    // Arguments are flat; a cap on elements keeps a hostile call from making validation expensive.
    maxToolInputElements: 1000,
  });

  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.input, annotations: { readOnlyHint: true, openWorldHint: false } },
      async (args: Record<string, unknown>): Promise<CallToolResult> => {
        try {
          const ctx: ToolContext = { loaded: holder.require(), specs };
          const result = await tool.run(ctx, args ?? {});
          return { content: [{ type: 'text', text: JSON.stringify(result) }] };
        } catch (error) {
          const kdd = toKddError(error);
          if (kdd.code === 'INTERNAL_ERROR') log(`kdd mcp: ${tool.name} failed: ${kdd.message.replace(/\s+/g, ' ')}`);
          return { isError: true, content: [{ type: 'text', text: JSON.stringify(kdd.toJSON()) }] };
        }
      },
    );
  }

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
