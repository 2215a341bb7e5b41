/**
 * Product (English) steps for the CLI features: build-index, incremental-build, merge-indexes,
 * query-cli, embedding-models, enrich. Everything runs `kdd …` in-process on a copy of this
 * repository's own `specs/` tree (or a git clone of it).
 *
 * A command or flag the CLI does not have yet (usage error "Unknown option"/"unknown command")
 * stops the scenario as pending, naming what is missing; any other difference fails it.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { expect } from 'vitest';
import { defineStep } from '../runner.js';
import { buildUsage, describeEdges, expectEventShape, tinyModelStore, vectorBytes } from '../support.js';
import { REPO_ROOT, splitArgs, type World } from '../world.js';

const FIXED_DATE = '2025-03-14T09:00:00Z';

// ── Running the CLI ────────────────────────────────────────────────────────────────────────

function commandFile(name: string): string {
  return existsSync(join(REPO_ROOT, `cli/commands/${name}.ts`)) ? `cli/commands/${name}.ts` : 'cli/commands/query-commands.ts';
}

/** Runs `kdd …`; a missing command or option stops the scenario as pending. */
export async function kdd(world: World, command: string, options: { cwd?: string } = {}) {
  const args = splitArgs(command).slice(command.startsWith('kdd') ? 1 : 0);
  const run = await world.kdd(args, options);
  if (run.code === 2) {
    const option = /Unknown option '([^']+)'/.exec(run.stderr)?.[1];
    if (option) world.stop(`\`kdd ${args[0]}\` has no ${option} option (${commandFile(args[0]!)})`);
    if (/unknown command/.test(run.stderr)) world.stop(`\`kdd ${args[0]}\` is not a command (not in cli/main.ts COMMANDS)`);
  }
  return run;
}

defineStep(/^I run "(kdd [^"]+)"$/, async (world, command) => {
  await kdd(world, command);
});

defineStep(/^the exit code is (\d+)$/, (world, code) => {
  const run = world.last!;
  expect(run.code, `exit code of "kdd ${run.argv.join(' ')}"\nstderr: ${run.stderr.slice(0, 1500)}`).toBe(Number(code));
});

defineStep(/^the exit code is not 0$/, (world) => {
  expect(world.last!.code, `exit code of "kdd ${world.last!.argv.join(' ')}"`).not.toBe(0);
});

defineStep(/^(stdout|stderr) contains "(.*)"$/, (world, stream, text) => {
  const run = world.last!;
  expect(stream === 'stdout' ? run.stdout : run.stderr, `${stream} of "kdd ${run.argv.join(' ')}"`).toContain(text);
});

defineStep(/^(stdout|stderr) is "(.*)"$/, (world, stream, text) => {
  const run = world.last!;
  expect((stream === 'stdout' ? run.stdout : run.stderr).trim(), `${stream} of "kdd ${run.argv.join(' ')}"`).toBe(text);
});

// ── Trees ──────────────────────────────────────────────────────────────────────────────────

defineStep(/^a working copy of this repository's "specs\/" tree in a temporary (folder|git repository)$/, async (world, what) => {
  await world.copyRepoSpecs();
  await world.write('.gitignore', 'dist/\nmodels/\n');
  if (what === 'git repository') {
    await world.gitInit();
    await world.commitAll('specs', { date: FIXED_DATE });
  }
});

defineStep(/^no embedding model is configured$/, async (world) => {
  await world.write('models/.keep', '');
  world.setEnv('KDD_MODELS_DIR', world.path('models'));
  world.setEnv('KDD_MODEL_PATH', undefined);
});

defineStep(/^the working copy is a git repository with every file committed$/, async (world) => {
  await world.gitInit();
  await world.commitAll('specs', { date: FIXED_DATE });
});

defineStep(/^I ran "kdd build specs\/"(?: on this repository)?(?: at level L1)?(?: and every file is committed)?$/, async (world) => {
  if (!world.exists('specs')) await world.copyRepoSpecs();
  const run = await kdd(world, 'kdd build specs/');
  expect(run.code, run.stderr).toBe(0);
  if (world.step!.text.includes('every file is committed')) {
    if (!world.exists('.git')) await world.gitInit();
    await world.commitAll('index', { date: FIXED_DATE });
  }
});

