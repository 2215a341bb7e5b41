/**
 * `kdd context --explain` and `--json` name the alias a result matched and its role: an everyday word of
 * the document's language (weighed in the alias field) or another language's name (weighed as the title).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIO } from '../../cli/command.js';
import { contextCommand } from '../../cli/commands/query-commands.js';
import { build } from '../../compiler/pipeline.js';
import { removeTree, tempTree } from '../helpers/temp-tree.js';

const TREE = {
  'specs/01-domain/entities/Veterinarian.md': `---
kind: entity
aliases: [Doctor, Veterinario]
status: approved
---

# Veterinarian

## Description

A vet of the clinic. The vet sees the animals that the owners bring, and writes what was done.
`,
  'specs/01-domain/rules/BR-SLOT-001.md': `---
kind: business-rule
status: approved
---

# BR-SLOT-001: Appointment overlap

## Declaration

A doctor is never booked for two appointments that overlap. The clinic refuses the second one.
`,
};

let root: string;
let dist: string;

beforeAll(async () => {
  root = await tempTree(TREE);
  dist = join(root, 'dist');
  await build({ specsDir: join(root, 'specs'), outDir: dist, indexDir: join(root, 'idx') });
});

afterAll(async () => removeTree(root));

async function run(argv: string[]): Promise<string> {
  const out: string[] = [];
  const io: CliIO = { stdout: (s) => void out.push(s), stderr: () => {}, isTTY: false, cwd: '/' };
  expect(await contextCommand.run(argv, io)).toBe(0);
  return out.join('');
}

describe('kdd context --explain: aliases and their roles', () => {
  it('gives why.aliases in --json: the everyday word in the alias field, the translation with the title', async () => {
    const json = JSON.parse(await run(['doctor', 'veterinario', 'overlap', '--explain', '--json', '--bundle', dist]));
    const vet = json.results.find((r: { node_id: string }) => r.node_id === 'Entity:Veterinarian');
    expect(vet.why.aliases).toEqual([
      { alias: 'Doctor', role: 'everyday' },
      { alias: 'Veterinario', role: 'translation' },
    ]);
    expect(vet.why.matched).toEqual(expect.arrayContaining([expect.objectContaining({ term: 'doctor', fields: ['alias'] })]));
    // The rule that says "doctor" in its text matched no alias.
    const rule = json.results.find((r: { node_id: string }) => r.node_id === 'BR:BR-SLOT-001');
    expect(rule.why.aliases).toBeUndefined();
  });

  it('prints each matched alias with what its role weighed', async () => {
    const text = await run(['doctor', 'veterinario', '--explain', '--bundle', dist]);
    expect(text).toContain(`alias: "Doctor" (an everyday word of its language, weighed in the alias field); "Veterinario" (another language's name, weighed as the title)`);
  });
});
