/**
 * `npm run build:ts`, after tsc: bundles the compiled CLI (`build/cli/main.js` and the ~100 modules a
 * command loads) into `build/cli/main.js` plus shared chunks in `build/cli/chunks/`, and writes the
 * code fingerprint's memo (`build/code-fingerprint.json`, compiler/cache/code-fingerprint.ts).
 *
 * Why (docs/decisions/build-speed.md): `kdd build` is a short process, and Node 20 resolves, reads
 * and compiles each ES module on its own; a full build of 54 documents spent about a fifth of its
 * CPU loading ~115 modules. The chunks keep the command catalog lazy (each command's code is its own
 * chunk, loaded when that command runs). Packages stay external (loaded from node_modules exactly as
 * the library loads them), but for the front-matter parser's. The rest of `build/` (the library, the
 * runtime) is untouched.
 *
 * `import.meta.url` in a bundled module is rewritten to the URL of its compiled file in `build/`, so
 * paths found from it (the package root, the code that the fingerprint covers) are the same as
 * unbundled. Run on tsc's output only: a `main.js` that is already a bundle is refused.
 */
import { readFile, rm } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const BUILD = fileURLToPath(new URL('../build/', import.meta.url));
const CLI = join(BUILD, 'cli');
const ENTRY = join(CLI, 'main.js');
const MARKER = '// Bundled by scripts/bundle-cli.mjs';
/**
 * gray-matter and what it requires: ~100 CommonJS files (js-yaml alone is 70), each resolved, read and
 * compiled apart by Node's loader, in every build that extracts a file. Inlined into the extractors'
 * chunk they are one module (docs/decisions/build-speed.md has the measurement).
 */
const FRONT_MATTER_PACKAGES = /^(gray-matter|section-matter|kind-of|extend-shallow|is-extendable|strip-bom-string|js-yaml|argparse|sprintf-js)(\/|$)/;
/**
 * js-yaml requires esprima (in a try) for its `!!js/function` type, which only its unsafe full
 * schema has; gray-matter parses with the safe schema. Left out, it is not evaluated on every build:
 * the require throws, and js-yaml carries on without that type, as it does where esprima is missing.
 */
const LEFT_OUT = '\0left-out:esprima';
/** Stands for "the folder of the chunk this ends up in, relative to build/cli/" until the chunk is written. */
const FROM_OUT = '__kdd_from_out__/';

/**
 * A static `import … from 'node:…'` in an ES module makes Node build a facade of that built-in, which
 * reads every one of its exports and so runs their lazy getters: `node:crypto`'s facade loads the
 * whole Web Crypto implementation (~5 ms), `node:zlib`'s ~3.5 ms, for the one or two functions a
 * chunk uses. `process.getBuiltinModule` (Node ≥ 20.16) hands over the module itself. The chunks'
 * static imports of built-ins are rewritten to it; this needs chunks without import cycles (a chunk's
 * bindings exist once its own body has run, not before), which `generateBundle` checks.
 */
const BUILTIN_IMPORT = /^import (?:\{([^}]*)\}|\* as (\w+)|(\w+)) from "(node:[\w/]+)";$/gm;
function builtinFromProcess(_whole, named, namespace, defaulted, id) {
  const binding = named === undefined ? (namespace ?? defaulted) : `{${named.replace(/\b(\w+) as (\w+)\b/g, '$1: $2')}}`;
  return `const ${binding} = process.getBuiltinModule(${JSON.stringify(id)});`;
}

/**
 * The front-matter parser's import of gray-matter, made a call on first use in the bundle: the simple
 * reader (compiler/parse/simple-yaml.ts) answers most specs, and evaluating gray-matter and js-yaml
 * at load cost ~5 ms of every build (docs/decisions/build-speed.md). The library keeps its import.
 */
