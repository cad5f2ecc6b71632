#!/usr/bin/env python3
"""Prints one closing line over meson's test logs: 'N passed, N failed, N skipped'.

Usage: summarize.py BUILD_DIR...  Exits 1 if any test failed or none ran."""
import json
import sys

passed = failed = skipped = 0
for build in sys.argv[1:]:
    try:
        lines = open(f"{build}/meson-logs/testlog.json").read().splitlines()
    except OSError:
        continue
    for line in lines:
        result = json.loads(line).get("result", "")
        if result in ("OK", "EXPECTEDFAIL"):
            passed += 1
        elif result == "SKIP":
            skipped += 1
        else:
            failed += 1
print(f"{passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed or passed == 0 else 0)
