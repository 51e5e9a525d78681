// Correctness check + throughput of ONNX Runtime (onnxruntime-node) on all-MiniLM-L6-v2.
// Usage: node bench.mjs [--shape short|long|query] [--threads 1,2] [--batch 8,16,32,64] [--reps 7] [--model minilm-fp32.onnx]
// Shapes (issue 30): short = the 300 reference sentences (10-30 words); long = consecutive reference
// sentences joined until each text has >= 220 tokens (as embed/minilm's BenchmarkShapes builds them);
// query = one 10-word query at batch 1, reported as p50 latency.
import fs from 'node:fs';
import ort from 'onnxruntime-node';
import { loadTokenizer } from './tokenizer.mjs';

const arg = (k, d) => { const i = process.argv.indexOf('--' + k); return i >= 0 ? process.argv[i + 1] : d; };
const dir = arg('dir', process.env.MNEME_MODEL_DIR || `${process.env.HOME}/.cache/mneme/models/all-minilm-l6-v2`);
const refPath = arg('ref', new URL('../../../shared/bench/minilm-ref300.json', import.meta.url).pathname);
const modelPath = arg('model', 'minilm-fp32.onnx');
const threadsList = arg('threads', '2,1').split(',').map(Number);
const batchList = arg('batch', '32').split(',').map(Number);
const reps = Number(arg('reps', '7'));
const shape = arg('shape', 'short');
const tol = Number(arg('tol', '1e-4')); // an int8 model needs a looser bound (--tol 0.1)
const queryText = 'how did we decide where to store the model weights';

const ref = JSON.parse(fs.readFileSync(refPath, 'utf8'));
const encode = loadTokenizer(dir, 256);
const sentences = ref.sentences;
const texts = shape === 'long' ? longTexts(sentences) : sentences;

function longTexts(ss) {
  const out = []; let cur = [];
  for (const s of ss) {
    cur.push(s);
    const t = cur.join(' ');
    if (encode(t).length >= 220) { out.push(t); cur = []; }
  }
  return out;
}
const H = 384;

async function embedAll(session, texts, batchSize) {
  const seqs = texts.map(encode);
  const order = seqs.map((_, i) => i).sort((a, b) => seqs[b].length - seqs[a].length);
  const out = new Array(texts.length);
  for (let s = 0; s < order.length; s += batchSize) {
    const idx = order.slice(s, s + batchSize);
    const B = idx.length, S = Math.max(...idx.map(i => seqs[i].length));
    const ids = new BigInt64Array(B * S), mask = new BigInt64Array(B * S);
    idx.forEach((i, b) => seqs[i].forEach((t, j) => { ids[b * S + j] = BigInt(t); mask[b * S + j] = 1n; }));
    const r = await session.run({
      input_ids: new ort.Tensor('int64', ids, [B, S]),
      attention_mask: new ort.Tensor('int64', mask, [B, S]),
    });
    const hs = r.last_hidden_state.data;
    idx.forEach((i, b) => {
      const n = seqs[i].length, v = new Float64Array(H);
      for (let j = 0; j < n; j++) { const o = (b * S + j) * H; for (let k = 0; k < H; k++) v[k] += hs[o + k]; }
      let ss = 0; for (let k = 0; k < H; k++) { v[k] /= n; ss += v[k] * v[k]; }
      const inv = 1 / Math.max(Math.sqrt(ss), 1e-12);
      out[i] = Float32Array.from(v, x => x * inv);
    });
  }
  return out;
}

const median = (a) => { const s = [...a].sort((x, y) => x - y); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

for (const threads of threadsList) {
  const session = await ort.InferenceSession.create(modelPath, {
    intraOpNumThreads: threads, interOpNumThreads: 1, graphOptimizationLevel: 'all', executionMode: 'sequential',
  });
  // correctness (batched and padded, as timed)
  for (const bs of batchList) {
    const emb = await embedAll(session, sentences, bs);
    let maxd = 0, maxcos = 0;
    emb.forEach((v, i) => {
      let dot = 0;
      v.forEach((x, k) => { maxd = Math.max(maxd, Math.abs(x - ref.embeddings[i][k])); dot += x * ref.embeddings[i][k]; });
      maxcos = Math.max(maxcos, Math.abs(1 - dot));
    });
    if (maxd > tol) { console.error(`threads=${threads} batch=${bs}: max |diff| ${maxd} > ${tol}, refusing to time`); process.exit(1); }
    if (maxd > 1e-4) console.log(`NOTE ${modelPath}: max |diff| vs ref ${maxd.toExponential(2)}, max |cos diff| ${maxcos.toExponential(2)}`);
    if (shape === 'query') continue;
    await embedAll(session, texts, bs); // warm-up
    const rates = [], cpuRates = [];
    for (let r = 0; r < reps; r++) {
      const t0 = process.hrtime.bigint(), c0 = process.cpuUsage();
      await embedAll(session, texts, bs);
      const sec = Number(process.hrtime.bigint() - t0) / 1e9, c = process.cpuUsage(c0);
      rates.push(texts.length / sec);
      cpuRates.push(texts.length / ((c.user + c.system) / 1e6));
    }
    console.log(`RESULT ort ${shape} threads=${threads} batch=${bs} ${median(rates).toFixed(2)} texts/s ` +
      `${median(cpuRates).toFixed(2)} texts/cpu-s (min ${Math.min(...rates).toFixed(1)}, max ${Math.max(...rates).toFixed(1)}, ${reps} reps of ${texts.length}); max |diff| vs ref ${maxd.toExponential(2)}`);
  }
  if (shape === 'query') {
    for (let i = 0; i < 20; i++) await embedAll(session, [queryText], 1);
    const lat = [];
    const c0 = process.cpuUsage();
    for (let r = 0; r < 50 * reps; r++) {
      const t0 = process.hrtime.bigint();
      await embedAll(session, [queryText], 1);
      lat.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    const c = process.cpuUsage(c0);
    console.log(`RESULT ort query threads=${threads} batch=1 ${median(lat).toFixed(3)} ms p50 ` +
      `${((c.user + c.system) / 1e3 / lat.length).toFixed(3)} cpu-ms/op (${lat.length} queries)`);
  }
  await session.release?.();
}
