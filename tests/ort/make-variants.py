#!/usr/bin/python3
"""Writes variants of ONNX models for the arena comparison (compare-arena.mjs):

  OUT/symbolic/NAME.onnx  every graph input's first dim made the symbol "batch"
                          (and the same dim of every graph output and value_info
                          entry that states it), so ORT plans with a symbolic dim
                          and planviz has to bind it;
  OUT/fp16/NAME.onnx      every float32 tensor made float16: inputs, outputs,
                          value_info, initializers, Constant and ConstantOfShape
                          values, Cast targets.

Usage: make-variants.py OUT MODEL.onnx...   (needs python3-onnx; exit 77 without)
Generated models stay out of git: the test makes them in its build folder.
"""
import os
import sys

try:
    import numpy as np
    import onnx
    from onnx import TensorProto, numpy_helper
except ImportError as e:
    print(f"make-variants.py: {e}", file=sys.stderr)
    sys.exit(77)


def make_symbolic(model):
    g = model.graph
    changed = False
    for vi in list(g.input) + list(g.output) + list(g.value_info):
        t = vi.type.tensor_type
        if vi.type.HasField("tensor_type") and len(t.shape.dim) > 0 and t.shape.dim[0].HasField("dim_value") \
                and t.shape.dim[0].dim_value == 1:
            t.shape.dim[0].ClearField("dim_value")
            t.shape.dim[0].dim_param = "batch"
            changed = True
    return changed


def fp16_tensor(t):
    if t.data_type != TensorProto.FLOAT:
        return False
    a = numpy_helper.to_array(t).astype(np.float16)
    t.CopyFrom(numpy_helper.from_array(a, t.name))
    return True


def fp16_graph(g):
    changed = False
    for vi in list(g.input) + list(g.output) + list(g.value_info):
        if vi.type.HasField("tensor_type") and vi.type.tensor_type.elem_type == TensorProto.FLOAT:
            vi.type.tensor_type.elem_type = TensorProto.FLOAT16
            changed = True
    for t in g.initializer:
        changed |= fp16_tensor(t)
    for n in g.node:
        for a in n.attribute:
            if a.type == onnx.AttributeProto.TENSOR:
                changed |= fp16_tensor(a.t)
            elif a.type == onnx.AttributeProto.GRAPH:
                changed |= fp16_graph(a.g)
            elif a.name == "to" and n.op_type == "Cast" and a.i == TensorProto.FLOAT:
                a.i = TensorProto.FLOAT16
                changed = True
    return changed


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    out = sys.argv[1]
    for kind in ("symbolic", "fp16"):
        os.makedirs(os.path.join(out, kind), exist_ok=True)
    for path in sys.argv[2:]:
        if not os.path.exists(path):
            continue
        name = os.path.basename(path) if os.path.basename(path) != "model.onnx" \
            else os.path.basename(os.path.dirname(path)) + ".onnx"
        for kind, make in (("symbolic", lambda m: make_symbolic(m)), ("fp16", lambda m: fp16_graph(m.graph))):
            model = onnx.load(path)
            if make(model):
                onnx.save(model, os.path.join(out, kind, name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
