#!/bin/sh
# Interleaved ORT / Go measurement, same session. Usage: sh run-all.sh [rounds]
set -e
cd "$(dirname "$0")"
[ -f minilm-fp32.onnx ] || node build-onnx.mjs
[ -f minilm-fp32-fused.onnx ] || node build-onnx.mjs --fused
for r in $(seq 1 "${1:-2}"); do
  echo "=== round $r  $(uptime)"
  node bench.mjs --model minilm-fp32.onnx --threads 2,1 --batch 16,32 --reps 7 2>&1 | grep -v CleanUnused
  node bench.mjs --model minilm-fp32-fused.onnx --threads 2,1 --batch 8,16 --reps 7 2>&1 | grep -v CleanUnused
  echo "--- Go  $(uptime)"
  (cd ../.. && go test -run '^$' -bench EmbedSentences -benchtime 5x -count 3 ./embed/minilm/ 2>&1 | grep '^Benchmark')
done
echo "=== end $(uptime)"
