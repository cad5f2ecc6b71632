#!/usr/bin/python3
"""Variants of a model that exercise what ONNX Runtime does to the graphs
people deploy (issue 12): symbolic dims, float16, dynamic quantization and an
If at the top. Written with the onnx package (python3-onnx); nothing here is
committed as a model: the ORT tests make the variants into a temporary folder.

Usage: ort-variants.py OUT_DIR MODEL.onnx... [--only KIND,...]
Prints a JSON manifest on stdout: [{"model", "family", "source", "bounds",
"input_values"}], where bounds and input_values are what to feed ORT
(ort-profile.mjs --bound / --input-value) and planviz (--bound /
--input-value) for the run to be valid.

Kinds:
  sym        the first graph input's batch dim becomes "batch" and its spatial
             dims "height"/"width" (outputs' batch dim too); value_info dropped
  fp16       float weights and activations as float16, float32 at the inputs
             and outputs (a Cast after each input, before each output)
  fp16-io    float16 everywhere, inputs and outputs too
  dq         dynamic quantization: Conv -> DynamicQuantizeLinear + ConvInteger,
             Gemm/MatMul -> DynamicQuantizeLinear + MatMulInteger, then Cast,
             Mul by the scales, Add the bias (the pattern onnxruntime's
             quantize_dynamic writes), opset 11
  if-shape   an If at the top whose condition is Equal(Gather(Shape(x), 1), C):
             then passes x on, else transposes it (another shape)
  if-value   the same If on Equal(mode, 16000) with an int64 scalar input
             "mode" (fed 16000)
"""
import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

FLOAT, FLOAT16 = TensorProto.FLOAT, TensorProto.FLOAT16


def real_inputs(g):
    inits = {i.name for i in g.initializer}
    return [i for i in g.input if i.name not in inits]


def shape_of(vi):
    return [d.dim_value if d.HasField('dim_value') else (d.dim_param or None) for d in vi.type.tensor_type.shape.dim]


def add_initializers(model, inits):
    """Appends @inits; before IR 4 initializers are graph inputs too."""
    g = model.graph
    for i in inits:
        g.initializer.append(i)
        if model.ir_version < 4:
            g.input.append(helper.make_tensor_value_info(i.name, i.data_type, list(i.dims)))


def replace_graph_body(model, nodes, inits, min_opset):
    """The graph's nodes become @nodes, @inits are added, the value_info
    (now stale) dropped and the default opset raised to @min_opset."""
    g = model.graph
    del g.node[:]
    g.node.extend(nodes)
    add_initializers(model, inits)
    del g.value_info[:]
    for o in model.opset_import:
        if o.domain in ('', 'ai.onnx') and o.version < min_opset:
            o.version = min_opset


# ---- sym ----

def make_sym(model):
    g = model.graph
    bounds = {}
    x = real_inputs(g)[0]
    dims = x.type.tensor_type.shape.dim
    names = ['batch', None, 'height', 'width'] if len(dims) == 4 else ['batch'] + [None] * (len(dims) - 1)
    for d, name in zip(dims, names):
        if name and d.HasField('dim_value'):
            bounds[name] = d.dim_value
            d.ClearField('dim_value')
            d.dim_param = name
    for o in g.output:
        od = o.type.tensor_type.shape.dim
        if len(od) and od[0].HasField('dim_value') and od[0].dim_value == bounds.get('batch'):
            od[0].ClearField('dim_value')
            od[0].dim_param = 'batch'
    del g.value_info[:]
    return bounds, {}


# ---- fp16 ----

def to_fp16_tensor(t):
    if t.data_type != FLOAT:
        return t
    arr = numpy_helper.to_array(t).astype(np.float16)
    out = numpy_helper.from_array(arr, t.name)
    return out


def retype(vi, elem):
    if vi.type.HasField('tensor_type') and vi.type.tensor_type.elem_type == FLOAT:
        vi.type.tensor_type.elem_type = elem


