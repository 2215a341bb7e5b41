/**
 * How `kdd build` shows its progress (#17), on stderr so that stdout (the summary, `--json`) never
 * holds any of it. On a terminal: one line, redrawn in place at most every {@link TTY_REDRAW_MS}
 * and cleared at the end. Anywhere else (CI logs, pipes): one line when a phase ends, and within a
 * long phase at most one line every {@link LOG_EVERY_MS}, so a log shows where a 30 s build is
 * without a line per file.
 */
import type { BuildPhase, BuildProgress, ProgressListener } from '../compiler/progress.js';

export const TTY_REDRAW_MS = 100;
export const LOG_EVERY_MS = 5_000;

/** What each phase counts. */
const UNIT: Record<BuildPhase, string> = {
  read: 'files',
  extract: 'files',
  link: 'documents',
  embed: 'nodes',
  emit: 'nodes',
  pack: 'nodes',
  write: 'bundle',
};

export interface ProgressDisplay {
  listener: ProgressListener;
  /** Clears the terminal line, if one is drawn. */
  finish(): void;
}

export function progressDisplay(write: (text: string) => void, tty: boolean, now: () => number = () => performance.now()): ProgressDisplay {
  const every = tty ? TTY_REDRAW_MS : LOG_EVERY_MS;
  let shownAt = 0;
  let drawn = false;
  return {
    listener(progress) {
      const time = now();
      // A log gets no line when a phase starts: its first line within a phase comes `every` after the start.
      if (progress.state === 'start') shownAt = time;
      if (progress.state === 'start' && !tty) return;
      if (progress.state === 'step' && time - shownAt < every) return;
      shownAt = time;
      if (!tty) return write(`kdd build: ${describe(progress)}\n`);
      drawn = true;
      write(`\r\x1b[K${describe(progress)}`);
    },
    finish() {
      if (drawn) write('\r\x1b[K');
    },
  };
}

function describe({ phase, done, total, elapsed_ms, state }: BuildProgress): string {
  const count = total === null ? `${done}` : `${done}/${total}`;
  return `${phase} ${count} ${UNIT[phase]}${state === 'end' ? ' done' : ''} · ${seconds(elapsed_ms)}`;
}

const seconds = (ms: number) => (ms < 1_000 ? `${ms} ms` : `${(ms / 1_000).toFixed(1)} s`);