defineStep(/^"dist\/kdd\.json" names the published bundle$/, async (world) => {
  const pointer = await world.readJson<{ bundle: string }>('dist/kdd.json');
  expect(world.exists(`dist/${pointer.bundle}`)).toBe(true);
});

// ── Files ──────────────────────────────────────────────────────────────────────────────────

defineStep(/^the file "([^"]+)" exists(?: with "([^"]+)" equal to "([^"]+)")?$/, async (world, path, field, value) => {
  expect(world.exists(path), `${path} exists`).toBe(true);
  if (field) expect((await world.readJson(path))[field], `${field} in ${path}`).toBe(value);
});

defineStep(/^there is no file "([^"]+)"$/, (world, path) => {
  expect(world.exists(path), `${path} exists`).toBe(false);
});

defineStep(/^the folder "([^"]+)" (?:is empty or absent|does not exist)$/, async (world, path) => {
  if (!world.exists(path)) return;
  const entries = await readdir(world.path(path));
  expect(world.step!.text.includes('empty or absent') ? entries : ['(folder exists)'], `${path}`).toEqual([]);
});

/** A line of `.kdd-index/edges/edges.jsonl` (formats/index-dir/edges.ts). */
interface EdgeJson {
  from: string;
  to: string;
  type: string;
}

async function jsonl<T>(world: World, path: string): Promise<T[]> {
  return (await world.read(path))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as T);
}

defineStep(/^"([^"]+\.jsonl)" contains an edge from "([^"]+)" to "([^"]+)" of type "([^"]+)"$/, async (world, path, from, to, type) => {
  const edges = await jsonl<EdgeJson>(world, path);
  const around = edges.filter((e) => e.from === from).map((e) => ({ from_node: e.from, to_node: e.to, edge_type: e.type }));
  expect(edges.some((e) => e.from === from && e.to === to && e.type === type), `edge ${from} -${type}-> ${to}; edges from ${from}:\n${describeEdges(around as never)}`).toBe(true);
});

defineStep(/^"([^"]+\.json)" has "([^"]+)" equal to "([^"]+)" and "([^"]+)" equal to null$/, async (world, path, a, va, b) => {
  const json = await world.readJson(path);
  expect(json[a], `${a} in ${path}`).toBe(va);
  expect(json[b], `${b} in ${path}`).toBeNull();
});

defineStep(/^"([^"]+\.json)" has "([^"]+)" equal to "([^"]+)"$/, async (world, path, field, value) => {
  expect((await world.readJson(path))[field], `${field} in ${path}`).toBe(value);
});

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name))).sort();
}

defineStep(/^"stats\.nodes" in the manifest equals the number of "\.md" and "\.feature" files under "specs\/"$/, async (world) => {
  const files = (await listFiles(world.path('specs'))).filter((f) => f.endsWith('.md') || f.endsWith('.feature'));
  const manifest = await world.readJson<{ stats: { nodes: number } }>('.kdd-index/manifest.json');
  expect(manifest.stats.nodes).toBe(files.length);
});

defineStep(/^"dist\/kdd\.json" names a file "dist\/kdd-<12 hex>\.msgpack" whose SHA-256 starts with those 12 hex$/, async (world) => {
  const { bundle } = await world.readJson<{ bundle: string }>('dist/kdd.json');
  const hex = /^kdd-([0-9a-f]{12})\.msgpack$/.exec(bundle)?.[1];
  expect(hex, `bundle name ${bundle}`).toBeDefined();
  const digest = createHash('sha256').update(await readFile(world.path('dist', bundle))).digest('hex');
  expect(digest.startsWith(hex!), `sha256 ${digest} of ${bundle}`).toBe(true);
});

// ── Determinism ────────────────────────────────────────────────────────────────────────────

/** Artifacts only: `.cache/` holds local, git-ignored build caches, not part of the index. */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const files = (await listFiles(dir)).filter((f) => !f.startsWith('.cache/'));
  return new Map(await Promise.all(files.map(async (f) => [f, createHash('sha256').update(await readFile(join(dir, f))).digest('hex')] as [string, string])));
}

defineStep(/^I ran "(kdd build specs\/ --full)" and noted the bundle name from "dist\/kdd\.json"$/, async (world, command) => {
  const run = await kdd(world, command);
  expect(run.code, run.stderr).toBe(0);
  world.vars.bundleName = (await world.readJson<{ bundle: string }>('dist/kdd.json')).bundle;
  world.vars.indexSnapshot = await snapshot(world.path('.kdd-index'));
});

