// Count op types in an ONNX file (e.g. the ORT-optimized model written with optimizedModelFilePath).
import fs from 'node:fs';
import protobuf from 'protobufjs';
const root = protobuf.parse(`syntax="proto2"; package onnx;
message NodeProto { repeated string input=1; repeated string output=2; optional string name=3; optional string op_type=4; optional string domain=7; }
message GraphProto { repeated NodeProto node=1; }
message ModelProto { optional GraphProto graph=7; }`).root;
const m = root.lookupType('onnx.ModelProto').decode(fs.readFileSync(process.argv[2]));
const c = {};
for (const n of m.graph.node) { const k = (n.domain ? n.domain + ':' : '') + n.opType; c[k] = (c[k] || 0) + 1; }
console.log(c);
