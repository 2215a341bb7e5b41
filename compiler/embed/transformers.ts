/**
 * transformers.js backend for {@link Embedder}: `pipeline('feature-extraction')` + mean pooling +
 * L2 normalisation, on onnxruntime-node (CPU).
 *
 * Offline by construction (REQ-003 CA-2): models load only from a local folder, with
 * `env.allowRemoteModels = false`; the folder is passed as an absolute path, which transformers.js
 * never turns into a download. `compiler/embed/pull.ts` is the only code that may download.
 *
 * `@huggingface/transformers` is an optional dependency imported lazily here and in pull.ts only;
 * its types are declared structurally below so the project type-checks without it.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  DEFAULT_DTYPE,
  DEFAULT_MODEL,
  DTYPE_FILE_SUFFIX,
  EmbeddingError,
  MISSING_MODEL_HINT,
  defaultPrefixes,
  embedderId,
  isFolderSpec,
  modelsDir as defaultModelsDir,
  resolveModel,
  type Embedder,
  type ModelDtype,
  type Prefixes,
} from './embedder.js';

// ── The slice of transformers.js we use (structural, so tsc does not need the package) ───────────
export interface TransformersTensor {
  dims: number[];
  data: Float32Array;
  dispose?(): void;
}
export type FeatureExtractor = ((texts: string[], options: { pooling: 'mean'; normalize: boolean }) => Promise<TransformersTensor>) & {
  dispose(): Promise<void>;
};
export interface TransformersProgress {
  status: 'initiate' | 'download' | 'progress' | 'done' | 'ready' | string;
  name?: string;
  file?: string;
  progress?: number;
  loaded?: number;
  total?: number;
}
export interface TransformersLib {
  env: {
    allowRemoteModels: boolean;
    allowLocalModels: boolean;
    localModelPath: string;
    cacheDir: string | null;
    useFSCache: boolean;
  };
  pipeline(
    task: 'feature-extraction',
    model: string,
    options: { dtype?: string; device?: string; local_files_only?: boolean; progress_callback?: (info: TransformersProgress) => void },
  ): Promise<FeatureExtractor>;
}

const SPECIFIER = '@huggingface/transformers';

/** Lazily imports the optional dependency; BACKEND_NOT_INSTALLED when it is absent. */
export async function importTransformers(): Promise<TransformersLib> {
  try {
    return (await import(SPECIFIER)) as TransformersLib;
  } catch (error) {
    throw new EmbeddingError(
      'BACKEND_NOT_INSTALLED',
      `embeddings need the optional dependency ${SPECIFIER} (npm i ${SPECIFIER}): ${(error as Error).message}`,
      null,
      { cause: error },
    );
  }
}

/** Points transformers.js at the local model store; remote loading stays off unless `allowRemote`. */
export function configureEnv(lib: TransformersLib, dir: string, allowRemote = false): void {
  lib.env.allowRemoteModels = allowRemote;
  lib.env.allowLocalModels = true;
  lib.env.localModelPath = dir.endsWith('/') ? dir : `${dir}/`;
  lib.env.cacheDir = dir;
  lib.env.useFSCache = true;
}

export interface TransformersEmbedderOptions {
  /** Hub id (looked up in the models folder) or a local folder path. Default {@link DEFAULT_MODEL}. */
  model?: string;
  /** Which ONNX file to load (`fp32` → model.onnx, `q8` → model_quantized.onnx). Default `q8`. */
  dtype?: ModelDtype;
  /** Model store. Default `$KDD_MODELS_DIR` or `~/.cache/kdd-index/models`. */
  modelsDir?: string;
  /** Base for relative folder paths. Default `process.cwd()`. */
  cwd?: string;
  /** Texts per inference call. Default 16. */
  batchSize?: number;
  /** Query/document prefixes; default by model name (`e5` → `query: ` / `passage: `). */
  prefixes?: Prefixes;
}

/** The files a feature-extraction model folder needs for `dtype`. */
export function requiredModelFiles(dtype: ModelDtype): string[] {
  return ['config.json', 'tokenizer.json', 'tokenizer_config.json', `onnx/model${DTYPE_FILE_SUFFIX[dtype]}.onnx`];
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then((info) => info.isFile(), () => false);
}