defineStep(/^I delete "\.kdd-index\/" and run "(kdd build specs\/ --full)" again$/, async (world, command) => {
  await rm(world.path('.kdd-index'), { recursive: true, force: true });
  const run = await kdd(world, command);
  expect(run.code, run.stderr).toBe(0);
});

defineStep(/^"dist\/kdd\.json" names the same bundle file$/, async (world) => {
  expect((await world.readJson<{ bundle: string }>('dist/kdd.json')).bundle).toBe(world.vars.bundleName);
});

defineStep(/^every file under "\.kdd-index\/" is byte-identical to the first build$/, async (world) => {
  expect(Object.fromEntries(await snapshot(world.path('.kdd-index')))).toEqual(Object.fromEntries(world.vars.indexSnapshot as Map<string, string>));
});

defineStep(/^no file under "\.kdd-index\/" contains the current year's wall-clock time of the build or the temporary folder's absolute path$/, async (world) => {
  const today = new Date().toISOString().slice(0, 10);
  for (const file of await listFiles(world.path('.kdd-index'))) {
    const text = await world.read(`.kdd-index/${file}`);
    expect(text.includes(today), `${file} contains today's date ${today}`).toBe(false);
    expect(text.includes(world.root), `${file} contains the temp folder path`).toBe(false);
  }
});

// ── Build warnings, levels, violations ─────────────────────────────────────────────────────

defineStep(/^the file "([^"]+)" contains front-matter "([^"]+)" followed by the line "([^"]+)"$/, async (world, path, first, second) => {
  await world.write(path, `---\n${first}\n${second}\n---\n# Broken\n\n## Description\n\nBroken front-matter.\n`);
});

defineStep(/^the environment variable "([A-Z_]+)" points to an empty folder$/, async (world, name) => {
  await world.write('empty-models/.keep', '');
  world.setEnv(name, world.path('empty-models'));
  world.setEnv('KDD_MODELS_DIR', world.path('empty-models'));
});

defineStep(/^the line "([^"]+)" is appended to "([^"]+)"$/, async (world, line, path) => {
  await world.write(path, `${await world.read(path)}\n${line}\n`);
});

defineStep(/^stdout has a row with (.+)$/, (world, list) => {
  const cells = [...list.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
  const rows = world.last!.stdout.split('\n').map((line) => line.trim().split(/\s{2,}/));
  expect(rows.some((row) => cells.every((cell, i) => row[i] === cell)), `a row ${cells.join(' | ')} in:\n${world.last!.stdout}`).toBe(true);
});

// ── Incremental ────────────────────────────────────────────────────────────────────────────

defineStep(/^I change the title of "([^"]+)" to "([^"]+)"$/, async (world, path, title) => {
  const text = await world.read(path);
  world.vars.indexSnapshot = await snapshot(world.path('.kdd-index'));
  await world.write(path, text.replace(/^# .*$/m, `# ${title}`));
});

/** `changes.reindexed` → report.changes.reindexed */
const at = (json: Record<string, unknown>, path: string): unknown => path.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], json);

defineStep(/^the JSON report has "([^"]+)" equal to "([^"]+)", (\d+) files? in "([^"]+)" and (\d+) in "([^"]+)"$/, (world, field, value, n1, list1, n2, list2) => {
  const report = world.lastJson();
  expect(report[field], field).toBe(value);
  expect(at(report, list1), list1).toHaveLength(Number(n1));
  expect(at(report, list2), list2).toHaveLength(Number(n2));
});

defineStep(/^the JSON report has (\d+) files? in "([^"]+)"$/, (world, n, list) => {
  expect(at(world.lastJson(), list), list).toHaveLength(Number(n));
});

type EventJson = { event: string; payload: Record<string, unknown> };

defineStep(/^the JSON report's events are (.+)$/, (world, list) => {
  const names = [...list.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
  const events = world.lastJson<{ events: EventJson[] }>().events;
  expect(events.map((e) => e.event), 'events of the build report').toEqual(names);
  for (const e of events) expectEventShape(e.event, e.payload);
});

