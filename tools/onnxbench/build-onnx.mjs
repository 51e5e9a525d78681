// Build an fp32 ONNX model (opset 17) of all-MiniLM-L6-v2 from the fp16 safetensors.
// Usage: node build-onnx.mjs [modelDir] [out.onnx]
// Output: last_hidden_state [batch, seq, 384]. Pooling/normalisation are done in JS (bench.mjs).
import fs from 'node:fs';
import protobuf from 'protobufjs';

// --fused: use ORT contrib ops (com.microsoft Attention, SkipLayerNormalization, BiasGelu), i.e. the
// graph that onnxruntime.transformers' BERT optimizer would produce. Without it: standard opset-17 ops only.
const fused = process.argv.includes('--fused');
// --int8: ONNX Runtime's dynamic quantisation of the linear layers, the graph its
// quantize_dynamic (per-channel, int8 weights) leaves after fusion: com.microsoft
// DynamicQuantizeMatMul (activations quantised to uint8 per tensor at run time).
const int8 = process.argv.includes('--int8');
const pos_ = process.argv.slice(2).filter(a => !a.startsWith('--'));
const dir = pos_[0] || process.env.MNEME_MODEL_DIR || `${process.env.HOME}/.cache/mneme/models/all-minilm-l6-v2`;
const out = pos_[1] || (int8 ? 'minilm-int8.onnx' : fused ? 'minilm-fp32-fused.onnx' : 'minilm-fp32.onnx');

// ---- minimal subset of onnx.proto (field numbers as in onnx/onnx.proto) ----
const schema = `
syntax = "proto2";
package onnx;
message AttributeProto {
  enum AttributeType { UNDEFINED = 0; FLOAT = 1; INT = 2; STRING = 3; TENSOR = 4; GRAPH = 5; FLOATS = 6; INTS = 7; STRINGS = 8; }
  optional string name = 1;
  optional float f = 2;
  optional int64 i = 3;
  optional bytes s = 4;
  optional TensorProto t = 5;
  repeated float floats = 7;
  repeated int64 ints = 8;
  optional AttributeType type = 20;
}
message ValueInfoProto { optional string name = 1; optional TypeProto type = 2; }
message NodeProto {
  repeated string input = 1; repeated string output = 2; optional string name = 3;
  optional string op_type = 4; repeated AttributeProto attribute = 5; optional string domain = 7;
}
message ModelProto {
  optional int64 ir_version = 1; optional string producer_name = 2;
  optional GraphProto graph = 7; repeated OperatorSetIdProto opset_import = 8;
}
message GraphProto {
  repeated NodeProto node = 1; optional string name = 2; repeated TensorProto initializer = 5;
  repeated ValueInfoProto input = 11; repeated ValueInfoProto output = 12;
}
message TensorProto {
  repeated int64 dims = 1; optional int32 data_type = 2; optional string name = 8; optional bytes raw_data = 9;
}
message TensorShapeProto {
  message Dimension { optional int64 dim_value = 1; optional string dim_param = 2; }
  repeated Dimension dim = 1;
}
message TypeProto {
  message Tensor { optional int32 elem_type = 1; optional TensorShapeProto shape = 2; }
  optional Tensor tensor_type = 1;
}
message OperatorSetIdProto { optional string domain = 1; optional int64 version = 2; }
`;
const root = protobuf.parse(schema).root;
const ModelProto = root.lookupType('onnx.ModelProto');
const FLOAT = 1, INT8 = 3, INT64 = 7;

// ---- safetensors reader (fp16 -> fp32) ----
const buf = fs.readFileSync(`${dir}/model.fp16.safetensors`);
const hlen = Number(buf.readBigUInt64LE(0));
const header = JSON.parse(buf.subarray(8, 8 + hlen).toString('utf8'));
const base = 8 + hlen;
function f16tof32(h) {
  const s = (h & 0x8000) ? -1 : 1, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}
const f16lut = new Float32Array(65536);
for (let i = 0; i < 65536; i++) f16lut[i] = f16tof32(i);
function load(name) {
  const t = header[name];
  if (!t) throw new Error('missing tensor ' + name);
  if (t.dtype !== 'F16') throw new Error(name + ' dtype ' + t.dtype);
  const [a, b] = t.data_offsets;
  const n = (b - a) / 2;
  const o = new Float32Array(n);
  for (let i = 0; i < n; i++) o[i] = f16lut[buf.readUInt16LE(base + a + 2 * i)];
  return { data: o, shape: t.shape };
}
function transpose2d({ data, shape: [r, c] }) { // [out,in] -> [in,out]
  const o = new Float32Array(r * c);
  for (let i = 0; i < r; i++) for (let j = 0; j < c; j++) o[j * r + i] = data[i * c + j];
  return { data: o, shape: [c, r] };
}

