/**
 * A `kdd build` process of its own collects its heap when the pack and the write start (peak memory,
 * docs/decisions/build-speed.md); no other command, and never the library or an in-process `runCli`,
 * whose callers own their heap.
 */
import { describe, expect, it } from 'vitest';
import { heapCollector, processIO } from '../../cli/main.js';
import { collectingAtStages, gcProfilerWatch, WORTH_COLLECTING_BYTES } from '../../cli/stage-collection.js';
import type { BuildPhase, BuildProgress } from '../../compiler/progress.js';

const PHASES: BuildPhase[] = ['read', 'extract', 'link', 'embed', 'emit', 'pack', 'write'];
const events = (): BuildProgress[] => PHASES.flatMap((phase) => (['start', 'step', 'end'] as const).map((state) => ({ phase, done: 0, total: 1, elapsed_ms: 0, state })));

describe('heap collections of a build process', () => {
  it('are offered to the build command only, and not in the IO an in-process caller gets', () => {
    expect(heapCollector('build')).toBeTypeOf('function');
    for (const command of ['check', 'context', 'serve', 'merge', undefined]) expect(heapCollector(command)).toBeUndefined();
    expect(processIO().collectGarbage).toBeUndefined();
  });

  it('really collect: an object nothing refers to is gone after one', async () => {
    let target: object | null = { bytes: new Array(1000).fill(0) };
    const ref = new WeakRef(target);
    target = null;
    // A WeakRef keeps its target through the job that made it.
    await new Promise((resolve) => setTimeout(resolve, 0));
    heapCollector('build')!();
    expect(ref.deref()).toBeUndefined();
  });

  /** A watch whose n-th run (the first begins when the pack starts) sees a collection of V8's own when `sees[n]`. */
  const fakeWatch = (sees: boolean[]) => {
    let runs = -1;
    let on = false;
    return {
      start: () => void ((runs += 1), (on = true)),
      sawFullCollection: () => {
        const saw = on && sees[runs] === true;
        on = false;
        return saw;
      },
    };
  };

  it('run when the pack starts, and when the write starts if V8 did not collect itself during the pack, before the display hears of it', () => {
    const seen: string[] = [];
    const listener = (progress: BuildProgress) => void seen.push(`${progress.phase} ${progress.state}`);
    const tell = collectingAtStages((progress) => listener(progress), () => void seen.push('collect'), fakeWatch([false, false]), () => WORTH_COLLECTING_BYTES)!;
    for (const event of events()) tell(event);
    expect(seen.filter((entry) => entry === 'collect')).toHaveLength(2);
    expect(seen.indexOf('collect')).toBe(seen.indexOf('pack start') - 1);
    expect(seen.lastIndexOf('collect')).toBe(seen.indexOf('write start') - 1);
    expect(seen.filter((entry) => entry !== 'collect')).toEqual(events().map((e) => `${e.phase} ${e.state}`));
  });

  it('skip the write when V8 ran a full collection of its own during the pack, and a small heap', () => {
    // V8 collected during the pack: the pack's collection runs, the write's does not.
    const seen: string[] = [];
    const tell = collectingAtStages((progress) => void seen.push(`${progress.phase} ${progress.state}`), () => void seen.push('collect'), fakeWatch([true]), () => WORTH_COLLECTING_BYTES)!;
    for (const event of events()) tell(event);
    expect(seen.indexOf('collect')).toBe(seen.indexOf('pack start') - 1);
    expect(seen.filter((entry) => entry === 'collect')).toHaveLength(1);

    const collected: string[] = [];
    const small = collectingAtStages(undefined, () => void collected.push('collect'), fakeWatch([false, false]), () => WORTH_COLLECTING_BYTES - 1)!;
    for (const event of events()) small(event);
    expect(collected).toEqual([]);
  });

  it("watch V8's own full collections through its GC profiler", () => {
    const watch = gcProfilerWatch();
    watch.start();
    expect(watch.sawFullCollection()).toBe(false);
    watch.start();
    heapCollector('build')!();
    expect(watch.sawFullCollection()).toBe(true);
    expect(watch.sawFullCollection()).toBe(false);
  });

  it('leave the listener as it is when there is no collector', () => {
    const listener = () => undefined;
    expect(collectingAtStages(listener, undefined)).toBe(listener);
    expect(collectingAtStages(undefined, undefined)).toBeUndefined();
  });
});