defineStep(/^the JSON report has an? "([^"]+)" event for "([^"]+)"$/, (world, name, nodeId) => {
  const events = world.lastJson<{ events: EventJson[] }>().events;
  const event = events.find((e) => e.event === name && e.payload.node_id === nodeId);
  expect(event, `${name} for ${nodeId} among ${events.map((e) => e.event).join(', ')}`).toBeDefined();
  expectEventShape(name, event!.payload);
});

defineStep(/^only (.+) changed under "\.kdd-index\/"$/, async (world, list) => {
  const allowed = [...list.matchAll(/"\.kdd-index\/([^"]+)"/g)].map((m) => m[1]!);
  const before = world.vars.indexSnapshot as Map<string, string>;
  const after = await snapshot(world.path('.kdd-index'));
  const changed = [...new Set([...before.keys(), ...after.keys()])].filter((f) => before.get(f) !== after.get(f)).sort();
  expect(changed.filter((f) => !allowed.includes(f)), `files changed besides ${allowed.join(', ')}`).toEqual([]);
  expect(changed, 'the changed node file').toContain(allowed[0]);
});

defineStep(/^the published bundle name equals the one from "(kdd build specs\/ --full)" in a fresh copy of the same tree$/, async (world, command) => {
  const mine = (await world.readJson<{ bundle: string }>('dist/kdd.json')).bundle;
  const fresh = world.path('fresh');
  const { cp } = await import('node:fs/promises');
  await cp(world.path('specs'), join(fresh, 'specs'), { recursive: true });
  await cp(world.path('.git'), join(fresh, '.git'), { recursive: true });
  const run = await world.kdd(splitArgs(command).slice(1), { cwd: fresh });
  expect(run.code, run.stderr).toBe(0);
  expect((await world.readJson<{ bundle: string }>('dist/kdd.json', fresh)).bundle, 'bundle of a full build of the same tree').toBe(mine);
});

// Time limits are not asserted (bench/ measures them): the timing is recorded.
defineStep(/^the command took at most (\d+) ms when the benchmark corpus of (\d+) documents is used instead$/, (world, ms) => {
  world.timings[`limit ${ms}ms (bench)`] = world.last!.ms;
});

defineStep(/^I delete "([^"]+)" and commit at "([^"]+)"$/, async (world, path, date) => {
  await rm(world.path(path));
  await world.commitAll(`delete ${path}`, { date });
});

defineStep(/^"\.kdd-index\/tombstones\.jsonl" lists a tombstone with "node_id" "([^"]+)" and "deleted_at" "([^"]+)"$/, async (world, id, when) => {
  const file = await jsonl<{ node_id: string; deleted_at: string }>(world, '.kdd-index/tombstones.jsonl');
  const t = file.find((x) => x.node_id === id);
  expect(t, `tombstone of ${id} in .kdd-index/tombstones.jsonl: ${JSON.stringify(file)}`).toBeDefined();
  expect(t!.deleted_at).toBe(new Date(when).toISOString());
});

defineStep(/^"(kdd health --json)" lists a dangling link from "([^"]+)" with target "([^"]+)"$/, async (world, command, from, target) => {
  const run = await kdd(world, command);
  expect(run.code, run.stderr).toBe(0);
  const dangling = (JSON.parse(run.stdout) as { dangling: { from_node: string; target: string }[] }).dangling;
  expect(dangling.some((d) => d.from_node === from && d.target.includes(target)), `dangling links: ${JSON.stringify(dangling)}`).toBe(true);
});

defineStep(/^I commit a change to "([^"]+)" outside "specs\/"$/, async (world, path) => {
  world.vars.manifestBefore = await world.read('.kdd-index/manifest.json');
  await world.write(path, `Outside the specs: ${path}\n`);
  await world.commitAll(`edit ${path}`, { date: '2025-03-14T12:00:00Z' });
});

defineStep(/^"\.kdd-index\/manifest\.json" is unchanged$/, async (world) => {
  expect(await world.read('.kdd-index/manifest.json'), 'manifest.json after the build').toBe(world.vars.manifestBefore);
});

defineStep(/^the commit contains "([^"]+)"$/, async (world, path) => {
  const files = await world.git(['show', '--name-only', '--format=', 'HEAD']);
  expect(String(files).split('\n'), 'files of the last commit').toContain(path);
});

defineStep(/^I run "(kdd hook install)" twice$/, async (world, command) => {
  for (let i = 0; i < 2; i++) {
    const run = await kdd(world, command);
    expect(run.code, run.stderr).toBe(0);
  }
});

