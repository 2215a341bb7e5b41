import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { writeCompressedCopiesOf } from '../../compiler/pack/precompress.js';

describe('writeCompressedCopiesOf', () => {
  let dir = '';
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('writes brotli and gzip copies that decode to each file, in sub-folders too, and none for incompressible bytes', async () => {
    dir = await mkdtemp(join(tmpdir(), 'kdd-precompress-'));
    const text = (n: number) => new TextEncoder().encode(`{"id":"UC:UC-${n}","text":"${'crear pedido '.repeat(40 + n)}"}`);
    // Sizes on both sides of the brotli window bounds (1 kB … 5 MB) and more files than one batch.
    const files = [
      ...Array.from({ length: 600 }, (_, n) => ({ name: `kdd-s-${n}.msgpack`, bytes: text(n) })),
      { name: 'assets/app.js', bytes: new TextEncoder().encode('export const x = 1;\n'.repeat(300_000)) },
      { name: 'noise.bin', bytes: new Uint8Array(randomBytes(4096)) },
    ];
    await mkdir(join(dir, 'assets'));
    for (const file of files) await writeFile(join(dir, file.name), file.bytes);
    // A stale copy of a file whose new content does not compress must go.
    await writeFile(join(dir, 'noise.bin.br'), 'stale');
    await writeCompressedCopiesOf(dir, files);
    for (const file of files.slice(0, -1)) {
      expect(Buffer.compare(brotliDecompressSync(await readFile(join(dir, `${file.name}.br`))), Buffer.from(file.bytes)), file.name).toBe(0);
      expect(Buffer.compare(gunzipSync(await readFile(join(dir, `${file.name}.gz`))), Buffer.from(file.bytes)), file.name).toBe(0);
    }
    expect(existsSync(join(dir, 'noise.bin.br'))).toBe(false);
    expect(existsSync(join(dir, 'noise.bin.gz'))).toBe(false);
  });
});
