#!/usr/bin/env python3
"""planviz-cli render's pictures: a title line naming the model, config,
planner and peak live; --scale 2 doubles the pixels; the PNG's tEXt chunks
(valid CRCs, before IDAT) name the model and config; the SVG has a <title>
and the PDF a Title. The PNG is decoded here (zlib, PNG's row filters) to
check that the title band is drawn. TAP output.

Usage: test-cli-export.py PLANVIZ_CLI DATA_DIR"""
import os, re, struct, subprocess, sys, tempfile, zlib

from pv_tap import run_all, test

cli, data = sys.argv[1], sys.argv[2]
tmp = tempfile.mkdtemp(prefix="pv-export-")
TITLE_H = 30


def render(model, out, *extra):
    r = subprocess.run([cli, "render", os.path.join(data, model), "-o", out, *extra], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"render {model} {extra}: exit {r.returncode}: {r.stderr.strip()}")
    return open(out, "rb").read()


def chunks(png):
    """(type, data) of every chunk; raises on a bad signature or CRC."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("no PNG signature")
    out, at = [], 8
    while at < len(png):
        n, = struct.unpack(">I", png[at:at + 4])
        kind, body = png[at + 4:at + 8], png[at + 8:at + 8 + n]
        crc, = struct.unpack(">I", png[at + 8 + n:at + 12 + n])
        if crc != zlib.crc32(kind + body):
            raise ValueError(f"bad CRC on {kind}")
        out.append((kind.decode(), body))
        at += 12 + n
    return out


def texts(png):
    return {k.decode("latin-1"): v.decode("latin-1")
            for kind, body in chunks(png) if kind == "tEXt" for k, v in [body.split(b"\0", 1)]}


def size(png):
    return struct.unpack(">II", chunks(png)[0][1][:8])


def pixels(png):
    """Rows of (r, g, b, a) bytes of an 8-bit RGBA or RGB PNG."""
    cs = chunks(png)
    w, h, depth, colour = struct.unpack(">IIBB", cs[0][1][:10])
    bpp = {6: 4, 2: 3}[colour]
    raw = zlib.decompress(b"".join(body for kind, body in cs if kind == "IDAT"))
    stride, rows, prev = w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return rows, bpp


@test
def png_text_names_model_and_config():
    png = render("wide_branches.onnx", os.path.join(tmp, "wide.png"), "--partition",
                 os.path.join(data, "wide_branches.two-streams.json"), "--planner", "slots")
    t = texts(png)
    order = [kind for kind, _ in chunks(png)]
    problems = []
    want = {"Model": "wide_branches.onnx", "Config": "wide_branches.two-streams.json", "Planner": "slots",
            "Software": "planviz"}
    for key, value in want.items():
        if t.get(key) != value:
            problems.append(f"tEXt {key} = {t.get(key)!r}, want {value!r}")
    if not re.fullmatch(r"wide_branches\.onnx · wide_branches\.two-streams\.json · slots planner · "
                        r"peak live [0-9.]+\xa0[KM]iB", t.get("Title", "")):
        problems.append(f"tEXt Title = {t.get('Title')!r}")
    if order[0] != "IHDR" or max(i for i, k in enumerate(order) if k == "tEXt") > order.index("IDAT"):
        problems.append(f"chunk order {order[:8]}")
    default = texts(render("cnn.onnx", os.path.join(tmp, "cnn.png")))
    if default.get("Config") != "ORT default partition" or default.get("Planner") != "ort":
        problems.append(f"default config/planner: {default.get('Config')!r}, {default.get('Planner')!r}")
    return problems


@test
def scale_2_doubles_the_pixels():
    one = render("cnn.onnx", os.path.join(tmp, "cnn-1.png"))
    two = render("cnn.onnx", os.path.join(tmp, "cnn-2.png"), "--scale", "2")
    (w1, h1), (w2, h2) = size(one), size(two)
    problems = []
    if (w2, h2) != (2 * w1, 2 * h1):
        problems.append(f"1x is {w1}x{h1}, 2x is {w2}x{h2}")
    svg1 = render("cnn.onnx", os.path.join(tmp, "cnn-1.svg")).decode()
    svg2 = render("cnn.onnx", os.path.join(tmp, "cnn-2.svg"), "--scale", "2").decode()
    dims = lambda s: tuple(float(v) for v in re.search(r'width="([0-9.]+)pt" height="([0-9.]+)pt"', s).groups())
    if dims(svg2) != tuple(2 * v for v in dims(svg1)):
        problems.append(f"SVG 1x {dims(svg1)}, 2x {dims(svg2)}")
    bad = subprocess.run([cli, "render", os.path.join(data, "cnn.onnx"), "-o", os.path.join(tmp, "x.png"),
                          "--scale", "3"], capture_output=True, text=True)
    if bad.returncode != 2 or "--scale" not in bad.stderr:
        problems.append(f"--scale 3: exit {bad.returncode}, {bad.stderr.strip()!r}")
    return problems


@test
def title_is_drawn_on_top():
    png = render("cnn.onnx", os.path.join(tmp, "cnn-title.png"))
    rows, bpp = pixels(png)
    w, h = size(png)
    problems = []
    # Text across the title band's left part (the ruler below has a label
    # every ~120 pixels; a title line darkens nearly every 20-pixel column
    # from x = 10 on), and the band's bottom row is the separator line.
    buckets = sum(1 for b in range(20)
                  if any(max(rows[y][x * bpp:x * bpp + 3]) < 100
                         for y in range(TITLE_H) for x in range(10 + 20 * b, 30 + 20 * b)))
    if buckets < 15:
        problems.append(f"text in only {buckets} of 20 columns of the title band")
    line = rows[TITLE_H - 1]
    if len({line[x * bpp:x * bpp + 3] for x in range(w)}) != 1 or line[:3] == b"\xff\xff\xff":
        problems.append("no separator line under the title band")
    fixed = size(render("cnn.onnx", os.path.join(tmp, "n.png"), "--height", "300"))[1]
    if fixed != 300 + TITLE_H:
        problems.append(f"--height 300 gives {fixed} rows, want 300 + the {TITLE_H}-pixel title")
    svg = render("cnn.onnx", os.path.join(tmp, "cnn.svg")).decode()
    title = re.search(r"<title>([^<]*)</title>", svg)
    if not title or not title.group(1).startswith("cnn.onnx · ORT default partition · ort planner · peak live "):
        problems.append(f"SVG title {title and title.group(1)!r}")
    pdf = render("cnn.onnx", os.path.join(tmp, "cnn.pdf"))
    m = re.search(rb"/Title\s*(\((?:[^)\\]|\\.)*\)|<[0-9A-Fa-f]*>)", pdf)
    if m is None:
        problems.append("no /Title in the PDF")
    else:
        v = m.group(1)
        text = bytes.fromhex(v[1:-1].decode()).decode("utf-16") if v.startswith(b"<") else v[1:-1].decode("latin-1")
        if "cnn.onnx" not in text or "ort planner" not in text:
            problems.append(f"PDF Title {text!r}")
    return problems


run_all()
