/**
 * `kdd model pull` / `kdd model list`: the ONLY code path allowed to download (REQ-003: L1 and L2
 * builds never call the network). Files land where {@link loadTransformersEmbedder} looks for them:
 * `<modelsDir>/<owner>/<name>/{config.json, tokenizer.json, tokenizer_config.json, onnx/model*.onnx}`.
 */
import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import {
  DEFAULT_DTYPE,
  DEFAULT_MODEL,
  DTYPE_FILE_SUFFIX,
  EmbeddingError,
  embedderId,
  isFolderSpec,
  modelsDir as defaultModelsDir,
  resolveModel,
  type ModelDtype,
} from './embedder.js';
import { configureEnv, importTransformers, loadTransformersEmbedder, requiredModelFiles, type TransformersProgress } from './transformers.js';
import { compareCodeUnits } from '../../model/order.js';

export interface PullOptions {
  /** Hub id. Default {@link DEFAULT_MODEL}. */
  model?: string;
  dtype?: ModelDtype;
  modelsDir?: string;
  /** transformers.js `progress_callback` events (initiate / download / progress / done / ready). */
  onProgress?: (event: TransformersProgress) => void;
}

export interface PullResult {
  /** Embedder id (`<model>@<dtype>`), what the manifest will record. */
  id: string;
  folder: string;
  dimensions: number;
  /** Files of the model folder, relative, sorted. */
  files: { path: string; bytes: number }[];
  bytes: number;
}

/**
 * Downloads `model` (config, tokenizer, the ONNX file for `dtype`) into the model store, then
 * loads it fully offline to prove the folder works. Re-pulling an existing model is a no-op load.
 */
export async function pullModel(options: PullOptions = {}): Promise<PullResult> {
  const model = options.model ?? DEFAULT_MODEL;
  const dtype = options.dtype ?? DEFAULT_DTYPE;
  const store = options.modelsDir ?? defaultModelsDir();
  if (isFolderSpec(model)) throw new EmbeddingError('MODEL_DOWNLOAD_FAILED', `'${model}' is a local folder, not a model id: nothing to pull`, model);
  const { folder } = resolveModel(model, { modelsDir: store });
  const lib = await importTransformers();
  configureEnv(lib, store, true);
  try {
    const extractor = await lib.pipeline('feature-extraction', model, { dtype, device: 'cpu', progress_callback: options.onProgress });
    await extractor.dispose();
  } catch (error) {
    throw new EmbeddingError('MODEL_DOWNLOAD_FAILED', `cannot download ${model} (${dtype}): ${(error as Error).message}`, model, { cause: error });
  } finally {
    lib.env.allowRemoteModels = false;
  }
  const embedder = await loadTransformersEmbedder({ model, dtype, modelsDir: store });
  await embedder.dispose?.();
  const files = await listFiles(folder);
  return { id: embedder.id, folder, dimensions: embedder.dimensions, files, bytes: files.reduce((sum, file) => sum + file.bytes, 0) };
}

export interface CachedModel {
  /** Hub id (path under the store, `/`-separated). */
  model: string;
  /** Dtypes whose ONNX file and tokenizer/config files are all present, sorted. */
  dtypes: ModelDtype[];
  /** Embedder ids usable offline (`<model>@<dtype>`). */
  ids: string[];
  folder: string;
  bytes: number;
}

/** Every model folder (one holding a config.json) under the store, at most 3 levels deep, sorted. */
export async function listModels(options: { modelsDir?: string } = {}): Promise<CachedModel[]> {
  const store = options.modelsDir ?? defaultModelsDir();
  const found: CachedModel[] = [];
  const visit = async (dir: string, depth: number): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    if (entries.some((entry) => entry.isFile() && entry.name === 'config.json')) {
      const files = await listFiles(dir);
      const present = new Set(files.map((file) => file.path));
      const dtypes = (Object.keys(DTYPE_FILE_SUFFIX) as ModelDtype[]).filter((dtype) => requiredModelFiles(dtype).every((file) => present.has(file))).sort();
      const model = relative(store, dir).split(sep).join('/');
      found.push({ model, dtypes, ids: dtypes.map((dtype) => embedderId(model, dtype)), folder: dir, bytes: files.reduce((sum, file) => sum + file.bytes, 0) });
      return;
    }
    if (depth >= 3) return;
    for (const entry of entries.filter((candidate) => candidate.isDirectory()).sort((a, b) => compareCodeUnits(a.name, b.name))) {
      await visit(join(dir, entry.name), depth + 1);
    }
  };
  await visit(store, 0);
  return found.sort((a, b) => compareCodeUnits(a.model, b.model));
}

async function listFiles(root: string): Promise<{ path: string; bytes: number }[]> {
  const out: { path: string; bytes: number }[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) out.push({ path: relative(root, path).split(sep).join('/'), bytes: (await stat(path)).size });
    }
  };
  await walk(root);
  return out.sort((a, b) => compareCodeUnits(a.path, b.path));
}