def make_fp16(model, keep_io):
    g = model.graph
    for i, t in enumerate(g.initializer):
        g.initializer[i].CopyFrom(to_fp16_tensor(t))
    for n in g.node:
        for a in n.attribute:
            if a.type == onnx.AttributeProto.TENSOR:
                a.t.CopyFrom(to_fp16_tensor(a.t))
            if n.op_type == 'Cast' and a.name == 'to' and a.i == FLOAT:
                a.i = FLOAT16
    for vi in g.value_info:
        retype(vi, FLOAT16)
    inits = {i.name for i in g.initializer}
    for vi in g.input:
        if vi.name in inits:
            retype(vi, FLOAT16)
    if not keep_io:
        for vi in list(g.input) + list(g.output):
            retype(vi, FLOAT16)
        return {}, {}
    # float32 at the boundary: Cast right after each float input, before each output.
    new_nodes = []
    for vi in real_inputs(g):
        if vi.type.tensor_type.elem_type != FLOAT:
            continue
        inner = vi.name + '_fp16'
        for n in g.node:
            n.input[:] = [inner if x == vi.name else x for x in n.input]
        new_nodes.append(helper.make_node('Cast', [vi.name], [inner], name=vi.name + '_to_fp16', to=FLOAT16))
    tail = []
    for vi in g.output:
        if vi.type.tensor_type.elem_type != FLOAT:
            continue
        inner = vi.name + '_fp16'
        for n in g.node:
            n.output[:] = [inner if x == vi.name else x for x in n.output]
            n.input[:] = [inner if x == vi.name else x for x in n.input]
        tail.append(helper.make_node('Cast', [inner], [vi.name], name=vi.name + '_to_fp32', to=FLOAT))
    nodes = new_nodes + list(g.node) + tail
    del g.node[:]
    g.node.extend(nodes)
    return {}, {}


# ---- dq ----

def const_of_shape_weights(g):
    """weight name -> (shape initializer name, dims) for ConstantOfShape-made and initializer weights."""
    shapes = {i.name: numpy_helper.to_array(i) for i in g.initializer}
    out = {}
    for n in g.node:
        if n.op_type == 'ConstantOfShape' and n.input[0] in shapes:
            out[n.output[0]] = [int(x) for x in shapes[n.input[0]]]
    for i in g.initializer:
        if i.data_type == FLOAT and len(i.dims) >= 2:
            out[i.name] = list(i.dims)
    return out


def make_dq(model):
    g = model.graph
    weights = const_of_shape_weights(g)
    nodes, inits = [], []
    counter = [0]

    def fresh(base):
        counter[0] += 1
        return '%s_q%d' % (base, counter[0])

    def int_weight(name, dims):
        q = fresh(name)
        inits.append(numpy_helper.from_array(np.array(dims, dtype=np.int64), q + '_shape'))
        nodes.append(helper.make_node('ConstantOfShape', [q + '_shape'], [q], name=q + '/const',
                                      value=numpy_helper.from_array(np.array([3], dtype=np.uint8))))
        return q

    zp = 'dq_weight_zero_point'
    inits.append(numpy_helper.from_array(np.array(0, dtype=np.uint8), zp))
    wscale = 'dq_weight_scale'
    inits.append(numpy_helper.from_array(np.array(0.01, dtype=np.float32), wscale))
    for n in g.node:
        w = n.input[1] if len(n.input) > 1 else None
        if n.op_type not in ('Conv', 'Gemm', 'MatMul') or w not in weights:
            nodes.append(n)
            continue
        attrs = {a.name: helper.get_attribute_value(a) for a in n.attribute}
        if n.op_type == 'Gemm' and (attrs.get('transA', 0) or attrs.get('alpha', 1.0) != 1.0 or attrs.get('beta', 1.0) != 1.0):
            nodes.append(n)
            continue
        base = n.name or n.output[0]
        xq, xs, xz = fresh(base + '/x'), fresh(base + '/x_scale'), fresh(base + '/x_zp')
        nodes.append(helper.make_node('DynamicQuantizeLinear', [n.input[0]], [xq, xs, xz], name=base + '/dql'))
        dims = weights[w]
        acc = fresh(base + '/acc')
        if n.op_type == 'Conv':
            wq = int_weight(w, dims)
            conv_attrs = {k: v for k, v in attrs.items() if k in ('dilations', 'group', 'kernel_shape', 'pads', 'strides', 'auto_pad')}
            nodes.append(helper.make_node('ConvInteger', [xq, wq, xz, zp], [acc], name=base + '/convint', **conv_attrs))
        else:
            kdims = list(reversed(dims)) if attrs.get('transB', 0) else dims
            wq = int_weight(w, kdims)
            nodes.append(helper.make_node('MatMulInteger', [xq, wq, xz, zp], [acc], name=base + '/matmulint'))
        accf, scale, scaled = fresh(base + '/accf'), fresh(base + '/scale'), fresh(base + '/scaled')
        nodes.append(helper.make_node('Cast', [acc], [accf], name=base + '/cast', to=FLOAT))
        nodes.append(helper.make_node('Mul', [xs, wscale], [scale], name=base + '/scale'))
        has_bias = len(n.input) > 2 and n.input[2]
        nodes.append(helper.make_node('Mul', [accf, scale], [scaled if has_bias else n.output[0]], name=base + '/mul'))
        if has_bias:
            bias = n.input[2]
            if n.op_type == 'Conv':
                bshape = fresh(base + '/bias_shape')
                inits.append(numpy_helper.from_array(np.array([1, -1, 1, 1], dtype=np.int64), bshape))
                b4 = fresh(base + '/bias4')
                nodes.append(helper.make_node('Reshape', [bias, bshape], [b4], name=base + '/bias_reshape'))
                bias = b4
            nodes.append(helper.make_node('Add', [scaled, bias], [n.output[0]], name=base + '/bias'))
    replace_graph_body(model, nodes, inits, 11)
    return {}, {}


