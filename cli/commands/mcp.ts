/**
 * `kdd mcp [DIR=dist] [--specs-root DIR]`: the MCP server on stdio. The MCP SDK is imported here,
 * lazily, and nowhere else (the library and the runtime never load it).
 */
import { resolve } from 'node:path';
import { parseFlags, UsageError, type Command } from '../command.js';

export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'MCP server on stdio (tools: kdd_context, kdd_search, kdd_impact, …) for AI agents',
  usage: 'kdd mcp [DIR=dist] [--specs-root DIR] [--models-dir DIR]',
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, { 'specs-root': { type: 'string' }, 'models-dir': { type: 'string' } });
    if (positionals.length > 1) throw new UsageError(`unexpected argument '${positionals[1]}'`);
    const { runMcpStdio } = await import('../../server/mcp.js');
    await runMcpStdio({
      dir: resolve(io.cwd, positionals[0] ?? 'dist'),
      specsRoot: values['specs-root'] ? resolve(io.cwd, values['specs-root']) : null,
      // At L2 text queries embed the question with the bundle's model from this store (default $KDD_MODELS_DIR).
      vectors: { modelsDir: values['models-dir'] ? resolve(io.cwd, values['models-dir']) : undefined },
      // stdout carries the protocol: logs must go to stderr.
      log: (line) => io.stderr(`${line}\n`),
    });
    return 0;
  },
};
