/**
 * The smallest protobuf writer that can emit an ONNX `ModelProto` (onnx.proto3 field numbers, proto2
 * wire rules): varints, length-delimited fields and nested messages. Write-only, no dependency.
 * Repeated scalars are written unpacked (the proto2 default every parser accepts).
 */
const utf8 = new TextEncoder();

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Base-128 varint; negative numbers as 64-bit two's complement (10 bytes), as protobuf int64 does. */
export function varint(value: number | bigint): Uint8Array {
  let rest = BigInt.asUintN(64, BigInt(value));
  const bytes: number[] = [];
  do {
    let byte = Number(rest & 0x7fn);
    rest >>= 7n;
    if (rest) byte |= 0x80;
    bytes.push(byte);
  } while (rest);
  return Uint8Array.from(bytes);
}

const key = (field: number, wireType: 0 | 2 | 5) => varint((field << 3) | wireType);

export const int = (field: number, value: number | bigint) => concat([key(field, 0), varint(value)]);
export const bytes = (field: number, data: Uint8Array) => concat([key(field, 2), varint(data.length), data]);
export const string = (field: number, text: string) => bytes(field, utf8.encode(text));
export const message = (field: number, ...parts: Uint8Array[]) => bytes(field, concat(parts));

// ── ONNX messages (field numbers from onnx/onnx.proto) ─────────────────────────────────────────────
export const ONNX_FLOAT = 1;
export const ONNX_INT64 = 7;

/** TensorProto: dims=1, data_type=2, name=8, raw_data=9 (little-endian). */
export function tensor(name: string, dataType: number, dims: readonly number[], raw: Uint8Array): Uint8Array {
  return concat([...dims.map((dim) => int(1, dim)), int(2, dataType), string(8, name), bytes(9, raw)]);
}

/** ValueInfoProto{name=1, type=2: TypeProto{tensor_type=1: {elem_type=1, shape=2: {dim=1: {dim_value=1 | dim_param=2}}}}}. */
export function valueInfo(name: string, elemType: number, shape: readonly (number | string)[]): Uint8Array {
  const dims = shape.map((dim) => message(1, typeof dim === 'number' ? int(1, dim) : string(2, dim)));
  return concat([string(1, name), message(2, message(1, int(1, elemType), message(2, ...dims)))]);
}

/** AttributeProto of type INT (name=1, i=3, type=20 → INT=2). */
export const intAttribute = (name: string, value: number) => concat([string(1, name), int(3, value), int(20, 2)]);

/** NodeProto: input=1, output=2, name=3, op_type=4, attribute=5. */
export function node(opType: string, inputs: readonly string[], outputs: readonly string[], name: string, attributes: readonly Uint8Array[] = []): Uint8Array {
  return concat([...inputs.map((input) => string(1, input)), ...outputs.map((output) => string(2, output)), string(3, name), string(4, opType), ...attributes.map((attribute) => bytes(5, attribute))]);
}

export interface GraphParts {
  name: string;
  nodes: readonly Uint8Array[];
  initializers: readonly Uint8Array[];
  inputs: readonly Uint8Array[];
  outputs: readonly Uint8Array[];
}

/** GraphProto (node=1, name=2, initializer=5, input=11, output=12) wrapped in a ModelProto (ir_version=1, producer_name=2, graph=7, opset_import=8). */
export function model(graph: GraphParts, opset: number, irVersion = 8): Uint8Array {
  const graphBytes = concat([
    ...graph.nodes.map((part) => bytes(1, part)),
    string(2, graph.name),
    ...graph.initializers.map((part) => bytes(5, part)),
    ...graph.inputs.map((part) => bytes(11, part)),
    ...graph.outputs.map((part) => bytes(12, part)),
  ]);
  return concat([int(1, irVersion), string(2, 'kdd-index-tiny-model'), string(3, '1'), bytes(7, graphBytes), message(8, string(1, ''), int(2, opset))]);
}
