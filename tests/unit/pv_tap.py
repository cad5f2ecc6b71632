"""pv_tap.py: the TAP runner the planviz-cli test scripts share.

@test registers a check that returns its problems: [] passes, a list of
strings fails (each printed as a TAP comment), None skips. An exception
in a check (a failed command, a malformed file) is its problem."""
import sys

tests = []


def test(fn):
    tests.append(fn)
    return fn


def run_all(skip_reason="skipped"):
    """Runs every registered check in order, prints TAP and exits 1 when
    one failed, 0 otherwise; a skipped check says @skip_reason."""
    print(f"1..{len(tests)}")
    failed = 0
    for i, fn in enumerate(tests, 1):
        try:
            problems = fn()
        except Exception as e:  # a failed command or a malformed file
            problems = [f"{type(e).__name__}: {e}"]
        if problems is None:
            print(f"ok {i} - {fn.__name__} # SKIP {skip_reason}")
        elif problems:
            failed += 1
            print(f"not ok {i} - {fn.__name__}")
            for p in problems:
                print(f"# {p}")
        else:
            print(f"ok {i} - {fn.__name__}")
    sys.exit(1 if failed else 0)
