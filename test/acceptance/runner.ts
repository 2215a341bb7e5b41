/**
 * Acceptance runner (#8): Gherkin `.feature` files → vitest.
 *
 * Each feature file becomes a `describe`, each scenario (outlines expanded, one `it` per example
 * row) an `it`. Steps are matched, keyword-agnostic (Dado/Cuando/Entonces/Y/Pero ≡
 * Given/When/Then/And/But), against the table that `steps/*.ts` fill with {@link defineStep}.
 * The parser is the product's own (`compiler/parse/gherkin.ts`).
 *
 * - An undefined step fails the scenario with the step text and a suggested `defineStep` regex.
 * - Two definitions matching one step fail the scenario (ambiguity is a bug in the step table).
 * - A failing step fails with feature, scenario, step and the assertion's actual vs expected.
 * - `world.pending(reason)` marks the scenario pending (a product feature is not there yet) but the
 *   remaining steps still run, so everything that can be checked is checked: a later failure still
 *   fails the scenario; otherwise it is reported as skipped with the reasons.
 *
 * Results are attached to `task.meta.kdd` and printed as a table by `reporter.ts`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, it, type TestContext } from 'vitest';
import { parseGherkin } from '../../compiler/parse/gherkin.js';
import type { GherkinScenario, GherkinStep } from '../../compiler/parse/types.js';
import { StopScenario, World } from './world.js';

export type StepFn = (world: World, ...captures: string[]) => unknown;

interface StepDefinition {
  pattern: RegExp;
  fn: StepFn;
  /** `file:line` of the definition, for ambiguity messages. */
  where: string;
}

const STEPS: StepDefinition[] = [];

/**
 * Registers a step. The pattern is matched against the step text without its keyword; captures
 * are passed in order after the world. The step's doc string and table are `world.step.docString`
 * / `world.step.table`.
 */
export function defineStep(pattern: RegExp, fn: StepFn): void {
  const where = new Error().stack?.split('\n')[2]?.trim().replace(/^at\s+/, '') ?? '?';
  STEPS.push({ pattern, fn, where });
}


export interface ScenarioMeta {
  suite: string;
  feature: string;
  file: string;
  scenario: string;
  id: string;
  status?: 'passed' | 'failed' | 'pending';
  /** Wall time of the scenario (skipped tests get no duration from vitest). */
  ms?: number;
  pending?: string[];
  failedStep?: string;
}

declare module 'vitest' {
  interface TaskMeta {
    kdd?: ScenarioMeta;
  }
}

