/**
 * Progress of a build (#17): each long phase says when it starts, how far it got and when it is
 * over, with counts and the time since the phase began. The pipeline only reports; how often a
 * report reaches a screen or a log is the listener's business (cli/progress.ts throttles).
 */

/** The phases of `kdd build`, in the order they run (compiler/pipeline.ts). */
export type BuildPhase = 'read' | 'extract' | 'link' | 'embed' | 'emit' | 'pack' | 'write';

export interface BuildProgress {
  phase: BuildPhase;
  /** Items done so far (files read or extracted, nodes linked, packed or written); `total` at the end. */
  done: number;
  /** Items the phase works through, or null when not known up front. */
  total: number | null;
  /** Milliseconds since the phase started. */
  elapsed_ms: number;
  /** `start` once, `step` any number of times, `end` once. */
  state: 'start' | 'step' | 'end';
}

export type ProgressListener = (progress: BuildProgress) => void;

/** One phase's reporter: call `step` as items finish, `end` once. No listener: every call is a no-op. */
export interface PhaseProgress {
  /** `total` once it is known (a read learns it after listing the tree). */
  step(done: number, total?: number): void;
  end(done?: number): void;
}

const SILENT: PhaseProgress = { step: () => undefined, end: () => undefined };

export function startPhase(listener: ProgressListener | undefined, phase: BuildPhase, total: number | null = null): PhaseProgress {
  if (!listener) return SILENT;
  const started = performance.now();
  let known = total;
  const tell = (state: BuildProgress['state'], done: number) => listener({ phase, done, total: known, elapsed_ms: Math.round(performance.now() - started), state });
  tell('start', 0);
  return {
    step: (done, total) => {
      if (total !== undefined) known = total;
      tell('step', done);
    },
    end: (done = known ?? 0) => tell('end', done),
  };
}