const FRONT_MATTER_MODULE = /[/\\]compiler[/\\]parse[/\\]front-matter\.js$/;
const GRAY_MATTER_IMPORT = "import matter from 'gray-matter';";
const GRAY_MATTER_ON_FIRST_USE = "let grayMatter;\nconst matter = (...args) => (grayMatter ??= require('gray-matter'))(...args);";

function refuseImportCycles(bundle) {
  const imports = new Map(Object.values(bundle).flatMap((item) => (item.type === 'chunk' ? [[item.fileName, item.imports]] : [])));
  const done = new Set();
  const visit = (file, path) => {
    if (path.includes(file)) throw new Error(`bundle-cli: chunks import each other (${[...path, file].join(' → ')}); built-ins cannot be read through process.getBuiltinModule`);
    if (done.has(file)) return;
    for (const next of imports.get(file) ?? []) visit(next, [...path, file]);
    done.add(file);
  };
  for (const file of imports.keys()) visit(file, []);
}

const source = await readFile(ENTRY, 'utf8');
if (source.includes(MARKER)) {
  console.error('bundle-cli: build/cli/main.js is already a bundle; run tsc -p tsconfig.build.json first');
  process.exit(1);
}

const bundle = await rolldown({
  input: ENTRY,
  platform: 'node',
  // Bare specifiers are packages, loaded from node_modules at run time, except the front-matter parser.
  external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0') && !FRONT_MATTER_PACKAGES.test(id) && id !== 'esprima',
  // gray-matter's JavaScript engine calls eval; compiler/parse/front-matter.ts never lets it run.
  onLog: (level, log, handler) => (log.code === 'EVAL' && log.id?.includes('/gray-matter/') ? undefined : handler(level, log)),
  plugins: [
    {
      name: 'gray-matter-on-first-use',
      transform(code, id) {
        if (!FRONT_MATTER_MODULE.test(id)) return null;
        if (!code.includes(GRAY_MATTER_IMPORT)) throw new Error(`bundle-cli: ${id} no longer imports gray-matter as expected`);
        return { code: code.replace(GRAY_MATTER_IMPORT, GRAY_MATTER_ON_FIRST_USE), map: null };
      },
    },
    {
      name: 'builtins-without-facades',
      renderChunk: (code) => ({ code: code.replace(BUILTIN_IMPORT, builtinFromProcess), map: null }),
      generateBundle: (_options, bundle) => refuseImportCycles(bundle),
    },
    {
      name: 'leave-out-esprima',
      resolveId: (id) => (id === 'esprima' ? LEFT_OUT : null),
      load: (id) => (id === LEFT_OUT ? 'throw new Error("esprima is not part of the bundled CLI");' : null),
    },
    {
      name: 'keep-import-meta-url',
      transform(code, id) {
        // Virtual modules (rolldown's runtime) have no file in build/: their own URL is the chunk's.
        if (id.startsWith('\0') || !code.includes('import.meta.url')) return null;
        const fromOut = relative(CLI, id).split(sep).join('/');
        return { code: code.replaceAll('import.meta.url', `new URL(${JSON.stringify(FROM_OUT + fromOut)}, import.meta.url).href`), map: null };
      },
      renderChunk(code, chunk) {
        if (!code.includes(FROM_OUT)) return null;
        const up = relative(dirname(join(CLI, chunk.fileName)), CLI).split(sep).join('/');
        return { code: code.replaceAll(FROM_OUT, up ? `${up}/` : './'), map: null };
      },
    },
  ],
});
await rm(join(CLI, 'chunks'), { recursive: true, force: true });
await bundle.write({
  dir: CLI,
  format: 'esm',
  entryFileNames: '[name].js',
  chunkFileNames: 'chunks/[name]-[hash].js',
  banner: (chunk) => (chunk.isEntry ? MARKER : ''),
});
await bundle.close();

const { writeCodeFingerprintMemo } = await import('../build/compiler/cache/code-fingerprint.js');
writeCodeFingerprintMemo();