// ---- graph builder ----
const nodes = [], inits = [];
let uid = 0;
const fresh = (p) => `${p}_${uid++}`;
function init(name, data, dims, type = FLOAT) {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  inits.push({ name, dims, dataType: type, rawData: bytes });
  return name;
}
const f32 = (name, arr, dims) => init(name, Float32Array.from(arr), dims);
const i64 = (name, arr) => init(name, BigInt64Array.from(arr.map(BigInt)), [arr.length], INT64);
function attr(name, v) {
  if (typeof v === 'number' && !Number.isInteger(v)) return { name, type: 1, f: v };
  if (typeof v === 'object' && v.float !== undefined) return { name, type: 1, f: v.float };
  if (typeof v === 'number') return { name, type: 2, i: v };
  if (Array.isArray(v)) return { name, type: 7, ints: v };
  throw new Error('attr ' + name);
}
function op(type, inputs, attrs = {}, nout = 1, domain = '') {
  const outs = Array.from({ length: nout }, () => fresh(type));
  nodes.push({ opType: type, input: inputs, output: outs, name: fresh('n_' + type), domain,
    attribute: Object.entries(attrs).map(([k, v]) => attr(k, v)) });
  return nout === 1 ? outs[0] : outs;
}

const H = 384, NH = 12, HD = 32, L = 6, EPS = { float: 1e-12 };

// constants
const c_heads = i64('c_heads_shape', [0, 0, NH, HD]);
const c_hidden = i64('c_hidden_shape', [0, 0, H]);
const c_zero1 = i64('c_zero1', [0]);
const c_axes0 = i64('c_axes0', [0]);
const c_axes12 = i64('c_axes12', [1, 2]);
const c_sqrt2 = f32('c_sqrt2', [Math.SQRT2], []);
const c_one = f32('c_one', [1], []);
const c_negbig = f32('c_negbig', [-1e4], []); // HF BERT uses a large negative; exp underflows to 0 either way
const c_half = f32('c_half', [0.5], []);
const ms = (type, inputs, attrs = {}, nout = 1) => op(type, inputs, attrs, nout, 'com.microsoft');

function linear(x, prefix) {
  const w = transpose2d(load(prefix + '.weight'));
  const b = load(prefix + '.bias');
  if (int8) { // per output column: scale = max|w|/127, symmetric (zero point 0)
    const [K, N] = w.shape, q = new Int8Array(K * N), sc = new Float32Array(N);
    for (let j = 0; j < N; j++) {
      let m = 0; for (let i = 0; i < K; i++) m = Math.max(m, Math.abs(w.data[i * N + j]));
      sc[j] = m / 127 || 1;
      for (let i = 0; i < K; i++) q[i * N + j] = Math.round(w.data[i * N + j] / sc[j]);
    }
    return op('DynamicQuantizeMatMul', [x, init(prefix + '.weight_q', q, w.shape, INT8), init(prefix + '.weight_scale', sc, [N]),
      init(prefix + '.weight_zp', new Int8Array(N), [N], INT8), init(prefix + '.bias', b.data, b.shape)], {}, 1, 'com.microsoft');
  }
  const wn = init(prefix + '.weight_T', w.data, w.shape);
  const bn = init(prefix + '.bias', b.data, b.shape);
  return op('Add', [op('MatMul', [x, wn]), bn]);
}
function layerNorm(x, prefix) {
  const g = load(prefix + '.weight'), b = load(prefix + '.bias');
  return op('LayerNormalization', [x, init(prefix + '.weight', g.data, g.shape), init(prefix + '.bias', b.data, b.shape)],
    { axis: -1, epsilon: EPS });
}

// embeddings
const we = load('embeddings.word_embeddings.weight');
const pe = load('embeddings.position_embeddings.weight');
const te = load('embeddings.token_type_embeddings.weight');
const wen = init('word_embeddings', we.data, we.shape);
const pen = init('position_embeddings', pe.data, pe.shape);
const ten = init('token_type0', te.data.slice(0, H), [H]);
const words = op('Gather', [wen, 'input_ids'], { axis: 0 });
const seqLen = op('Shape', ['input_ids'], { start: 1, end: 2 }); // [S]
const pos = op('Slice', [pen, c_zero1, seqLen, c_axes0]); // [S,384]
let h = op('Add', [op('Add', [words, pos]), ten]);
h = layerNorm(h, 'embeddings.LayerNorm');

// additive mask [B,1,1,S]
const maskF = op('Cast', ['attention_mask'], { to: FLOAT });
const maskAdd = op('Unsqueeze', [op('Mul', [op('Sub', [c_one, maskF]), c_negbig]), c_axes12]);

