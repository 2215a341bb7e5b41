/**
 * Writes a tiny, valid transformers.js feature-extraction model folder, so tests exercise the REAL
 * loading and inference path (tokenizer.json → WordPiece → onnxruntime-node → mean pooling) offline:
 *
 *   config.json, tokenizer.json (BERT WordPiece), tokenizer_config.json, onnx/model.onnx
 *
 * The model is a "static embedding" model: Gather over a token table (+ a BERT-style token-type
 * table), multiplied by the attention mask → `last_hidden_state` [batch, seq, DIM]. The pipeline's
 * mean pooling and L2 normalisation do the rest. The table is built so that the words of each
 * {@link TINY_MODEL_GROUPS} group share one direction (plus small per-word noise): grouped words
 * rank together under cosine, unrelated ones do not. ~20 KB, generated in milliseconds.
 *
 * Run directly to write one: `npx tsx test/helpers/tiny-model/make-tiny-model.ts OUT_DIR [NAME]`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ONNX_FLOAT, ONNX_INT64, intAttribute, model, node, tensor, valueInfo } from './protobuf.js';
import { mulberry32 } from '../../../bench/generate.js';

export const TINY_MODEL_DIMENSIONS = 32;

/** Semantic groups (lower-case, accents stripped, as the BERT normaliser leaves them). */
export const TINY_MODEL_GROUPS: Readonly<Record<string, readonly string[]>> = {
  order: ['pedido', 'pedidos', 'order', 'orders', 'orden', 'compra', 'compras', 'purchase'],
  rule: ['regla', 'reglas', 'rule', 'rules', 'norma', 'normas', 'policy', 'politica'],
  merge: ['fusion', 'merge', 'combinar', 'combine', 'unir', 'mezclar'],
  search: ['busqueda', 'buscar', 'search', 'retrieve', 'recuperar', 'consulta', 'query'],
  index: ['indice', 'index', 'indexar', 'indexing', 'indexacion'],
  embedding: ['embedding', 'embeddings', 'vector', 'vectores', 'semantico', 'semantic'],
  user: ['usuario', 'usuarios', 'user', 'users', 'cliente', 'customer', 'actor'],
  event: ['evento', 'eventos', 'event', 'events', 'emitir', 'emit'],
  document: ['documento', 'documentos', 'document', 'documents', 'especificacion', 'spec', 'specs', 'fichero', 'file'],
  graph: ['grafo', 'graph', 'nodo', 'node', 'arista', 'edge', 'relacion', 'relation'],
  error: ['error', 'errores', 'errors', 'fallo', 'failure', 'excepcion', 'exception'],
  payment: ['pago', 'pagos', 'payment', 'factura', 'invoice', 'cobro'],
  state: ['estado', 'estados', 'state', 'ciclo', 'lifecycle', 'transicion', 'transition'],
  model: ['modelo', 'model', 'local', 'offline'],
};

/** Function words: a weak shared direction, so they barely move a text's vector. */
export const TINY_MODEL_FILLERS: readonly string[] = [
  'el', 'la', 'los', 'las', 'de', 'del', 'un', 'una', 'y', 'o', 'en', 'con', 'por', 'para', 'que', 'se', 'es', 'al',
  'the', 'a', 'an', 'of', 'and', 'or', 'in', 'to', 'with', 'for', 'is', 'are', 'be', 'when', 'cuando', 'sistema',
  'system', 'debe', 'must', 'cada', 'each', 'todo', 'all', '.', ',', ':', ';', '(', ')', '-',
];

const SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const;

export interface TinyModelOptions {
  /** Folder name inside `dir` (default `tiny-e5-test`: the `e5` makes the backend add query/passage prefixes). */
  name?: string;
  /** Also write `onnx/model_quantized.onnx` (the file `dtype: 'q8'` loads); same fp32 graph. */
  quantizedCopy?: boolean;
}

/** Token list in id order. */
export function tinyVocabulary(): string[] {
  return [...SPECIAL, ...Object.values(TINY_MODEL_GROUPS).flat(), ...TINY_MODEL_FILLERS];
}

/** Deterministic noise in [-1, 1). */
function noise(seed: number): () => number {
  const next = mulberry32(seed);
  return () => next() * 2 - 1;
}

/**
 * Row layout: dim 0 = shared "function word" direction, dims 1..groups = one per group, the last
 * dims = per-word noise (keeps words of a group distinct but close: cosine ≈ 0.9).
 */
export function tinyEmbeddingTable(): Float32Array {
  const vocabulary = tinyVocabulary();
  const groups = Object.values(TINY_MODEL_GROUPS);
  const table = new Float32Array(vocabulary.length * TINY_MODEL_DIMENSIONS);
  const noiseStart = groups.length + 1;
  vocabulary.forEach((token, id) => {
    const row = table.subarray(id * TINY_MODEL_DIMENSIONS, (id + 1) * TINY_MODEL_DIMENSIONS);
    const random = noise(id + 1);
    const group = groups.findIndex((words) => words.includes(token));
    if (token === '[PAD]') return;
    if (group >= 0) {
      row[group + 1] = 1;
      for (let d = noiseStart; d < TINY_MODEL_DIMENSIONS; d++) row[d] = random() * 0.15;
    } else {
      // Specials and fillers: small, mostly along the shared direction.
      row[0] = token === '[UNK]' ? 0.25 : 0.2;
      for (let d = noiseStart; d < TINY_MODEL_DIMENSIONS; d++) row[d] = random() * 0.03;
    }
  });
  return table;
}

