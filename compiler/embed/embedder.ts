/**
 * The L2 embedding seam (BR-INDEX-001, BR-EMBEDDING-001): the compiler sees only {@link Embedder};
 * backends (transformers.js today) live behind it and are imported lazily, so L1 builds, the CLI and
 * the browser runtime never load an ML stack.
 *
 * Node-side only (compiler/): the model folder and cache helpers use `node:` modules.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export interface Embedder {
  /**
   * Stable model identity recorded in the manifest and used as the vector-cache key:
   * `<model>@<dtype>` (e.g. `Xenova/multilingual-e5-small@q8`). Never an absolute path.
   */
  readonly id: string;
  /** Vector length (every vector is L2-normalised). */
  readonly dimensions: number;
  /** Embeds document chunks (`context_text`); the document prefix is applied by the backend. */
  embedDocuments(texts: string[]): Promise<Float32Array[]>;
  /** Embeds a search query; the query prefix is applied by the backend. */
  embedQuery(text: string): Promise<Float32Array>;
  /** Frees the ONNX session (optional). */
  dispose?(): Promise<void>;
}

/** Why L2 is not available; the build maps every code to "degrade to L1 with a warning". */
export type EmbeddingErrorCode =
  /** `@huggingface/transformers` (optional dependency) is not installed. */
  | 'BACKEND_NOT_INSTALLED'
  /** The model folder or one of its files is missing: run `kdd model pull`. */
  | 'MODEL_NOT_AVAILABLE'
  /** Files exist but the tokenizer/config/ONNX session cannot be built (corrupt or unsupported model). */
  | 'MODEL_LOAD_FAILED'
  /** Inference failed at run time (OOM, bad output shape, NaN). */
  | 'EMBEDDING_FAILED'
  /** `kdd model pull` could not download the model. */
  | 'MODEL_DOWNLOAD_FAILED';

/** Process exit codes by error family (same numbers as model/errors.ts EXIT). */
const EXIT_CODES: Record<EmbeddingErrorCode, number> = {
  BACKEND_NOT_INSTALLED: 4,
  MODEL_NOT_AVAILABLE: 4,
  MODEL_LOAD_FAILED: 1,
  EMBEDDING_FAILED: 1,
  MODEL_DOWNLOAD_FAILED: 1,
};

export class EmbeddingError extends Error {
  override readonly name = 'EmbeddingError';
  /** Read by the CLI entry to pick the exit code. */
  readonly exitCode: number;
  constructor(
    readonly code: EmbeddingErrorCode,
    message: string,
    /** Model id or folder the error is about. */
    readonly model: string | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.exitCode = EXIT_CODES[code];
  }
}

export const DEFAULT_MODEL = 'Xenova/multilingual-e5-small';
export const DEFAULT_DTYPE = 'q8';
/** transformers.js dtypes and the ONNX file each one loads (`onnx/model<suffix>.onnx`). */
export const DTYPE_FILE_SUFFIX = {
  fp32: '',
  fp16: '_fp16',
  q8: '_quantized',
  int8: '_int8',
  uint8: '_uint8',
  q4: '_q4',
  q4f16: '_q4f16',
  bnb4: '_bnb4',
} as const;
export type ModelDtype = keyof typeof DTYPE_FILE_SUFFIX;

export function isModelDtype(value: string): value is ModelDtype {
  return Object.hasOwn(DTYPE_FILE_SUFFIX, value);
}

/** `~/.cache/kdd-index/models`, or `$KDD_MODELS_DIR`. */
export function modelsDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.KDD_MODELS_DIR || join(homedir(), '.cache', 'kdd-index', 'models'));
}

/** A model argument is a local folder when it looks like a path (`./x`, `/x`, `~/x`, `C:\x`), else a hub id. */
export function isFolderSpec(model: string): boolean {
  return /^(\.{1,2}([/\\]|$)|[/\\~]|[A-Za-z]:[/\\])/.test(model);
}

export interface ResolvedModel {
  /** Absolute folder holding config.json, tokenizer.json, onnx/… */
  folder: string;
  /** Name recorded in ids: the hub id, or the folder's base name (never an absolute path). */
  name: string;
}

/** Hub id → `<modelsDir>/<owner>/<name>`; a folder path → itself (resolved against `cwd`). */
export function resolveModel(model: string, options: { modelsDir?: string; cwd?: string } = {}): ResolvedModel {
  if (isFolderSpec(model)) {
    const expanded = model.startsWith('~') ? join(homedir(), model.slice(1)) : model;
    const folder = resolve(options.cwd ?? process.cwd(), expanded);
    return { folder, name: folder.split(/[/\\]/).filter(Boolean).at(-1) ?? 'model' };
  }
  if (model.split('/').some((part) => part === '..' || part === '.' || part === '') || model.includes('\\')) {
    throw new EmbeddingError('MODEL_NOT_AVAILABLE', `invalid model id '${model}'`, model);
  }
  return { folder: join(options.modelsDir ?? modelsDir(), ...model.split('/')), name: model };
}

/** `<name>@<dtype>`: the identity stored in the manifest and the cache. */
export function embedderId(name: string, dtype: ModelDtype): string {
  return `${name}@${dtype}`;
}

/** Inverse of {@link embedderId}: `Xenova/multilingual-e5-small@q8` → model + dtype (fp32 when absent). */
export function parseEmbedderId(id: string): { model: string; dtype: ModelDtype } {
  const at = id.lastIndexOf('@');
  const dtype = at > 0 ? id.slice(at + 1) : '';
  return at > 0 && isModelDtype(dtype) ? { model: id.slice(0, at), dtype } : { model: id, dtype: 'fp32' };
}

/** File-system-safe slug of an embedder id: `Xenova/multilingual-e5-small@q8` → `xenova--multilingual-e5-small--q8`. */
export function modelSlug(id: string): string {
  return id.toLowerCase().replace(/[^a-z0-9._-]+/g, '--').replace(/^-+|-+$/g, '') || 'model';
}

export interface Prefixes {
  query: string;
  document: string;
}

/**
 * Instruction prefixes the model was trained with, by model name: e5 → `query: `/`passage: `,
 * nomic-embed → `search_query: `/`search_document: `, English bge → the retrieval instruction.
 * Anything else: none. Override with the backend's `prefixes` option.
 */
export function defaultPrefixes(name: string): Prefixes {
  const lower = name.toLowerCase();
  if (lower.includes('e5')) return { query: 'query: ', document: 'passage: ' };
  if (lower.includes('nomic-embed')) return { query: 'search_query: ', document: 'search_document: ' };
  if (/bge-[a-z]+-en/.test(lower)) return { query: 'Represent this sentence for searching relevant passages: ', document: '' };
  return { query: '', document: '' };
}

export const MISSING_MODEL_HINT = (model: string) => `model not available locally; run \`kdd model pull ${model}\``;