# ---- if ----

def make_if(model, by_value):
    g = model.graph
    x = real_inputs(g)[0]
    xs = shape_of(x)
    inner = x.name + '_selected'
    for n in g.node:
        n.input[:] = [inner if i == x.name else i for i in n.input]
    then_g = helper.make_graph([helper.make_node('Identity', [x.name], ['then_out'], name='then/pass')], 'then_branch',
                               [], [helper.make_tensor_value_info('then_out', x.type.tensor_type.elem_type, None)])
    perm = list(range(len(xs)))
    if len(perm) >= 2:
        perm = [0] + perm[2:] + [1]
    else_g = helper.make_graph([helper.make_node('Transpose', [x.name], ['else_out'], name='else/transpose', perm=perm)],
                               'else_branch', [],
                               [helper.make_tensor_value_info('else_out', x.type.tensor_type.elem_type, None)])
    head, inits, values = [], [], {}
    if by_value:
        g.input.append(helper.make_tensor_value_info('mode', TensorProto.INT64, []))
        inits.append(numpy_helper.from_array(np.array(16000, dtype=np.int64), 'mode_expected'))
        head.append(helper.make_node('Equal', ['mode', 'mode_expected'], ['take_then'], name='/cond/Equal'))
        values['mode'] = 16000
    else:
        axis = 1 if len(xs) > 1 else 0
        inits.append(numpy_helper.from_array(np.array(axis, dtype=np.int64), 'cond_axis'))
        inits.append(numpy_helper.from_array(np.array(xs[axis] if isinstance(xs[axis], int) else 1, dtype=np.int64),
                                             'cond_expected'))
        head += [helper.make_node('Shape', [x.name], ['x_shape'], name='/cond/Shape'),
                 helper.make_node('Gather', ['x_shape', 'cond_axis'], ['x_dim'], name='/cond/Gather', axis=0),
                 helper.make_node('Equal', ['x_dim', 'cond_expected'], ['take_then'], name='/cond/Equal')]
    head.append(helper.make_node('If', ['take_then'], [inner], name='/select/If', then_branch=then_g, else_branch=else_g))
    replace_graph_body(model, head + list(g.node), inits, 11)  # Equal on int64 needs opset 11
    return {}, values


KINDS = {
    'sym': make_sym,
    'fp16': lambda m: make_fp16(m, True),
    'fp16-io': lambda m: make_fp16(m, False),
    'dq': make_dq,
    'if-shape': lambda m: make_if(m, False),
    'if-value': lambda m: make_if(m, True),
}


def main(argv):
    only = None
    args = []
    i = 1
    while i < len(argv):
        if argv[i] == '--only':
            only = argv[i + 1].split(',')
            i += 2
        else:
            args.append(argv[i])
            i += 1
    if len(args) < 2:
        sys.stderr.write(__doc__)
        return 2
    out_dir, models = args[0], args[1:]
    os.makedirs(out_dir, exist_ok=True)
    manifest = []
    for path in models:
        stem = os.path.splitext(os.path.basename(path))[0]
        for kind, make in KINDS.items():
            if only and kind not in only:
                continue
            model = onnx.load(path)
            bounds, values = make(model)
            out = os.path.join(out_dir, '%s.%s.onnx' % (stem, kind))
            onnx.save(model, out)
            manifest.append({'model': out, 'family': kind, 'source': path, 'bounds': bounds, 'input_values': values})
    json.dump(manifest, sys.stdout, indent=1)
    sys.stdout.write('\n')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
