/**
 * `kdd model pull [ID] [--dtype q8]` and `kdd model list`: manage the local embedding-model store
 * (`$KDD_MODELS_DIR` or `~/.cache/kdd-index/models`). `pull` is the only command that downloads.
 */
import { DEFAULT_DTYPE, DEFAULT_MODEL, DTYPE_FILE_SUFFIX, isModelDtype, modelsDir } from '../../compiler/embed/embedder.js';
import type { TransformersProgress } from '../../compiler/embed/transformers.js';
import { parseFlags, UsageError, type CliIO, type Command, type FlagTable } from '../command.js';

const USAGE = `kdd model pull [ID=${DEFAULT_MODEL}] [options]\n       kdd model list [options]`;

/** Every `kdd model` flag: what it parses and what `kdd model --help` prints. */
const MODEL_FLAGS = {
  dtype: { type: 'string', default: DEFAULT_DTYPE, value: 'DTYPE', description: `pull: which ONNX weights to download: ${Object.keys(DTYPE_FILE_SUFFIX).join(', ')} (q8 = 8-bit quantized)` },
  'models-dir': { type: 'string', value: 'DIR', description: 'The local model store (default $KDD_MODELS_DIR or ~/.cache/kdd-index/models)' },
  json: { type: 'boolean', default: false, description: 'Print the result as JSON' },
} as const satisfies FlagTable;

export const modelCommand: Command = {
  name: 'model',
  summary: 'Download (pull) or list the local embedding models used for L2 semantic indexing',
  usage: USAGE,
  flags: MODEL_FLAGS,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, MODEL_FLAGS);
    const [action, id, ...extra] = positionals;
    const store = values['models-dir'] ?? modelsDir();
    if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`);
    // Imported here so `kdd build` and the query commands never load the embedding modules.
    const { listModels, pullModel } = await import('../../compiler/embed/pull.js');
    if (action === 'list') {
      if (id) throw new UsageError(`unexpected argument '${id}'`);
      const models = await listModels({ modelsDir: store });
      if (values.json) io.stdout(`${JSON.stringify({ models_dir: store, models }, null, 2)}\n`);
      else io.stdout(listing(store, models));
      return 0;
    }
    if (action === 'pull') {
      if (!isModelDtype(values.dtype)) throw new UsageError(`--dtype must be one of ${Object.keys(DTYPE_FILE_SUFFIX).join(', ')}`);
      const progress = progressBar(io);
      const result = await pullModel({ model: id ?? DEFAULT_MODEL, dtype: values.dtype, modelsDir: store, onProgress: progress.update });
      progress.finish();
      if (values.json) io.stdout(`${JSON.stringify(result, null, 2)}\n`);
      else io.stdout(`kdd model pull: ${result.id} ready (${result.dimensions} dimensions, ${megabytes(result.bytes)}) in ${result.folder}\n`);
      return 0;
    }
    throw new UsageError(action ? `unknown action '${action}' (expected pull or list)` : 'missing action (pull or list)');
  },
};

function listing(store: string, models: Awaited<ReturnType<typeof import('../../compiler/embed/pull.js').listModels>>): string {
  if (models.length === 0) return `No models in ${store}. Run \`kdd model pull ${DEFAULT_MODEL}\` to enable L2 (semantic) indexing.\n`;
  const width = Math.max(...models.map((model) => model.model.length));
  const rows = models.map((model) => `  ${model.model.padEnd(width)}  ${(model.dtypes.join(',') || '(incomplete)').padEnd(12)}  ${megabytes(model.bytes).padStart(9)}`);
  return `Models in ${store}:\n${rows.join('\n')}\n`;
}

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/** One redrawn line per file on TTYs (at most ~10 redraws/s); one line per finished file otherwise. */
function progressBar(io: CliIO) {
  let last = 0;
  let drawn = false;
  const update = (event: TransformersProgress) => {
    const file = event.file ?? '';
    if (event.status === 'progress' && io.isTTY) {
      const now = Date.now();
      if (now - last < 100 && (event.progress ?? 0) < 100) return;
      last = now;
      const fraction = Math.max(0, Math.min(1, (event.progress ?? 0) / 100));
      const bar = '#'.repeat(Math.round(fraction * 24)).padEnd(24, '.');
      const sizes = event.total ? `  ${megabytes(event.loaded ?? 0)} / ${megabytes(event.total)}` : '';
      io.stderr(`\r\x1b[K  ${file}  [${bar}] ${(fraction * 100).toFixed(0).padStart(3)}%${sizes}`);
      drawn = true;
    } else if (event.status === 'done') {
      if (drawn) io.stderr('\r\x1b[K');
      drawn = false;
      io.stderr(`  ✓ ${file}\n`);
    }
  };
  return {
    update,
    finish() {
      if (drawn) io.stderr('\r\x1b[K');
    },
  };
}