const le = (values: Float32Array | BigInt64Array) => new Uint8Array(values.buffer, values.byteOffset, values.byteLength);

/** The ONNX graph: (Gather(tokens, input_ids) + Gather(types, token_type_ids)) × attention_mask. */
export function tinyOnnxModel(): Uint8Array {
  const vocabulary = tinyVocabulary();
  const dim = TINY_MODEL_DIMENSIONS;
  return model(
    {
      name: 'tiny-static-embedding',
      initializers: [
        tensor('word_embeddings', ONNX_FLOAT, [vocabulary.length, dim], le(tinyEmbeddingTable())),
        tensor('token_type_embeddings', ONNX_FLOAT, [2, dim], le(new Float32Array(2 * dim))),
        tensor('unsqueeze_axes', ONNX_INT64, [1], le(BigInt64Array.of(2n))),
      ],
      nodes: [
        node('Gather', ['word_embeddings', 'input_ids'], ['words'], 'gather_words', [intAttribute('axis', 0)]),
        node('Gather', ['token_type_embeddings', 'token_type_ids'], ['types'], 'gather_types', [intAttribute('axis', 0)]),
        node('Add', ['words', 'types'], ['summed'], 'add_types'),
        node('Cast', ['attention_mask'], ['mask_float'], 'cast_mask', [intAttribute('to', ONNX_FLOAT)]),
        node('Unsqueeze', ['mask_float', 'unsqueeze_axes'], ['mask_3d'], 'unsqueeze_mask'),
        node('Mul', ['summed', 'mask_3d'], ['last_hidden_state'], 'apply_mask'),
      ],
      inputs: [
        valueInfo('input_ids', ONNX_INT64, ['batch_size', 'sequence_length']),
        valueInfo('attention_mask', ONNX_INT64, ['batch_size', 'sequence_length']),
        valueInfo('token_type_ids', ONNX_INT64, ['batch_size', 'sequence_length']),
      ],
      outputs: [valueInfo('last_hidden_state', ONNX_FLOAT, ['batch_size', 'sequence_length', dim])],
    },
    14,
  );
}

function tokenizerJson(): unknown {
  const vocabulary = tinyVocabulary();
  const id = (token: string) => vocabulary.indexOf(token);
  const special = (token: string) => ({ id: id(token), content: token, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  const cls = { SpecialToken: { id: '[CLS]', type_id: 0 } };
  const sep = (type: number) => ({ SpecialToken: { id: '[SEP]', type_id: type } });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL.map(special),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: true, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [cls, { Sequence: { id: 'A', type_id: 0 } }, sep(0)],
      pair: [cls, { Sequence: { id: 'A', type_id: 0 } }, sep(0), { Sequence: { id: 'B', type_id: 1 } }, sep(1)],
      special_tokens: Object.fromEntries(['[CLS]', '[SEP]'].map((token) => [token, { id: token, ids: [id(token)], tokens: [token] }])),
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocabulary.map((token, index) => [token, index])),
    },
  };
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** Writes the model folder `dir/name` and returns its absolute path. */
export async function makeTinyModel(dir: string, options: TinyModelOptions = {}): Promise<string> {
  const folder = resolve(dir, options.name ?? 'tiny-e5-test');
  await mkdir(join(folder, 'onnx'), { recursive: true });
  const vocabulary = tinyVocabulary();
  const onnx = tinyOnnxModel();
  await Promise.all([
    writeFile(
      join(folder, 'config.json'),
      json({ model_type: 'bert', architectures: ['BertModel'], hidden_size: TINY_MODEL_DIMENSIONS, vocab_size: vocabulary.length, max_position_embeddings: 512, type_vocab_size: 2, pad_token_id: 0 }),
    ),
    writeFile(join(folder, 'tokenizer.json'), json(tokenizerJson())),
    writeFile(
      join(folder, 'tokenizer_config.json'),
      json({ tokenizer_class: 'BertTokenizer', do_lower_case: true, strip_accents: true, model_max_length: 512, cls_token: '[CLS]', sep_token: '[SEP]', pad_token: '[PAD]', unk_token: '[UNK]', mask_token: '[MASK]' }),
    ),
    writeFile(join(folder, 'onnx', 'model.onnx'), onnx),
    ...(options.quantizedCopy ? [writeFile(join(folder, 'onnx', 'model_quantized.onnx'), onnx)] : []),
  ]);
  return folder;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const [out, name] = process.argv.slice(2);
  if (!out) {
    process.stderr.write('usage: tsx test/helpers/tiny-model/make-tiny-model.ts OUT_DIR [NAME]\n');
    process.exitCode = 2;
  } else process.stdout.write(`${await makeTinyModel(out, { name })}\n`);
}