/** Suggested regex for an undefined step: quoted strings and numbers become captures. */
export function suggestPattern(text: string): string {
  const escaped = text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const withCaptures = escaped.replace(/"[^"]*"/g, '"([^"]*)"').replace(/(?<![\w-])\d+(?![\w-])/g, '(\\d+)');
  return `/^${withCaptures}$/`;
}

function findStep(text: string): { def: StepDefinition; captures: string[] } {
  const matches = STEPS.map((def) => ({ def, match: def.pattern.exec(text) })).filter((m) => m.match !== null);
  if (matches.length === 0) {
    const arity = (suggestPattern(text).match(/\(/g) ?? []).length;
    const args = ['world', ...Array.from({ length: arity }, (_, i) => `arg${i + 1}`)].join(', ');
    throw new UndefinedStep(`Undefined step: "${text}"\nSuggested definition:\n  defineStep(${suggestPattern(text)}, async (${args}) => {\n    world.pending('TODO');\n  });`);
  }
  if (matches.length > 1) {
    throw new Error(`Ambiguous step: "${text}" matches ${matches.length} definitions:\n${matches.map((m) => `  ${m.def.pattern} at ${m.def.where}`).join('\n')}`);
  }
  const { def, match } = matches[0]!;
  return { def, captures: match!.slice(1).map((c) => c ?? '') };
}

class UndefinedStep extends Error {}

/** Replaces `<name>` placeholders of an outline with an example row's values. */
function fill(text: string, values: Record<string, string>): string {
  return text.replace(/<([^<>]+)>/g, (whole, name: string) => values[name] ?? whole);
}

function fillStep(step: GherkinStep, values: Record<string, string>): GherkinStep {
  return {
    ...step,
    text: fill(step.text, values),
    docString: step.docString === null ? null : fill(step.docString, values),
    table: step.table?.map((row) => row.map((cell) => fill(cell, values))) ?? null,
  };
}

interface RunnableScenario {
  title: string;
  id: string;
  steps: GherkinStep[];
}

function expand(scenario: GherkinScenario): RunnableScenario[] {
  const id = scenario.id ?? scenario.name;
  if (!scenario.examples?.length) return [{ title: scenario.name, id, steps: scenario.steps }];
  const runs: RunnableScenario[] = [];
  scenario.examples.forEach((examples) => {
    const [header, ...rows] = examples.table;
    rows.forEach((row, index) => {
      const values = Object.fromEntries((header ?? []).map((name, i) => [name, row[i] ?? '']));
      const label = Object.entries(values)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ');
      runs.push({ title: `${fill(scenario.name, values)} [${index + 1}: ${label}]`, id: `${id} #${index + 1}`, steps: scenario.steps.map((s) => fillStep(s, values)) });
    });
  });
  return runs;
}

function stepLine(step: GherkinStep): string {
  return `${step.keyword} ${step.text}`;
}

/** Re-throws `error` with feature/scenario/step context, keeping actual/expected for vitest's diff. */
function contextualise(error: unknown, feature: string, scenario: string, step: GherkinStep): Error {
  const original = error instanceof Error ? error : new Error(String(error));
  const wrapped = new Error(`\n  Feature:  ${feature}\n  Scenario: ${scenario}\n  Step:     ${stepLine(step)}\n\n${original.message}`);
  const source = original as Error & { actual?: unknown; expected?: unknown; showDiff?: boolean };
  const target = wrapped as Error & { actual?: unknown; expected?: unknown; showDiff?: boolean };
  if ('actual' in source) target.actual = source.actual;
  if ('expected' in source) target.expected = source.expected;
  if (source.showDiff !== undefined) target.showDiff = source.showDiff;
  wrapped.stack = `${wrapped.message}\n${(original.stack ?? '').split('\n').slice(1).join('\n')}`;
  return wrapped;
}

/**
 * `ACCEPTANCE_ALL_STEPS=1`: keep running the steps after a failure and report every failing step of
 * the scenario at the end (to list all deviations at once; later steps may fail as a consequence).
 */
const ALL_STEPS = process.env.ACCEPTANCE_ALL_STEPS === '1';

async function runScenario(ctx: TestContext, suite: string, file: string, featureName: string, background: GherkinStep[], scenario: RunnableScenario): Promise<void> {
  const meta: ScenarioMeta = { suite, feature: basename(file), file, scenario: scenario.title, id: scenario.id };
  ctx.task.meta.kdd = meta;
  const world = new World({ feature: featureName, scenario: scenario.title, file });
  const started = performance.now();
  const failures: Error[] = [];
  await world.init();
  try {
    for (const step of [...background, ...scenario.steps]) {
      world.step = step;
      try {
        const found = findStep(step.text);
        await found.def.fn(world, ...found.captures);
      } catch (error) {
        if (error instanceof StopScenario) break;
        meta.status = 'failed';
        meta.failedStep ??= stepLine(step);
        failures.push(contextualise(error, featureName, scenario.title, step));
        if (!ALL_STEPS || error instanceof UndefinedStep) break;
      }
    }
  } finally {
    await world.dispose();
    meta.ms = Math.round(performance.now() - started);
  }
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new Error(failures.map((f, i) => `[${i + 1}/${failures.length}]${f.message}`).join('\n\n'));
  if (world.pendingReasons.length > 0) {
    meta.status = 'pending';
    meta.pending = world.pendingReasons;
    ctx.skip(`pending: ${world.pendingReasons.join(' | ')}`);
  }
  meta.status = 'passed';
}

/**
 * Declares one `describe` per `.feature` file of `dir` (sorted), one `it` per scenario.
 * @param suite label for the summary table (`upstream`, `product`).
 */
export function registerFeatures(suite: string, dir: string, options: { timeout?: number } = {}): void {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.feature'))
    .sort();
  for (const name of files) {
    const path = join(dir, name);
    const feature = parseGherkin(readFileSync(path, 'utf8'));
    describe(`${suite}: ${name} — ${feature.name}`, () => {
      for (const scenario of feature.scenarios) {
        for (const runnable of expand(scenario)) {
          it(runnable.title, { timeout: options.timeout ?? 60_000 }, (ctx) => runScenario(ctx, suite, path, feature.name, feature.background, runnable));
        }
      }
    });
  }
}
