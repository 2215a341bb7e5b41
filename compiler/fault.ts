/**
 * Fault injection for the crash-safety suite (`npm run test:faults`): `KDD_FAULT_AT=<stage>:<n>`
 * makes the n-th pass through a {@link faultPoint} of that stage end the process on the spot
 * (SIGKILL: no `finally`, no temp-file clean-up — what a power cut or `kill -9` leaves), or throw
 * when `KDD_FAULT_MODE=throw` (a failed build inside a long-lived process). `KDD_FAULT_AT=count`
 * prints how many times each stage was reached when the process exits, so a test can spread its
 * kill points over every stage. Unset, a fault point costs one comparison.
 */
/** `write`: every atomic file write, twice (before the temp file, before its rename); `remove`: every artifact removal. */
export type FaultStage = 'read' | 'extract' | 'link' | 'pack' | 'write' | 'remove';

const spec = process.env.KDD_FAULT_AT || undefined;
const counts = new Map<FaultStage, number>();
const target = spec && spec !== 'count' ? parse(spec) : null;

if (spec === 'count') {
  process.on('exit', () => process.stderr.write(`KDD_FAULT_COUNTS ${JSON.stringify(Object.fromEntries(counts))}\n`));
}

function parse(text: string): { stage: string; n: number } {
  const [stage, n] = text.split(':');
  return { stage: stage!, n: Number(n) };
}

/** A place where a crash must leave the index recoverable. */
export function faultPoint(stage: FaultStage): void {
  if (spec === undefined) return;
  const n = (counts.get(stage) ?? 0) + 1;
  counts.set(stage, n);
  if (!target || target.stage !== stage || target.n !== n) return;
  if (process.env.KDD_FAULT_MODE === 'throw') throw new Error(`injected fault at ${stage}:${n}`);
  process.kill(process.pid, 'SIGKILL');
}
