"""Join the dice reader's trained classifiers into the two networks it runs a frame:
``python -m vision.training.merge_dice_networks [--models DIR]``.

The reader (:class:`vision.dice.reader.DiceReader`) asks its classifiers in at most two passes a die
(issue 38). Each pass is one ``cv2.dnn`` forward call of one ONNX graph holding several heads:

- ``dice_heads.onnx``, inputs ``crops`` and ``quarters`` (n, 3, 32, 32) -> ``face`` (n, 7) logits of
  ``face32_det.onnx`` on ``crops`` (every candidate as it is and transposed), ``gate`` (n, 2) of
  ``gate32.onnx`` and ``cocked`` (n, 2) of ``cocked32.onnx`` on ``quarters`` (as it is and turned by a
  quarter: they were trained on turned crops, not mirrored ones).
  It also gives ``face_features`` (n, c): the face classifier's features of ``crops`` (the input of its
  last layer), on which :mod:`vision.dice.learning` learns the players' own dice (issue 39).
- ``dice_recheck.onnx``, inputs ``turned``, ``crops`` and ``halves`` -> ``face`` (the face classifier on
  the two views turned by a quarter), ``second`` (``face32_det_b.onnx``, the second opinion, on the two
  views of the first pass), ``gate`` and ``cocked`` (on the crop turned by a half and three quarters):
  the dice the first pass left unsure.

The heads share no weights: each is its trained network unchanged, so their figures stay those of
``assets/dice_model/README.md``; joining them saves the calls, not the arithmetic. The separate files stay
beside them: they are what the next round fine-tunes. Needs the ``onnx`` package (development only).
Writes both files and ``dice_networks_manifest.json`` (sources and their sha256) into ``--models``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

HEADS_FILE, RECHECK_FILE, MANIFEST_FILE = "dice_heads.onnx", "dice_recheck.onnx", "dice_networks_manifest.json"
HEADS = {HEADS_FILE: [("face32_det.onnx", "crops", "face"), ("gate32.onnx", "quarters", "gate"),
                      ("cocked32.onnx", "quarters", "cocked")],
         RECHECK_FILE: [("face32_det.onnx", "turned", "face"), ("face32_det_b.onnx", "crops", "second"),
                        ("gate32.onnx", "halves", "gate"), ("cocked32.onnx", "halves", "cocked")]}
FEATURES = {HEADS_FILE: {"face": "face_features"}}
"""Heads whose features (the input of their last layer, one vector a crop) a graph also gives: the face
classifier's, on which :mod:`vision.dice.learning` adapts to the players' own dice."""


def merge(folder: Path, parts: list[tuple[str, str, str]], features: dict[str, str] | None = None):
    """One ONNX model of the single-input, single-output classifiers ``parts`` ((file, input, output)
    triples, files in ``folder``): each graph's names prefixed by its output's name, its input renamed
    to ``input`` (shared by parts that name the same one) and its output to ``output``. ``features``:
    output name -> a second output giving that part's features, the input (n, c) of its last node (a
    Gemm: the logits' layer)."""
    import onnx
    from onnx import helper

    nodes, inits, inputs, outputs, opset = [], [], {}, [], None
    for file, input_name, output_name in parts:
        model = onnx.load(str(folder / file))
        graph = model.graph
        (src_in,), (src_out,) = graph.input, graph.output

        def rename(name, src_in=src_in, src_out=src_out, input_name=input_name, output_name=output_name):
            if name == src_in.name:
                return input_name
            if name == src_out.name:
                return output_name
            return f"{output_name}/{name}" if name else name

        for node in graph.node:
            new = onnx.NodeProto()
            new.CopyFrom(node)
            new.name = f"{output_name}/{node.name}"
            new.input[:] = [rename(n) for n in node.input]
            new.output[:] = [rename(n) for n in node.output]
            nodes.append(new)
        for init in graph.initializer:
            new = onnx.TensorProto()
            new.CopyFrom(init)
            new.name = rename(init.name)
            inits.append(new)
        if input_name not in inputs:
            value = onnx.ValueInfoProto()
            value.CopyFrom(src_in)
            value.name = input_name
            inputs[input_name] = value
        value = onnx.ValueInfoProto()
        value.CopyFrom(src_out)
        value.name = output_name
        outputs.append(value)
        if features and output_name in features:
            last = graph.node[-1]
            if last.op_type != "Gemm":
                raise ValueError(f"{file}: its last node is a {last.op_type}, not the logits' Gemm")
            width = next(i.dims[1] for i in graph.initializer if i.name == last.input[1])
            name = features[output_name]
            nodes.append(helper.make_node("Identity", [rename(last.input[0])], [name], name=f"{output_name}/features"))
            outputs.append(helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT, ["n", int(width)]))
        version = max(o.version for o in model.opset_import if o.domain in ("", "ai.onnx"))
        opset = version if opset is None else max(opset, version)
    graph = helper.make_graph(nodes, "dice_" + "_".join(o for _, _, o in parts), list(inputs.values()), outputs, inits)
    merged = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], producer_name="merge_dice_networks")
    merged.ir_version = 7  # what OpenCV 4.6 (Bookworm) reads
    onnx.checker.check_model(merged)
    return merged


def main(argv: list[str] | None = None) -> int:
    from vision.dice.networks import model_dir

    parser = argparse.ArgumentParser(prog="python -m vision.training.merge_dice_networks",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, default=None, help="model folder (default assets/dice_model)")
    args = parser.parse_args(argv)
    folder = args.models or model_dir()
    try:
        import onnx
    except ImportError:
        print("merge_dice_networks needs the onnx package: pip install onnx", file=sys.stderr)
        return 2
    manifest = {"command": "python -m vision.training.merge_dice_networks", "networks": {}}
    for out, parts in HEADS.items():
        missing = [f for f, _, _ in parts if not (folder / f).is_file()]
        if missing:
            print(f"merge_dice_networks: {folder / missing[0]} is missing", file=sys.stderr)
            return 2
        onnx.save(merge(folder, parts, FEATURES.get(out)), str(folder / out))
        manifest["networks"][out] = {
            "heads": {o: {"from": f, "input": i, "sha256": hashlib.sha256((folder / f).read_bytes()).hexdigest()}
                      for f, i, o in parts},
            "sha256": hashlib.sha256((folder / out).read_bytes()).hexdigest()}
        print(f"wrote {folder / out}")
    (folder / MANIFEST_FILE).write_text(json.dumps(manifest, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
