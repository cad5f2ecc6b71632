#!/usr/bin/python3
"""One-node models that ask ONNX Runtime which ONNX ops its CPU provider runs
in float16 (data/kernel-defs.json "fp16_kernels" comes from them; see
tests/ort/ort-fp16-kernels.mjs, which runs them and writes the table).

Usage: ort-fp16-probe.py OUT_DIR
For every ONNX op schema python3-onnx knows (each since_version, and the
newest one again at every later opset ORT 1.30 reads, up to 23), writes a
model with one node whose inputs are graph inputs without shapes, twice:
float16 (then float32) where the type constraint allows it, else int64, else
the first allowed type;
required attributes get a plain value where one is obvious. Prints a JSON
manifest [{"model", "op_type", "opset", "elem", "typed"}] (typed: some
input is of type elem); ops it cannot build are left out.
"""
import json
import os
import sys

import onnx
import onnx.defs
from onnx import TensorProto, helper

LAST_OPSET = 23
TYPES = {'tensor(float16)': TensorProto.FLOAT16, 'tensor(int64)': TensorProto.INT64,
         'tensor(float)': TensorProto.FLOAT, 'tensor(bool)': TensorProto.BOOL, 'tensor(int32)': TensorProto.INT32,
         'tensor(uint8)': TensorProto.UINT8, 'tensor(int8)': TensorProto.INT8, 'tensor(string)': TensorProto.STRING}
# Values for required attributes, by name.
REQUIRED = {'to': TensorProto.FLOAT16, 'axis': 0, 'axes': [0], 'kernel_shape': [1, 1], 'perm': [0], 'split': [1],
            'value': helper.make_tensor('v', TensorProto.FLOAT16, [1], [0]), 'body': None, 'then_branch': None,
            'else_branch': None, 'shape': [1], 'mode': 'constant', 'size': 1, 'blocksize': 1, 'dtype': 10}
SKIP = {'Constant', 'If', 'Loop', 'Scan', 'SequenceMap'}
# Ops newer than python3-onnx 1.12's schemas: (since, inputs ('T' = the
# probed float type), attributes), probed from since up to LAST_OPSET.
EXTRA = {
    'Mish': (18, ['T'], {}),
    'CenterCropPad': (18, ['T', 'int64'], {}),
    'GroupNormalization': (18, ['T', 'T', 'T'], {'num_groups': 1}),
    'Gelu': (20, ['T'], {}),
    'AffineGrid': (20, ['T', 'int64'], {}),
    'RMSNormalization': (23, ['T', 'T'], {}),
    'Attention': (23, ['T', 'T', 'T'], {}),
    'RotaryEmbedding': (23, ['T', 'T', 'T'], {}),
    'Swish': (24, ['T'], {}),
}


def tensor_type(schema, formal, prefer):
    allowed = None
    for c in schema.type_constraints:
        if c.type_param_str == formal.typeStr:
            allowed = list(c.allowed_type_strs)
    if allowed is None:
        allowed = [formal.typeStr]
    for want in (prefer, 'tensor(int64)'):
        if want in allowed:
            return TYPES[want]
    for a in allowed:
        if a in TYPES:
            return TYPES[a]
    return None


def build(schema, opset, prefer):
    if schema.name in SKIP or schema.deprecated:
        return None
    inputs, names = [], []
    for k, f in enumerate(schema.inputs):
        t = tensor_type(schema, f, prefer)
        if t is None:
            return None
        n = 2 if f.option == onnx.defs.OpSchema.FormalParameterOption.Variadic else 1
        for j in range(n):
            name = 'in%d_%d' % (k, j)
            inputs.append(helper.make_tensor_value_info(name, t, None))
            names.append(name)
    outs = ['out%d' % k for k in range(len(schema.outputs))]
    attrs = {}
    for name, a in schema.attributes.items():
        if a.required:
            if name not in REQUIRED or REQUIRED[name] is None:
                return None
            attrs[name] = REQUIRED[name]
    node = helper.make_node(schema.name, names, outs, name='probe', **attrs)
    outputs = [helper.make_value_info(o, onnx.TypeProto()) for o in outs]
    graph = helper.make_graph([node], 'probe', inputs, outputs)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid('', opset)])
    model.ir_version = 8
    return model


def main(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    out = argv[1]
    os.makedirs(out, exist_ok=True)
    by_name = {}
    for s in onnx.defs.get_all_schemas_with_history():
        if s.domain == '':
            by_name.setdefault(s.name, []).append(s)
    manifest = []
    for name, schemas in sorted(by_name.items()):
        schemas.sort(key=lambda s: s.since_version)
        for i, s in enumerate(schemas):
            last = i == len(schemas) - 1
            opsets = [s.since_version] + (list(range(max(s.since_version + 1, 18), LAST_OPSET + 1)) if last else [])
            for opset in opsets:
                for elem, prefer in (('float16', 'tensor(float16)'), ('float32', 'tensor(float)')):
                    model = build(s, opset, prefer)
                    if model is None:
                        continue
                    path = os.path.join(out, '%s-%d-%s.onnx' % (name, opset, elem))
                    onnx.save(model, path)
                    want = TYPES[prefer]
                    typed = any(i.type.tensor_type.elem_type == want for i in model.graph.input)
                    manifest.append({'model': path, 'op_type': name, 'opset': opset, 'elem': elem, 'typed': typed})
    for name, (since, ins, attrs) in sorted(EXTRA.items()):
        for opset in range(since, LAST_OPSET + 1):
            for elem, t in (('float16', TensorProto.FLOAT16), ('float32', TensorProto.FLOAT)):
                inputs = [helper.make_tensor_value_info('in%d' % k, t if x == 'T' else TensorProto.INT64, None)
                          for k, x in enumerate(ins)]
                node = helper.make_node(name, [i.name for i in inputs], ['out0'], name='probe', **attrs)
                graph = helper.make_graph([node], 'probe', inputs, [helper.make_value_info('out0', onnx.TypeProto())])
                model = helper.make_model(graph, opset_imports=[helper.make_opsetid('', opset)])
                model.ir_version = 8
                path = os.path.join(out, '%s-%d-%s.onnx' % (name, opset, elem))
                with open(path, 'wb') as f:
                    f.write(model.SerializeToString())
                manifest.append({'model': path, 'op_type': name, 'opset': opset, 'elem': elem, 'typed': True})
    json.dump(manifest, sys.stdout)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
