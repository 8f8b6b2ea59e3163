#!/usr/bin/env python3
"""Which metrics do the dashboards and alert rules name, and does some process export them?

    tests/ops/metrics_used.py [EXPOSITION ...]     # files of scraped /metrics text; - or none: stdin
    tests/ops/metrics_used.py --list               # only print the names the queries use
    tests/ops/metrics_used.py --emit-rules FILE    # the dashboards' queries as a rule file,
                                                   # for `promtool check rules` (syntax)

Reads every PromQL expression of grafana/dashboards/*.json (panel targets and Prometheus
template variables) and prometheus/alerts.yml, extracts the metric names (functions,
keywords, label names and values, durations and Grafana variables are not names), and
checks each against the union of the given expositions: several scrapes (one per process:
api, scheduler, worker) count together. A query naming `X_bucket` needs `X` exported as a
histogram; `_sum` and `_count` need a histogram or summary. Prometheus' own series (`up`,
`scrape_*`, `ALERTS`) are always available.

Exit status: 0 when every name is exported, 1 when some are not (they are listed), 2 on a
usage or input error.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DASHBOARDS = ROOT / "grafana" / "dashboards"
DEFAULT_ALERTS = ROOT / "prometheus" / "alerts.yml"

# Series Prometheus makes itself for every target, or for its rules.
BUILTIN_SERIES = {
    "up",
    "scrape_duration_seconds",
    "scrape_samples_scraped",
    "scrape_samples_post_metric_relabeling",
    "scrape_series_added",
    "ALERTS",
    "ALERTS_FOR_STATE",
}

# Words of PromQL that look like names but are not metrics (functions are recognised by the
# parenthesis that follows them).
KEYWORDS = {
    "and", "or", "unless", "by", "without", "on", "ignoring", "group_left", "group_right",
    "bool", "offset", "inf", "nan", "atan2",
}

SUFFIXES = ("_bucket", "_sum", "_count")
NAME = re.compile(r"[A-Za-z_:][A-Za-z0-9_:]*")
NUMBER = re.compile(r"0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
GRAFANA_VARIABLE = re.compile(r"\$__\w+|\$\{[^}]*\}|\$\w+|\[\[[^\]]*\]\]")
STRING = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|`[^`]*`')


def grafana_to_promql(expr: str) -> str:
    """Replaces Grafana's variables ($__rate_interval, ${x}, $x) with a duration so the
    expression is plain PromQL (a variable stands for a duration or a label value)."""
    return GRAFANA_VARIABLE.sub("5m", expr)


def metric_names(expr: str) -> set[str]:
    """The metric names an expression selects, as written (suffixes kept)."""
    text = STRING.sub('""', grafana_to_promql(expr))
    # Comments, label matchers, ranges and subqueries, offsets, @ modifiers.
    text = re.sub(r"#[^\n]*", " ", text)
    text = re.sub(r"\{[^{}]*\}", " ", text)
    text = re.sub(r"\[[^\[\]]*\]", " ", text)
    text = re.sub(r"\boffset\s+-?[0-9a-zA-Z]+", " ", text)
    text = re.sub(r"@\s*-?[0-9.]+", " ", text)
    # Label lists of aggregations and vector matching.
    text = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^()]*\)", " ", text)
    names: set[str] = set()
    pos = 0
    while pos < len(text):
        ch = text[pos]
        if ch.isdigit() or (ch == "." and text[pos + 1 : pos + 2].isdigit()):
            pos = NUMBER.match(text, pos).end()  # a number (1e3, 0x1f), never a name
            continue
        name = NAME.match(text, pos)
        if not name:
            pos += 1
            continue
        word = name.group(0)
        if word not in KEYWORDS and not text[name.end():].lstrip().startswith("("):
            names.add(word)  # a name not followed by "(" is a metric, not a function
        pos = name.end()
    return names


def base_name(name: str) -> str:
    for suffix in SUFFIXES:
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def dashboard_exprs(directory: Path) -> list[tuple[str, str]]:
    """(where, expression) for every Prometheus query of every dashboard."""
    found: list[tuple[str, str]] = []
    for path in sorted(directory.glob("*.json")):
        board = json.loads(path.read_text(encoding="utf-8"))

        def walk(node, where):
            if isinstance(node, dict):
                title = node.get("title")
                here = f"{where} / {title}" if isinstance(title, str) and "targets" in node else where
                expr = node.get("expr")
                if isinstance(expr, str) and expr.strip():
                    found.append((f"{path.name}: {here}", expr))
                for key, value in node.items():
                    if key != "templating":
                        walk(value, here)
            elif isinstance(node, list):
                for item in node:
                    walk(item, where)

        walk(board, board.get("title", path.name))
        for var in board.get("templating", {}).get("list", []):
            if var.get("type") != "query":
                continue
            query = var.get("query")
            if isinstance(query, dict):
                query = query.get("query")
            if not isinstance(query, str):
                continue
            where = f"{path.name}: variable {var.get('name')}"
            m = re.fullmatch(r"\s*label_values\((.*),\s*[A-Za-z_]\w*\s*\)\s*", query, re.S)
            if m:
                found.append((where, m.group(1)))
            elif re.fullmatch(r"\s*label_values\(\s*[A-Za-z_]\w*\s*\)\s*", query):
                continue
            else:
                m = re.fullmatch(r"\s*query_result\((.*)\)\s*", query, re.S)
                if m:
                    found.append((where, m.group(1)))
    return found


def _alert_exprs_fallback(text: str) -> list[tuple[str, str]]:
    """Minimal reader for rule files (`- alert:`/`- record:` then `expr:`, plain or block
    scalar), for machines without PyYAML."""
    found: list[tuple[str, str]] = []
    lines = text.splitlines()
    name = "?"
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"\s*-?\s*(alert|record):\s*(\S+)", line)
        if m:
            name = m.group(2)
        m = re.match(r"(\s*)expr:\s*(.*)$", line)
        if m:
            indent, rest = len(m.group(1)), m.group(2).strip()
            if rest in ("|", ">", "|-", ">-", "|+", ">+"):
                body = []
                i += 1
                while i < len(lines) and (not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > indent):
                    body.append(lines[i].strip())
                    i += 1
                found.append((name, "\n".join(body)))
                continue
            found.append((name, rest.strip("'\"")))
        i += 1
    return found


def alert_exprs(path: Path) -> list[tuple[str, str]]:
    text = path.read_text(encoding="utf-8")
    try:
        import yaml  # type: ignore
    except ImportError:
        return [(f"{path.name}: {n}", e) for n, e in _alert_exprs_fallback(text)]
    doc = yaml.safe_load(text) or {}
    found = []
    for group in doc.get("groups", []):
        for rule in group.get("rules", []):
            name = rule.get("alert") or rule.get("record") or "?"
            found.append((f"{path.name}: {name}", str(rule["expr"])))
    return found


def exported_series(text: str) -> tuple[set[str], dict[str, str]]:
    """Sample names of an exposition, plus the ones its TYPE lines imply."""
    samples: set[str] = set()
    types: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            parts = line.split(None, 3)
            if len(parts) >= 4 and parts[1] == "TYPE":
                types[parts[2]] = parts[3].strip()
            continue
        m = NAME.match(line)
        if m:
            samples.add(m.group(0))
    series = set(samples)
    for family, kind in types.items():
        if kind == "histogram":
            series |= {family + "_bucket", family + "_sum", family + "_count"}
        elif kind == "summary":
            series |= {family, family + "_sum", family + "_count"}
        else:
            series.add(family)
    return series, types


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("expositions", nargs="*", help="scraped /metrics text; '-' or nothing: stdin")
    parser.add_argument("--dashboards", type=Path, default=DEFAULT_DASHBOARDS)
    parser.add_argument("--alerts", type=Path, action="append", help=f"rule file (default {DEFAULT_ALERTS.relative_to(ROOT)})")
    parser.add_argument("--list", action="store_true", help="print the metric names used and exit")
    parser.add_argument("--emit-rules", type=Path, metavar="FILE", help="write the dashboards' queries as recording rules")
    args = parser.parse_args(argv)

    try:
        dash = dashboard_exprs(args.dashboards)
        rules = [e for p in (args.alerts or [DEFAULT_ALERTS]) for e in alert_exprs(p)]
    except (OSError, ValueError, KeyError) as e:
        print(f"metrics_used: cannot read the queries: {e}", file=sys.stderr)
        return 2
    if not dash and not rules:
        print("metrics_used: no queries found", file=sys.stderr)
        return 2

    if args.emit_rules:
        out = ["groups:", "  - name: dashboards", "    rules:"]
        for i, (where, expr) in enumerate(dash):
            out.append(f"      - record: dashboard:query_{i}")
            out.append(f"        # {where}".replace("\n", " "))
            out.append("        expr: " + json.dumps(grafana_to_promql(expr)))
        args.emit_rules.write_text("\n".join(out) + "\n", encoding="utf-8")
        print(f"{len(dash)} dashboard queries written to {args.emit_rules}")
        return 0

    used: dict[str, set[str]] = {}
    for where, expr in dash + rules:
        for name in metric_names(expr):
            used.setdefault(name, set()).add(where.split(":")[0])

    if args.list:
        for name in sorted({base_name(n) for n in used if n not in BUILTIN_SERIES}):
            print(name)
        return 0

    sources = args.expositions or ["-"]
    series: set[str] = set()
    types: dict[str, str] = {}
    for source in sources:
        try:
            text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
        except OSError as e:
            print(f"metrics_used: {e}", file=sys.stderr)
            return 2
        s, t = exported_series(text)
        series |= s
        types.update(t)
    if not series:
        print("metrics_used: the exposition holds no samples", file=sys.stderr)
        return 2

    # Grouped by metric family: X_bucket, X_sum and X_count are one metric, X.
    missing: dict[str, dict] = {}
    for name in sorted(used):
        if name in BUILTIN_SERIES or name in series:
            continue
        entry = missing.setdefault(base_name(name), {"forms": [], "where": set()})
        entry["forms"].append(name)
        entry["where"] |= used[name]
    for base, entry in sorted(missing.items()):
        forms = ", ".join(entry["forms"])
        if types.get(base) == "summary" and any(f.endswith("_bucket") for f in entry["forms"]):
            why = f"exported as a summary, but queried as {forms}: give it histogram buckets"
        elif types.get(base) or any(base_name(s) == base for s in series):
            why = f"exported, but not as {forms}"
        else:
            why = "no process exports it"
        print(f"MISSING {base}: {why} (used in {', '.join(sorted(entry['where']))})")

    checked = sorted({base_name(n) for n in used if n not in BUILTIN_SERIES})
    if missing:
        print(f"{len(missing)} of {len(checked)} metrics used by the dashboards and alerts are not exported")
        return 1
    print(f"all {len(checked)} metrics used by the dashboards and alerts are exported")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
