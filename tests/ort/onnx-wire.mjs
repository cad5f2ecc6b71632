// onnx-wire.mjs: the little of ONNX's protobuf wire format the ORT harness
// needs, without a protobuf library: read a model's graph (nodes, value
// infos with their shapes), and declare extra value_info entries by appending
// a second `graph` field, which protobuf parsers merge into the first (their
// repeated fields concatenate).

function varint(buf, pos) {
  let v = 0n, shift = 0n, b;
  do {
    if (pos >= buf.length) throw new Error('truncated varint');
    b = buf[pos++];
    v |= BigInt(b & 0x7f) << shift;
    shift += 7n;
  } while (b & 0x80);
  return [v, pos];
}

// The fields of one message: [{field, wire, value}] where value is a
// Buffer (length-delimited), a BigInt (varint) or a Buffer slice (fixed).
export function fields(buf) {
  const out = [];
  let pos = 0;
  while (pos < buf.length) {
    let key;
    [key, pos] = varint(buf, pos);
    const field = Number(key >> 3n), wire = Number(key & 7n);
    if (wire === 0) { let v; [v, pos] = varint(buf, pos); out.push({ field, wire, value: v }); }
    else if (wire === 2) {
      let n; [n, pos] = varint(buf, pos);
      const end = pos + Number(n);
      if (end > buf.length) throw new Error('truncated field');
      out.push({ field, wire, value: buf.subarray(pos, end) }); pos = end;
    } else if (wire === 1) { out.push({ field, wire, value: buf.subarray(pos, pos + 8) }); pos += 8; }
    else if (wire === 5) { out.push({ field, wire, value: buf.subarray(pos, pos + 4) }); pos += 4; }
    else throw new Error(`wire type ${wire}`);
  }
  return out;
}

const str = (b) => Buffer.from(b).toString('utf8');

// TypeProto -> {elem_type, shape: null | [dim]} with dim a number, a string
// (dim_param) or null (neither); null for non-tensor types.
function tensorType(typeBuf) {
  for (const f of fields(typeBuf)) {
    if (f.field !== 1 || f.wire !== 2) continue;   // tensor_type
    let elem = 0, shape = null;
    for (const t of fields(f.value)) {
      if (t.field === 1 && t.wire === 0) elem = Number(t.value);
      else if (t.field === 2 && t.wire === 2) {
        shape = [];
        for (const d of fields(t.value)) {
          if (d.field !== 1) continue;
          let dim = null;
          for (const x of fields(d.value)) {
            if (x.field === 1 && x.wire === 0) dim = Number(BigInt.asIntN(64, x.value));
            else if (x.field === 2 && x.wire === 2) dim = str(x.value);
          }
          shape.push(dim);
        }
      }
    }
    return { elem_type: elem, shape };
  }
  return null;
}

function valueInfo(buf) {
  let name = '', type = null;
  for (const f of fields(buf)) {
    if (f.field === 1) name = str(f.value);
    else if (f.field === 2) type = tensorType(f.value);
  }
  return { name, type, bytes: buf };
}

function node(buf) {
  const n = { inputs: [], outputs: [], name: '', op_type: '', domain: '' };
  for (const f of fields(buf)) {
    if (f.field === 1) n.inputs.push(str(f.value));
    else if (f.field === 2) n.outputs.push(str(f.value));
    else if (f.field === 3) n.name = str(f.value);
    else if (f.field === 4) n.op_type = str(f.value);
    else if (f.field === 7) n.domain = str(f.value);
  }
  return n;
}

// The main graph of a model: {nodes, inputs, outputs, value_info, initializers}.
export function readGraph(modelBuf) {
  const g = { nodes: [], inputs: [], outputs: [], value_info: [], initializers: [] };
  for (const f of fields(modelBuf)) {
    if (f.field !== 7 || f.wire !== 2) continue;
    for (const x of fields(f.value)) {
      if (x.field === 1) g.nodes.push(node(x.value));
      else if (x.field === 11) g.inputs.push(valueInfo(x.value));
      else if (x.field === 12) g.outputs.push(valueInfo(x.value));
      else if (x.field === 13) g.value_info.push(valueInfo(x.value));
      else if (x.field === 5) {
        for (const t of fields(x.value)) if (t.field === 8) g.initializers.push(str(t.value));
      }
    }
  }
  return g;
}

