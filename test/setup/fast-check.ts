/**
 * Property tests run with a fixed seed so CI is reproducible: a red run is a real, replayable
 * counterexample, never a coin toss. `FC_SEED=random npm test` explores new inputs; any other
 * number replays that seed.
 */
import fc from 'fast-check';

const requested = process.env.FC_SEED;
if (requested !== 'random') fc.configureGlobal({ seed: requested ? Number(requested) : 20261122 });
