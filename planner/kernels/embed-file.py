#!/usr/bin/env python3
"""Writes a C file holding a data file's bytes: embed-file.py INPUT OUTPUT SYMBOL.

Defines `const unsigned char SYMBOL[]` (NUL-terminated, so it can also be
read as text) and `const unsigned int SYMBOL_len` (without the NUL)."""
import sys

data = open(sys.argv[1], "rb").read()
symbol = sys.argv[3]
with open(sys.argv[2], "w") as out:
    out.write("/* Generated from %s by embed-file.py: do not edit. */\n" % sys.argv[1].split("/")[-1])
    out.write("const unsigned char %s[] = {\n" % symbol)
    for i in range(0, len(data), 16):
        out.write("  " + ", ".join("0x%02x" % b for b in data[i:i + 16]) + ",\n")
    out.write("  0x00\n};\n")
    out.write("const unsigned int %s_len = %d;\n" % (symbol, len(data)))