/**
 * Loads a local model and returns a ready {@link Embedder} (one probe inference fixes `dimensions`).
 * Throws {@link EmbeddingError}: MODEL_NOT_AVAILABLE (files missing), BACKEND_NOT_INSTALLED,
 * MODEL_LOAD_FAILED (corrupt or unsupported files), EMBEDDING_FAILED (probe failed).
 */
export async function loadTransformersEmbedder(options: TransformersEmbedderOptions = {}): Promise<Embedder> {
  const model = options.model ?? DEFAULT_MODEL;
  const dtype = options.dtype ?? DEFAULT_DTYPE;
  const store = options.modelsDir ?? defaultModelsDir();
  const { folder, name } = resolveModel(model, { modelsDir: store, cwd: options.cwd });
  for (const file of requiredModelFiles(dtype)) {
    if (!(await isFile(join(folder, file)))) {
      const pull = isFolderSpec(model) ? `no ${file} in ${folder}` : `${MISSING_MODEL_HINT(dtype === DEFAULT_DTYPE ? model : `${model} --dtype ${dtype}`)} (missing ${file} in ${folder})`;
      throw new EmbeddingError('MODEL_NOT_AVAILABLE', isFolderSpec(model) ? `model not available locally: ${pull}` : pull, model);
    }
  }
  const lib = await importTransformers();
  configureEnv(lib, store, false);
  let extractor: FeatureExtractor;
  try {
    // An absolute folder is not a hub id: transformers.js reads it from disk and never fetches it.
    extractor = await lib.pipeline('feature-extraction', folder, { dtype, device: 'cpu', local_files_only: true });
  } catch (error) {
    throw new EmbeddingError('MODEL_LOAD_FAILED', `cannot load model ${model} (${dtype}) from ${folder}: ${(error as Error).message}`, model, { cause: error });
  }
  const id = embedderId(name, dtype);
  const prefixes = options.prefixes ?? defaultPrefixes(name);
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 16));
  const run = async (texts: string[]): Promise<Float32Array[]> => {
    let output: TransformersTensor;
    try {
      output = await extractor(texts, { pooling: 'mean', normalize: true });
    } catch (error) {
      throw new EmbeddingError('EMBEDDING_FAILED', `inference failed with ${id}: ${(error as Error).message}`, model, { cause: error });
    }
    const [rows, dims] = output.dims;
    if (output.dims.length !== 2 || rows !== texts.length || !dims) {
      throw new EmbeddingError('EMBEDDING_FAILED', `unexpected output shape [${output.dims.join(', ')}] from ${id}`, model);
    }
    const vectors = Array.from({ length: rows }, (_, row) => output.data.slice(row * dims, (row + 1) * dims));
    output.dispose?.();
    if (vectors.some((vector) => vector.some((value) => !Number.isFinite(value)))) {
      throw new EmbeddingError('EMBEDDING_FAILED', `non-finite values in the output of ${id}`, model);
    }
    return vectors;
  };
  const [probe] = await run([`${prefixes.document}probe`]).catch(async (error: unknown) => {
    await extractor.dispose().catch(() => undefined);
    throw error instanceof EmbeddingError && error.code === 'EMBEDDING_FAILED'
      ? new EmbeddingError('MODEL_LOAD_FAILED', `model ${model} (${dtype}) loads but does not produce embeddings: ${error.message}`, model, { cause: error })
      : error;
  });
  const dimensions = probe!.length;

  const embedDocuments = async (texts: string[]): Promise<Float32Array[]> => {
    // Longest first, so each batch pads to similar lengths; results go back to input order.
    const order = texts.map((_, index) => index).sort((a, b) => texts[b]!.length - texts[a]!.length || a - b);
    const out: Float32Array[] = new Array(texts.length);
    for (let start = 0; start < order.length; start += batchSize) {
      const slice = order.slice(start, start + batchSize);
      const vectors = await run(slice.map((index) => prefixes.document + texts[index]!));
      slice.forEach((index, row) => (out[index] = vectors[row]!));
    }
    return out;
  };
  return {
    id,
    dimensions,
    embedDocuments,
    async embedQuery(text) {
      return (await run([prefixes.query + text]))[0]!;
    },
    async dispose() {
      await extractor.dispose();
    },
  };
}
