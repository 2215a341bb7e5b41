import { createError } from '../model/errors.js';
import type { PreviousIndex } from './incremental/earlier.js';
import type { Compiled } from './report.js';

/**
 * The mass-delete guard (docs/integrity.md, docs/decisions/integrity-guards.md): a build may not
 * delete every document of a non-empty index, nor more than {@link MASS_DELETE_SHARE} of one holding
 * at least {@link MASS_DELETE_MIN}. An empty or wrong specs folder (a typo, another project's tree)
 * would otherwise commit and sync an index of tombstones. `--allow-mass-delete` lifts it.
 */
export const MASS_DELETE_SHARE = 0.5;
export const MASS_DELETE_MIN = 10;

export function refuseMassDelete(previous: Pick<PreviousIndex, 'nodes'> | null, result: Pick<Compiled, 'changes'>): void {
  const total = previous?.nodes.length ?? 0;
  const deleted = result.changes.tombstoned.length;
  if (total === 0 || deleted === 0) return;
  const all = deleted >= total;
  const most = total >= MASS_DELETE_MIN && deleted > total * MASS_DELETE_SHARE;
  if (!all && !most) return;
  const rule = all ? 'every indexed document would go' : `more than ${MASS_DELETE_SHARE * 100}% of an index of ${MASS_DELETE_MIN} or more`;
  throw createError('MASS_DELETE_REFUSED', { deleted, total, rule });
}