const maskI32 = fused ? op('Cast', ['attention_mask'], { to: 6 /* INT32 */ }) : null;
function lnParams(prefix) {
  const g = load(prefix + '.weight'), b = load(prefix + '.bias');
  return [init(prefix + '.weight', g.data, g.shape), init(prefix + '.bias', b.data, b.shape)];
}
function linParams(prefix) {
  const w = transpose2d(load(prefix + '.weight')), b = load(prefix + '.bias');
  return [init(prefix + '.weight_T', w.data, w.shape), init(prefix + '.bias', b.data, b.shape)];
}
for (let l = 0; l < L; l++) {
  const p = `encoder.layer.${l}`;
  if (fused) {
    // QKV weights concatenated along the output dim: [384, 3*384]
    const ws = ['query', 'key', 'value'].map(n => transpose2d(load(`${p}.attention.self.${n}.weight`)));
    const bs = ['query', 'key', 'value'].map(n => load(`${p}.attention.self.${n}.bias`).data);
    const wqkv = new Float32Array(H * 3 * H);
    for (let i = 0; i < H; i++) for (let j = 0; j < 3; j++) wqkv.set(ws[j].data.subarray(i * H, (i + 1) * H), i * 3 * H + j * H);
    const bqkv = new Float32Array(3 * H); bs.forEach((b, j) => bqkv.set(b, j * H));
    const ctx = ms('Attention', [h, init(`${p}.qkv.weight`, wqkv, [H, 3 * H]), init(`${p}.qkv.bias`, bqkv, [3 * H]), maskI32],
      { num_heads: NH });
    const [wo, bo] = linParams(`${p}.attention.output.dense`);
    h = ms('SkipLayerNormalization', [op('MatMul', [ctx, wo]), h, ...lnParams(`${p}.attention.output.LayerNorm`), bo], { epsilon: EPS });
    const [wi, bi] = linParams(`${p}.intermediate.dense`);
    const gelu = ms('BiasGelu', [op('MatMul', [h, wi]), bi]);
    const [w2, b2] = linParams(`${p}.output.dense`);
    h = ms('SkipLayerNormalization', [op('MatMul', [gelu, w2]), h, ...lnParams(`${p}.output.LayerNorm`), b2], { epsilon: EPS });
    continue;
  }
  const q = linear(h, `${p}.attention.self.query`);
  const k = linear(h, `${p}.attention.self.key`);
  const v = linear(h, `${p}.attention.self.value`);
  const qh = op('Transpose', [op('Reshape', [q, c_heads])], { perm: [0, 2, 1, 3] }); // [B,NH,S,HD]
  const kh = op('Transpose', [op('Reshape', [k, c_heads])], { perm: [0, 2, 3, 1] }); // [B,NH,HD,S]
  const vh = op('Transpose', [op('Reshape', [v, c_heads])], { perm: [0, 2, 1, 3] });
  const scores = op('Add', [op('Div', [op('MatMul', [qh, kh]), f32(`${p}.sqrt_hd`, [Math.sqrt(HD)], [])]), maskAdd]);
  const probs = op('Softmax', [scores], { axis: -1 });
  const ctx = op('Reshape', [op('Transpose', [op('MatMul', [probs, vh])], { perm: [0, 2, 1, 3] }), c_hidden]);
  const attnOut = linear(ctx, `${p}.attention.output.dense`);
  h = layerNorm(op('Add', [attnOut, h]), `${p}.attention.output.LayerNorm`);
  const inter = linear(h, `${p}.intermediate.dense`);
  // GELU(x) = ((x * (1 + erf(x / sqrt2))) * 0.5, in the node order PyTorch exports (ORT's GeluFusion pattern)
  const gelu = op('Mul', [op('Mul', [inter, op('Add', [op('Erf', [op('Div', [inter, c_sqrt2])]), c_one])]), c_half]);
  const ffn = linear(gelu, `${p}.output.dense`);
  h = layerNorm(op('Add', [ffn, h]), `${p}.output.LayerNorm`);
}
nodes.push({ opType: 'Identity', input: [h], output: ['last_hidden_state'], name: 'out' });

const vi = (name, elem, dims) => ({ name, type: { tensorType: { elemType: elem, shape: { dim: dims.map(d => typeof d === 'string' ? { dimParam: d } : { dimValue: d }) } } } });
const model = {
  irVersion: 8, producerName: 'onnxbench-build',
  opsetImport: [{ domain: '', version: 17 }, ...(fused ? [{ domain: 'com.microsoft', version: 1 }] : [])],
  graph: {
    name: 'minilm', node: nodes, initializer: inits,
    input: [vi('input_ids', INT64, ['batch', 'seq']), vi('attention_mask', INT64, ['batch', 'seq'])],
    output: [vi('last_hidden_state', FLOAT, ['batch', 'seq', H])],
  },
};
const err = ModelProto.verify(model);
if (err) throw new Error(err);
const bytes = ModelProto.encode(ModelProto.fromObject(model)).finish();
fs.writeFileSync(out, bytes);
console.log(`wrote ${out}: ${nodes.length} nodes, ${inits.length} initializers, ${(bytes.length / 1e6).toFixed(1)} MB`);