defineStep(/^"([^"]+)" contains exactly one block between "([^"]+)" and "([^"]+)"$/, async (world, path, start, end) => {
  expect(world.exists(path), `${path} exists (hooks installed: ${world.last?.stdout.trim()})`).toBe(true);
  const text = await world.read(path);
  expect(text.split(start).length - 1, `"${start}" in ${path}`).toBe(1);
  expect(text.split(end).length - 1, `"${end}" in ${path}`).toBe(1);
});

defineStep(/^"([^"]+)" contains "([^"]+)"$/, async (world, path, text) => {
  expect(world.exists(path), `${path} exists`).toBe(true);
  expect(await world.read(path)).toContain(text);
});

defineStep(/^I edit "([^"]+)" and commit$/, async (world, path) => {
  // The hook runs the CLI from this checkout (KDD_BIN), as an installed `kdd` would.
  world.setEnv('KDD_BIN', `${join(process.cwd(), 'node_modules/.bin/tsx')} ${join(process.cwd(), 'cli/main.ts')}`);
  await world.write(path, `${await world.read(path)}\nEdited for the hook test.\n`);
  world.vars.editedHash = createHash('sha256').update(await readFile(world.path(path))).digest('hex');
  await world.commitAll(`edit ${path}`, { date: '2025-03-14T12:00:00Z' });
});

defineStep(/^"([^"]+)" has the new "source_hash"$/, async (world, path) => {
  expect((await world.readJson(path)).source_hash, `source_hash in ${path} after the hook ran`).toBe(world.vars.editedHash);
});

// ── Merge ──────────────────────────────────────────────────────────────────────────────────

defineStep(/^two git clones "([^"]+)" and "([^"]+)" of a repository containing this repository's "specs\/" tree$/, async (world, a, b) => {
  await world.write('origin/.gitignore', 'dist/\n');
  await world.copyRepoSpecs('specs', world.path('origin'));
  await world.gitInit(world.path('origin'));
  await world.commitAll('specs', { cwd: world.path('origin'), date: FIXED_DATE });
  for (const clone of [a, b]) {
    await world.git(['clone', '-q', 'origin', clone]);
    await world.git(['config', 'commit.gpgsign', 'false'], { cwd: world.path(clone) });
  }
  world.vars.clones = [a, b];
});

defineStep(/^both have run "kdd build specs\/" at level L1 with kdd-index ([\d.]+)$/, async (world, version) => {
  const { default: pkg } = await import('../../../package.json', { with: { type: 'json' } });
  expect(pkg.version, 'kdd-index version').toBe(version);
  for (const clone of world.vars.clones as string[]) {
    const run = await kdd(world, 'kdd build specs/', { cwd: world.path(clone) });
    expect(run.code, run.stderr).toBe(0);
  }
});

defineStep(/^(alice|bob) (edits|deletes) "([^"]+)"( differently)? and commits at "([^"]+)"$/, async (world, who, action, path, differently, date) => {
  const cwd = world.path(who);
  if (action === 'deletes') await rm(join(cwd, path));
  else await world.write(path, `${await world.read(path, cwd)}\n${who} edit${differently ? ' (a different one)' : ''}.\n`, cwd);
  await world.commitAll(`${who}: ${action} ${path}`, { cwd, date });
});

defineStep(/^both rebuild their index$/, async (world) => {
  for (const clone of world.vars.clones as string[]) {
    const run = await kdd(world, 'kdd build specs/', { cwd: world.path(clone) });
    expect(run.code, run.stderr).toBe(0);
  }
});

defineStep(/^alice and bob have the divergent edits of SCN-Merge-002$/, async (world) => {
  const path = 'specs/01-domain/entities/Bundle.md';
  for (const [who, date] of [['bob', '2025-03-14T10:00:00Z'], ['alice', '2025-03-14T10:15:00Z']] as const) {
    const cwd = world.path(who);
    await world.write(path, `${await world.read(path, cwd)}\n${who} edit.\n`, cwd);
    await world.commitAll(`${who} edit`, { cwd, date });
    const run = await kdd(world, 'kdd build specs/', { cwd });
    expect(run.code, run.stderr).toBe(0);
  }
});

defineStep(/^the report has "conflicts_resolved" equal to (\d+) and "tombstones_applied" equal to (\d+)$/, (world, conflicts, tombstones) => {
  const report = world.lastJson();
  expect(report.conflicts_resolved, `conflicts_resolved in the merge report (keys: ${Object.keys(report).join(', ')})`).toBe(Number(conflicts));
  expect(report.tombstones_applied, 'tombstones_applied').toBe(Number(tombstones));
});

defineStep(/^the report has "tombstones_applied" equal to (\d+)$/, (world, tombstones) => {
  const report = world.lastJson();
  expect(report.tombstones_applied, `tombstones_applied in the merge report (keys: ${Object.keys(report).join(', ')})`).toBe(Number(tombstones));
});

defineStep(/^the report's events are "([^"]+)" and "([^"]+)" with the same "merge_id"$/, (world, first, second) => {
  const events = world.lastJson<{ events: EventJson[] }>().events;
  expect(events.map((e) => e.event)).toEqual([first, second]);
  for (const e of events) expectEventShape(e.event, e.payload);
  expect(events[0]!.payload.merge_id).toBe(events[1]!.payload.merge_id);
});

