/**
 * The upstream specification's 33 scenarios (`# language: es`), from the kdd-engine corpus next to
 * this repository. Skipped (with a note) when the corpus is not checked out beside the repo.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'vitest';
import { registerFeatures } from '../runner.js';
import '../steps/index.js';
import { REPO_ROOT } from '../world.js';

export const UPSTREAM_EXAMPLES = resolve(REPO_ROOT, '../shared/corpora/kdd-engine/specs/04-verification/examples');

if (existsSync(UPSTREAM_EXAMPLES)) registerFeatures('upstream', UPSTREAM_EXAMPLES);
else describe('upstream', () => it.skip(`no upstream corpus at ${UPSTREAM_EXAMPLES}`, () => undefined));
