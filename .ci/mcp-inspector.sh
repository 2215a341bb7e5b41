#!/usr/bin/env bash
# `npm run check:mcp-inspector`: drives `kdd mcp` with the official MCP Inspector in CLI mode (a
# client we did not write), on a bundle of test/fixtures/kinds, and checks what an agent relies
# on: every tool lists an inputSchema and an outputSchema, answers carry structuredContent and a
# Markdown text block, short node references resolve, and a bad argument is a typed tool error.
# Needs the npm registry (npx fetches the pinned Inspector once); `npm ci` must have built build/.
set -euo pipefail
cd "$(dirname "$0")/.."

INSPECTOR='@modelcontextprotocol/inspector@2.12.0'
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export MCP_CATALOG_PATH="$work/catalog.json" # the Inspector's own catalog, kept out of $HOME

node build/cli/main.js build test/fixtures/kinds --out "$work/dist" --index-dir "$work/index" --level L1 >/dev/null
inspect() { npx --yes "$INSPECTOR" --cli node build/cli/main.js mcp "$work/dist" --specs-root test/fixtures/kinds "$@" 2>/dev/null; }

inspect --method tools/list >"$work/tools.json"
inspect --method tools/call --tool-name kdd_context --tool-arg 'query_text=crear pedido' >"$work/context.json"
inspect --method tools/call --tool-name kdd_impact --tool-arg node_id=UC-001 >"$work/impact.json"
inspect --method tools/call --tool-name kdd_related --tool-arg node_id=Entity:Pedido --tool-arg depth=9 >"$work/bad.json" || true

node --input-type=module - "$work" <<'JS'
import { readFileSync } from 'node:fs';
const dir = process.argv[2];
const read = (name) => JSON.parse(readFileSync(`${dir}/${name}.json`, 'utf8'));
const fail = (why) => { console.error(`mcp-inspector check: ${why}`); process.exit(1); };

const { tools } = read('tools');
if (tools.length < 13) fail(`expected 13 tools, got ${tools.length}`);
for (const tool of tools) {
  if (tool.inputSchema?.type !== 'object' || tool.outputSchema?.type !== 'object') fail(`${tool.name} lacks an input or output schema`);
  if (!/Example|Use |use it|call it|Start here|Cheap/i.test(tool.description)) fail(`${tool.name}: the description does not say when to use it`);
}
const context = read('context');
if (!context.structuredContent?.results?.length) fail('kdd_context: no structuredContent results');
const text = context.content[0].text;
for (const hit of context.structuredContent.results) if (!text.includes(hit.node_id) || !text.includes(hit.source_file)) fail(`kdd_context: the Markdown block misses ${hit.node_id}`);
if (read('impact').structuredContent?.analyzed_node?.id !== 'UC:UC-001') fail('kdd_impact: UC-001 did not resolve to UC:UC-001');
const bad = read('bad');
if (!bad.isError || JSON.parse(bad.content[0].text).error.code !== 'INVALID_DEPTH') fail(`depth 9: expected a tool error INVALID_DEPTH, got ${JSON.stringify(bad).slice(0, 200)}`);
console.log(`mcp-inspector check: ${tools.length} tools with input and output schemas; structured answers, Markdown text, reference resolution and typed errors as expected`);
JS