defineStep(/^the report has "conflicts_resolved" equal to (\d+) with winner "([^"]+)" and reason "([^"]+)"$/, (world, count, winner, reason) => {
  const report = world.lastJson<{ conflicts_resolved?: number; conflicts?: { winner: { source: string }; reason?: string }[] }>();
  expect(report.conflicts_resolved, 'conflicts_resolved in the merge report').toBe(Number(count));
  expect(report.conflicts?.[0]?.winner.source, 'winner').toContain(winner);
  expect(report.conflicts?.[0]?.reason, 'reason').toBe(reason);
});

defineStep(/^"([^"]+)" is byte-identical to "([^"]+)"$/, async (world, a, b) => {
  expect(Object.fromEntries(await snapshot(world.path(a))), `${a} vs ${b}`).toEqual(Object.fromEntries(await snapshot(world.path(b))));
});

defineStep(/^the node "([^"]+)" in the merged index has alice's "source_hash"$/, async (world, id) => {
  const file = `nodes/entity/${id.split(':')[1]}.json`;
  const merged = await world.readJson(`merged/.kdd-index/${file}`);
  const alice = await world.readJson(`alice/.kdd-index/${file}`);
  expect(merged.source_hash).toBe(alice.source_hash);
});

defineStep(/^the outgoing edges of "([^"]+)" are exactly those of alice's index$/, async (world, id) => {
  const key = (e: EdgeJson) => `${e.from} ${e.type} ${e.to}`;
  const out = async (dir: string) => (await jsonl<EdgeJson>(world, `${dir}/.kdd-index/edges/edges.jsonl`)).filter((e) => e.from === id).map(key).sort();
  expect(await out('merged')).toEqual(await out('alice'));
});

defineStep(/^the merged index has no node "([^"]+)"$/, async (world, id) => {
  expect(world.exists(`merged/.kdd-index/nodes/entity/${id.split(':')[1]}.json`)).toBe(false);
});

defineStep(/^the merged index lists a dangling link from "([^"]+)" with target "([^"]+)"$/, async (world, from, target) => {
  const dangling = await jsonl<{ from_node: string; target: string }>(world, 'merged/.kdd-index/edges/dangling.jsonl');
  expect(dangling.some((d) => d.from_node === from && d.target.includes(target)), `dangling links: ${JSON.stringify(dangling)}`).toBe(true);
});

defineStep(/^"([^"]+)" and "([^"]+)" name the same bundle file$/, async (world, a, b) => {
  expect((await world.readJson<{ bundle: string }>(a)).bundle).toBe((await world.readJson<{ bundle: string }>(b)).bundle);
});

defineStep(/^(alice|bob) rebuilt at level L2 with model "([^"]+)"$/, async (world, who, model) => {
  const store = await tinyModelStore(world, model.split('/').pop()!);
  world.setEnv('KDD_MODELS_DIR', store.store);
  world.vars[`model:${who}`] = store.id;
  const usage = await buildUsage();
  const flag = usage.includes('--embedder') ? '--embedder' : '--model';
  const run = await kdd(world, `kdd build specs/ --level L2 ${flag} ${store.id}`, { cwd: world.path(who) });
  expect(run.code, run.stderr).toBe(0);
  expect((await world.readJson(`${who}/.kdd-index/manifest.json`)).index_level, `${who}'s level`).toBe('L2');
});

