// Issue 30's comparison in one process tree: ONNX Runtime (bench.mjs) and
// mneme's Go benchmark (embed/minilm BenchmarkShapes) alternate, round after
// round, on 1 and 2 threads, for the three shapes; medians and ratios at the
// end. ORT is taken at its best batch size in each round (a sweep), mneme
// at its own batching (up to 64 texts / 1,024 tokens a pass).
// Usage: node compare.mjs [--rounds 5] [--threads 1,2] [--shapes short,long,query] [--int8] [--sweep] [--reps 2]   (run from tools/onnxbench)
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import fs from 'node:fs';

const arg = (k, d) => { const i = process.argv.indexOf('--' + k); return i >= 0 ? process.argv[i + 1] : d; };
const rounds = Number(arg('rounds', '5'));
const threadList = arg('threads', '1,2').split(',').map(Number);
const int8 = process.argv.includes('--int8');
const root = new URL('../..', import.meta.url).pathname;
const goBin = `${os.tmpdir()}/mneme-minilm-compare.test`;
const ref = new URL('../../../shared/bench/minilm-ref300.json', import.meta.url).pathname;
execFileSync('go', ['test', '-c', '-o', goBin, './embed/minilm/'], { cwd: root, stdio: 'inherit', env: { ...process.env, CGO_ENABLED: '0' } });
if (!fs.existsSync('minilm-fp32.onnx')) execFileSync('node', ['build-onnx.mjs'], { stdio: 'inherit' });
if (int8 && !fs.existsSync('minilm-int8.onnx')) execFileSync('node', ['build-onnx.mjs', '--int8'], { stdio: 'inherit' });

// ORT's batch sweep: its best sizes in the sweep were 8-16 for short
// texts and 1 for long ones (--sweep widens it).
const sweep = process.argv.includes('--sweep');
const allShapes = { short: sweep ? '8,16,32,64' : '8', long: sweep ? '1,2,4' : '1', query: '1' };
const shapes = Object.fromEntries(arg('shapes', 'short,long,query').split(',').map(s => {
  if (!allShapes[s]) throw new Error(`--shapes: ${s} is not a shape: use short, long or query`);
  return [s, allShapes[s]];
}));
const sides = [['ort', 'minilm-fp32.onnx', 'BenchmarkShapes'], ...(int8 ? [['ort-int8', 'minilm-int8.onnx', 'BenchmarkShapesInt8']] : [])];
const res = {}; // key "side shape threads metric" -> [values]
const put = (k, v) => (res[k] ??= []).push(v);
const loads = [];

function ort(model, shape, threads) {
  const out = execFileSync('node', ['bench.mjs', '--model', model, '--shape', shape, '--threads', String(threads),
    '--batch', shapes[shape], '--reps', shape === 'query' ? '2' : arg('reps', '2'), '--tol', model.includes('int8') ? '0.1' : '1e-4'],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  let best = { rate: 0, cpu: 0 }, q = null;
  for (const l of out.split('\n').filter(l => l.startsWith('RESULT'))) {
    if (shape === 'query') { q = { p50: Number(l.match(/([\d.]+) ms p50/)[1]), cpu: Number(l.match(/([\d.]+) cpu-ms\/op/)[1]) }; continue; }
    const rate = Number(l.match(/ ([\d.]+) texts\/s/)[1]), cpu = Number(l.match(/([\d.]+) texts\/cpu-s/)[1]);
    if (rate > best.rate) best = { rate, cpu };
  }
  return shape === 'query' ? q : best;
}

function mneme(bench, shape, threads) {
  const out = execFileSync(goBin, ['-test.run', '^$', '-test.bench', `^${bench}$/${shape}$`, '-test.cpu', String(threads),
    '-test.benchtime', shape === 'query' ? '100x' : '1x'], { cwd: `${root}/embed/minilm`, encoding: 'utf8', env: { ...process.env, MNEME_MINILM_REF: ref } });
  const l = out.split('\n').find(l => l.startsWith('Benchmark'));
  if (shape === 'query') return { p50: Number(l.match(/([\d.]+) p50-ms/)[1]), cpu: Number(l.match(/([\d.]+) cpu-ms\/op/)[1]) };
  return { rate: Number(l.match(/ ([\d.]+) texts\/s/)[1]), cpu: Number(l.match(/([\d.]+) texts\/cpu-s/)[1]) };
}

for (let r = 1; r <= rounds; r++) {
  for (const threads of threadList) for (const shape of Object.keys(shapes)) for (const [name, model, bench] of sides) {
    loads.push(os.loadavg()[0]);
    // alternate which side goes first, so drifting load favours neither
    const order = r % 2 ? ['ort', 'go'] : ['go', 'ort'];
    for (const who of order) {
      const v = who === 'ort' ? ort(model, shape, threads) : mneme(bench, shape, threads);
      const side = who === 'ort' ? name : name.replace('ort', 'mneme');
      for (const [k, x] of Object.entries(v)) put(`${side} ${shape} ${threads} ${k}`, x);
    }
  }
  console.error(`round ${r}/${rounds} done, load ${os.loadavg()[0].toFixed(1)}`);
}

const median = (a) => { const s = [...a].sort((x, y) => x - y); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const med = (k) => res[k] ? median(res[k]) : NaN;
console.log(`${new Date().toISOString().slice(0, 10)}, ${os.cpus()[0].model}, ${os.cpus().length} vCPUs; ${rounds} alternating rounds; ` +
  `load average during the runs: median ${median(loads).toFixed(1)}, max ${Math.max(...loads).toFixed(1)}`);
console.log('| workload | threads | ONNX Runtime | mneme | ratio (wall) | ratio (CPU time) |');
console.log('|---|---|---|---|---|---|');
for (const [name] of sides) for (const shape of Object.keys(shapes)) for (const t of threadList) {
  const o = `${name} ${shape} ${t}`, g = `${name.replace('ort', 'mneme')} ${shape} ${t}`;
  const label = `${shape}${name.endsWith('int8') ? ' (int8)' : ''}`;
  if (shape === 'query') {
    console.log(`| ${label}, p50 ms | ${t} | ${med(o + ' p50').toFixed(2)} | ${med(g + ' p50').toFixed(2)} | ${(med(o + ' p50') / med(g + ' p50')).toFixed(2)}× | ${(med(o + ' cpu') / med(g + ' cpu')).toFixed(2)}× |`);
  } else {
    console.log(`| ${label}, texts/s | ${t} | ${med(o + ' rate').toFixed(1)} | ${med(g + ' rate').toFixed(1)} | ${(med(g + ' rate') / med(o + ' rate')).toFixed(2)}× | ${(med(g + ' cpu') / med(o + ' cpu')).toFixed(2)}× |`);
  }
}
console.log('ratio > 1: mneme faster (for queries: ORT latency / mneme latency). CPU-time ratios compare the work done, which a loaded machine disturbs less than the wall clock.');
