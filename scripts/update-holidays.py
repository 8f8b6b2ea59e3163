#!/usr/bin/env python3
"""Writes common/data/jp-holidays.csv, the Japanese public holidays Hibiki ships.

The source is the maintained `holidays` package (PyPI), which follows the Public Holiday Act:
国民の祝日, 振替休日 (a holiday on a Sunday moves to the next weekday that is not one) and
国民の休日 (a weekday between two holidays). The Cabinet Office publishes the equinox days
each February for the next year; `holidays` computes later ones astronomically, which is
what the Cabinet Office announces in practice.

Run it after a new release of `holidays` (or a change in the law), then rebuild Hibiki:

    python3 -m venv /tmp/h && /tmp/h/bin/pip install holidays && /tmp/h/bin/python scripts/update-holidays.py

The years it writes are FIRST..LAST below; the server warns (status page, GET /api/health)
90 days before LAST ends.
"""
import pathlib

import holidays

FIRST, LAST = 2024, 2030

out = pathlib.Path(__file__).resolve().parent.parent / "common" / "data" / "jp-holidays.csv"
jp = holidays.Japan(years=range(FIRST, LAST + 1), language="ja")
lines = [
    f"# Japanese public holidays {FIRST}-01-01..{LAST}-12-31, from the holidays package {holidays.__version__}",
    "# (scripts/update-holidays.py writes this file; do not edit it by hand)",
    f"# covers,{FIRST}-01-01,{LAST}-12-31",
]
lines += [f"{day.isoformat()},{name}" for day, name in sorted(jp.items())]
out.write_text("\n".join(lines) + "\n", encoding="utf-8")
print(f"{out}: {len(jp)} holidays")