// A varint (negative numbers as their 64-bit two's complement, as protobuf writes int64).
export function encVarint(n) {
  const out = [];
  let v = BigInt.asUintN(64, BigInt(n));
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
  return Buffer.from(out);
}

function encField(field, payload) {
  return Buffer.concat([encVarint((field << 3) | 2), encVarint(payload.length), payload]);
}

function encVarintField(field, n) {
  return Buffer.concat([encVarint(field << 3), encVarint(n)]);
}

// @model with more main-graph outputs: each entry either {bytes} (a
// ValueInfoProto as the model states it) or {name, elem_type} (a tensor type
// without a shape, which Resolve merges the inferred shape into, as it does
// for value_info).
export function addGraphOutputs(modelBuf, entries) {
  const vis = entries.map((e) => encField(12, e.bytes ? Buffer.from(e.bytes) : Buffer.concat([
    encField(1, Buffer.from(e.name, 'utf8')),
    encField(2, encField(1, encVarintField(1, e.elem_type))),
  ])));
  return Buffer.concat([modelBuf, encField(7, Buffer.concat(vis))]);
}

export const ELEM_TYPES = {
  float32: 1, uint8: 2, int8: 3, uint16: 4, int16: 5, int32: 6, int64: 7, string: 8, bool: 9, float16: 10,
  float64: 11, uint32: 12, uint64: 13, complex64: 14, complex128: 15, bfloat16: 16, float8e4m3fn: 17,
  float8e4m3fnuz: 18, float8e5m2: 19, float8e5m2fnuz: 20, uint4: 21, int4: 22, float4e2m1: 23,
};

// A TensorProto as {name, elem_type, dims, data: Buffer of little-endian
// elements} (raw_data or the typed fields; strings are not supported).
export function readTensor(buf) {
  const t = { name: '', elem_type: 0, dims: [], parts: [] };
  for (const f of fields(buf)) {
    if (f.field === 1) {
      if (f.wire === 0) t.dims.push(Number(f.value));
      else { let p = 0; while (p < f.value.length) { let v; [v, p] = varint(f.value, p); t.dims.push(Number(v)); } }
    } else if (f.field === 2) t.elem_type = Number(f.value);
    else if (f.field === 8) t.name = str(f.value);
    else if (f.field === 9) t.raw = Buffer.from(f.value);
    else if ([4, 5, 7, 10, 11].includes(f.field)) t.parts.push(f);
  }
  if (t.raw) t.data = t.raw;
  else {
    // Typed fields: floats (4), int32-carried (5), int64 (7), doubles (10), uint64 (11).
    const size = { 1: 4, 2: 1, 3: 1, 4: 2, 5: 2, 6: 4, 7: 8, 9: 1, 10: 2, 11: 8, 12: 4, 13: 8, 16: 2 }[t.elem_type] ?? 0;
    const out = [];
    for (const f of t.parts) {
      if (f.field === 4 || f.field === 10) {
        const b = Buffer.from(f.wire === 2 ? f.value : f.value);
        out.push(b);
      } else {
        const vals = [];
        if (f.wire === 0) vals.push(f.value);
        else { let p = 0; while (p < f.value.length) { let v; [v, p] = varint(f.value, p); vals.push(v); } }
        for (const v of vals) {
          const b = Buffer.alloc(size);
          let x = BigInt.asUintN(64, v);
          for (let i = 0; i < size; i++) { b[i] = Number(x & 0xffn); x >>= 8n; }
          out.push(b);
        }
      }
    }
    t.data = Buffer.concat(out);
  }
  delete t.parts;
  return t;
}