defineStep(/^both rebuild their index at level L2$/, async (world) => {
  for (const clone of world.vars.clones as string[]) {
    const run = await kdd(world, `kdd build specs/ --level L2 --embedder ${String(world.vars[`model:${clone}`])}`, { cwd: world.path(clone) });
    expect(run.code, run.stderr).toBe(0);
  }
});

defineStep(/^the vectors of "([^"]+)" in the merged bundle equal those in (alice|bob)'s bundle$/, async (world, id, who) => {
  const merged = await vectorBytes(world, id, 'merged/dist');
  expect(merged.length, `vectors of ${id} in the merged bundle`).toBeGreaterThan(0);
  expect(merged, `vectors of ${id}: merged vs ${who}`).toEqual(await vectorBytes(world, id, `${who}/dist`));
});

// ── Queries ────────────────────────────────────────────────────────────────────────────────

type Json = Record<string, unknown>;
const items = (json: Json): Json[] => (json.items ?? json.results ?? []) as Json[];

defineStep(/^the first item has "([^"]+)" equal to "([^"]+)"$/, (world, field, value) => {
  expect(items(world.lastJson())[0]?.[field], `first item's ${field}`).toBe(value);
});

defineStep(/^the items include "([^"]+)" with "([^"]+)" containing "([^"]+)"$/, (world, id, field, value) => {
  const item = items(world.lastJson()).find((i) => i.node_id === id);
  expect(item, `${id} among the items`).toBeDefined();
  expect(item![field], `${field} of ${id}`).toContain(value);
});

defineStep(/^every item has "([^"]+)" equal to "([^"]+)"$/, (world, field, value) => {
  const all = items(world.lastJson());
  expect(all.length).toBeGreaterThan(0);
  expect(all.filter((i) => i[field] !== value && i.kind !== value && i.document_kind !== value).map((i) => i.node_id)).toEqual([]);
});

defineStep(/^the root is "([^"]+)"$/, (world, id) => {
  expect((world.lastJson().center_node as Json | undefined)?.id, 'center_node.id').toBe(id);
});

defineStep(/^the reached nodes include "([^"]+)" via "([^"]+)"(?: and "([^"]+)" via "([^"]+)")?$/, (world, a, ea, b, eb) => {
  const related = (world.lastJson().related_nodes ?? []) as { id: string; reached_via: { edge_type: string } }[];
  for (const [id, edge] of [[a, ea], [b, eb]].filter(([id]) => id)) {
    const node = related.find((n) => n.id === id);
    expect(node, `${id} among the reached nodes`).toBeDefined();
    expect(node!.reached_via.edge_type, `edge reaching ${id}`).toBe(edge);
  }
});

defineStep(/^"total_tokens" is at most (\d+)$/, (world, max) => {
  expect(world.lastJson().total_tokens as number).toBeLessThanOrEqual(Number(max));
});

defineStep(/^the items include "([^"]+)" among the first (\d+)$/, (world, id, n) => {
  const ids = items(world.lastJson()).map((i) => i.node_id);
  expect(ids.slice(0, Number(n)), `first ${n} of ${ids.join(', ')}`).toContain(id);
});

defineStep(/^"(warnings|metadata\.warnings)" contains "([^"]+)" because the bundle is L1$/, (world, path, code) => {
  expect((at(world.lastJson(), path) as { code: string }[]).map((w) => w.code)).toContain(code);
});

defineStep(/^"truncated" is true if and only if "warnings" contains "([^"]+)"$/, (world, code) => {
  const json = world.lastJson();
  const truncated = json.truncated ?? items(json).some((i) => i.truncated === true);
  expect(Boolean(truncated), '"truncated"').toBe((json.warnings as { code: string }[]).some((w) => w.code === code));
});

defineStep(/^"(directly_affected|transitively_affected)" includes "([^"]+)" (?:with edge type "([^"]+)"|at hop (\d+))$/, (world, list, id, edge, hop) => {
  const nodes = (world.lastJson()[list] ?? []) as { id: string; edge_type?: string; distance?: number }[];
  const node = nodes.find((n) => n.id === id);
  expect(node, `${id} in ${list}: ${nodes.map((n) => `${n.id}/${n.edge_type ?? n.distance}`).join(', ')}`).toBeDefined();
  if (edge) expect(node!.edge_type, `edge type of ${id}`).toBe(edge);
  if (hop) expect(node!.distance, `hop of ${id}`).toBe(Number(hop));
});

