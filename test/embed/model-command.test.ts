import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../cli/main.js';
import { makeTinyModel } from '../helpers/tiny-model/make-tiny-model.js';
import { capture } from '../helpers/cli-io.js';


let store: string;
beforeAll(async () => {
  vi.stubGlobal('fetch', async () => {
    throw new Error('offline test');
  });
  store = await mkdtemp(join(tmpdir(), 'kdd-models-cli-'));
  await makeTinyModel(join(store, 'kdd-test'), { name: 'tiny-e5-test', quantizedCopy: true });
});
afterAll(async () => {
  vi.unstubAllGlobals();
  await rm(store, { recursive: true, force: true });
});

describe('kdd model', () => {
  it('list shows cached models and their dtypes', async () => {
    const { io, out } = capture(store);
    expect(await runCli(['model', 'list', '--models-dir', store], io)).toBe(0);
    expect(out.join('')).toMatch(/kdd-test\/tiny-e5-test\s+fp32,q8\s+0\.0 MB/);
    const json = capture(store);
    expect(await runCli(['model', 'list', '--models-dir', store, '--json'], json.io)).toBe(0);
    expect(JSON.parse(json.out.join('')).models[0]).toMatchObject({ model: 'kdd-test/tiny-e5-test', ids: ['kdd-test/tiny-e5-test@fp32', 'kdd-test/tiny-e5-test@q8'] });
  });

  it('list on an empty store tells how to pull', async () => {
    const empty = join(store, 'nothing-here');
    const { io, out } = capture(store);
    expect(await runCli(['model', 'list', '--models-dir', empty], io)).toBe(0);
    expect(out.join('')).toContain('kdd model pull Xenova/multilingual-e5-small');
  });

  it('rejects bad usage with exit 2', async () => {
    for (const argv of [['model'], ['model', 'fetch'], ['model', 'pull', '--dtype', 'q3'], ['model', 'list', 'extra']]) {
      const { io, err } = capture(store);
      expect(await runCli(argv, io)).toBe(2);
      expect(err.join('')).toContain('Usage: kdd model');
    }
  });

  it('a failed pull is a typed error with exit code 1', async () => {
    const { io, err } = capture(store);
    expect(await runCli(['model', 'pull', 'kdd-test/unreachable', '--models-dir', store], io)).toBe(1);
    expect(err.join('')).toMatch(/MODEL_DOWNLOAD_FAILED: cannot download kdd-test\/unreachable \(q8\)/);
  });
});
