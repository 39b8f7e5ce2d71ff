"""The order-coverage audit of issue #29: every troop type x command 1-6 x distance band x
edition (108 cells) played on a small board, each checked against the order's words
(:mod:`tests.support.order_audit`; the unit suite runs a sample: ``tests/ai/test_order_audit.py``).

Run it from the repository root with the project's virtual environment active::

    python bench/audit_orders.py              # the report, one line a cell
    python bench/audit_orders.py --markdown   # the same as a Markdown table (docs/rules.md)

Each line gives the cell (edition, troop type, command, distance), the actions taken and
``ok`` or what disagrees with the order; the exit status is 1 when a cell is flagged.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solo_ops.core.tables import order_table  # noqa: E402
from tests.support.order_audit import cells, play  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--sample", action="store_true", help="only the suite's sample")
    args = parser.parse_args()
    start = time.perf_counter()
    done = [play(cell) for cell in cells(sample=args.sample)]
    flagged = [c for c in done if c.problems]
    if args.markdown:
        print("| edition | troop | cmd | distance | order (move · shoot · charge) | actions "
              "| verdict |")
        print("|---|---|---|---|---|---|---|")
    for c in done:
        order = order_table(c.troop)[c.command].texts()
        verdict = "ok" if not c.problems else "FLAG: " + "; ".join(c.problems)
        actions = ", ".join(c.actions) or "none"
        if args.markdown:
            words = f"{order['move']} · {order['shoot']} · {order['charge']}"
            print(f"| {c.edition} | {c.troop} | {c.command} | {c.band:g}\" | {words} "
                  f"| {actions} | {verdict} |")
        else:
            print(f"{c.label:28s} {actions:60s} {verdict}")
    print(f"\n{len(done)} cells, {len(flagged)} flagged, "
          f"{time.perf_counter() - start:.1f} s", file=sys.stderr if args.markdown else None)
    return 1 if flagged else 0


if __name__ == "__main__":
    raise SystemExit(main())