defineStep(/^"scenarios" includes "([^"]+)" from feature "([^"]+)"$/, (world, scenario, feature) => {
  const json = world.lastJson();
  const list = (json.scenarios ?? json.scenarios_to_rerun ?? []) as { feature: string; scenario: string | null }[];
  expect(list.some((s) => s.scenario === scenario && s.feature.includes(feature)), `scenarios: ${list.map((s) => `${s.feature}/${s.scenario}`).join(', ')}`).toBe(true);
});

defineStep(/^the JSON answer has "([^"]+)" equal to (\d+)$/, (world, field, value) => {
  expect(world.lastJson()[field], field).toBe(Number(value));
});

defineStep(/^the JSON answer lists "([^"]+)" with status "([^"]+)"$/, (world, category, status) => {
  const required = (world.lastJson().required ?? []) as { category: string; status: string }[];
  expect(required.find((r) => r.category === category)?.status, `coverage category ${category}: ${JSON.stringify(required)}`).toBe(status);
});

defineStep(/^the JSON answer has an empty "([^"]+)" list$/, (world, field) => {
  expect(world.lastJson()[field], field).toEqual([]);
});

defineStep(/^the JSON answer has a non-empty "([^"]+)" list$/, (world, field) => {
  expect((world.lastJson()[field] as unknown[] | undefined)?.length ?? 0, field).toBeGreaterThan(0);
});

defineStep(/^the hint "([^"]+)" resolved to "([^"]+)"$/, (world, hint, id) => {
  const resolved = (world.lastJson().resolved_entities ?? []) as { node_id: string; matched_from: string }[];
  expect(resolved.find((r) => hint.endsWith(r.matched_from))?.node_id, `resolved_entities: ${JSON.stringify(resolved)}`).toBe(id);
});

defineStep(/^the first constraint is "([^"]+)"$/, (world, id) => {
  const constraints = (world.lastJson().constraints ?? []) as { node_id: string }[];
  expect(constraints[0]?.node_id, `constraints: ${constraints.map((c) => c.node_id).join(', ')}`).toBe(id);
});

defineStep(/^no node owns more than (\d+) of the items$/, (world, max) => {
  const counts = new Map<string, number>();
  for (const item of items(world.lastJson())) counts.set(String(item.node_id), (counts.get(String(item.node_id)) ?? 0) + 1);
  expect(Math.max(0, ...counts.values()), JSON.stringify(Object.fromEntries(counts))).toBeLessThanOrEqual(Number(max));
});

defineStep(/^"([^"]+)" contains no "([^"]+)" block$/, async (world, path, marker) => {
  if (!world.exists(path)) return;
  expect(await world.read(path)).not.toContain(marker);
});

// ── Models and enrichment ──────────────────────────────────────────────────────────────────

defineStep(/^the offline test model "([^"]+)" is in a local model store$/, async (world, name) => {
  const store = await tinyModelStore(world, name);
  world.vars.store = store.store;
});

defineStep(/^an empty local model store$/, async (world) => {
  await world.write('empty-store/.keep', '');
  world.vars.store = world.path('empty-store');
});

defineStep(/^I run "(kdd model [^"]+)" on that store$/, async (world, command) => {
  await kdd(world, `${command} --models-dir ${String(world.vars.store)}`);
});

defineStep(/^the JSON report lists node "([^"]+)" with status "([^"]+)" and error code "([^"]+)"$/, (world, id, status, code) => {
  const nodes = (world.lastJson().nodes ?? []) as { node_id: string; status: string; error?: { code: string } }[];
  const node = nodes.find((n) => n.node_id === id);
  expect(node, `${id} in the enrich report`).toBeDefined();
  expect(node!.status).toBe(status);
  expect(node!.error?.code).toBe(code);
});

defineStep(/^the folder "([^"]+)" is deleted$/, async (world, path) => {
  await rm(world.path(path), { recursive: true, force: true });
});

defineStep(/^the network is off$/, (world) => {
  world.blockNetwork();
});

defineStep(/^no network request was made$/, (world) => {
  expect(world.network).toEqual([]);
});


