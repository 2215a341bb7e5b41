/**
 * Full garbage collections at two stage boundaries of a `kdd build` process, to keep its peak memory
 * where the live memory is (#17: 10,800 documents in ≤ 600 MB, docs/decisions/build-speed.md).
 *
 * At the pack, a `--full` rebuild holds no more than a fresh build, but V8 ran its last mark-compact
 * inside extract, while the previous index's bytes were still alive, and sets its next one by that:
 * it comes only at ~450 MB of heap, in the pack, 50–70 MB of RSS above a fresh build. A collection
 * when the pack starts (the previous index, extract's and emit's garbage all dead) fixes that. It
 * runs in every build: a fresh build's own collection in emit left its heap limit at ~420 MB, which
 * the pack reached while it released the graph's texts (compiler/pack/pack.ts `prepareNodes`), so
 * its peak was 530 or 590 MB depending on where that collection fell. One when the write starts
 * does the same for the pack's scratch, unless V8 ran a full collection of its own during the pack.
 * A collection is ~0.1 s at 10,800 documents.
 *
 * Only in a process of its own: library users and in-process callers own their heap (cli/main.ts
 * `heapCollector` gives `collectGarbage` to the build command of its own process and to nothing
 * else). A small heap has too little garbage to move a peak: below {@link WORTH_COLLECTING_BYTES}
 * nothing is collected (a 54-document build's heap is ~20 MB).
 */
import type { BuildPhase, ProgressListener } from '../compiler/progress.js';

/** The phases at whose start the heap is collected, unless V8 ran a full collection of its own since a phase of {@link WATCH_FROM} started (the pack always collects: nothing is watched before it). */
export const COLLECT_AT: readonly BuildPhase[] = ['pack', 'write'];
/** The phases at whose start the watch for V8's own full collections begins (after any check of {@link COLLECT_AT}). */
export const WATCH_FROM: readonly BuildPhase[] = ['pack'];

/** Heap in use below which a collection is not worth its time. */
export const WORTH_COLLECTING_BYTES = 128 * 1024 * 1024;

/** Whether V8 ran a full (mark-compact) collection of its own since {@link FullCollectionWatch.start}. */
export interface FullCollectionWatch {
  start(): void;
  /** Ends the watch: true when a full collection ran while it was on. */
  sawFullCollection(): boolean;
}

/**
 * V8's GC profiler records every collection synchronously (progress events come from synchronous
 * stretches such as the pack, where a performance observer's entries would not have arrived yet).
 */
export function gcProfilerWatch(): FullCollectionWatch {
  let profiler: { start(): void; stop(): { statistics: { gcType: string }[] } | undefined } | undefined;
  return {
    start() {
      profiler?.stop();
      profiler = new (process.getBuiltinModule('node:v8').GCProfiler)();
      profiler.start();
    },
    sawFullCollection() {
      const statistics = profiler?.stop()?.statistics ?? [];
      profiler = undefined;
      return statistics.some((entry) => entry.gcType === 'MarkSweepCompact');
    },
  };
}

const heapInUse = () => process.getBuiltinModule('node:v8').getHeapStatistics().used_heap_size;

/** The build's progress listener, collecting the heap first where {@link COLLECT_AT} says; `listener` unchanged when there is no collector. */
export function collectingAtStages(listener: ProgressListener | undefined, collect: (() => void) | undefined, watch: FullCollectionWatch = gcProfilerWatch(), heapUsed: () => number = heapInUse): ProgressListener | undefined {
  if (!collect) return listener;
  return (progress) => {
    if (progress.state === 'start') {
      if (COLLECT_AT.includes(progress.phase) && !watch.sawFullCollection() && heapUsed() >= WORTH_COLLECTING_BYTES) collect();
      if (WATCH_FROM.includes(progress.phase)) watch.start();
    }
    listener?.(progress);
  };
}
