#!/usr/bin/env python3
"""Shape sweep (bench/tridiag/bench_shapes.cpp): tables and a plot of the fraction of the same-run
STREAM against n at a fixed 2^24 unknowns.

    python3 bench/plot_shapes.py SHAPES.json [--out PNG] [--markdown] [--no-plot]
    python3 bench/plot_shapes.py AFTER.json --before BEFORE.json --markdown   # both, per cell

Prints, per precision and solve kind (one-shot through algo::automatic, factored through
factorize(automatic)), the frac_of_stream of every layout and n, then the worst cell per layout,
the page faults per call that are not 0, and the single-system timings against one LAPACK ?gtsv
call. Writes the plot
(default: shapes_frac_of_stream.png next to the JSON): one panel per solve kind and precision,
one line per layout. Needs matplotlib only for the plot.
"""
import argparse
import json
import os
import re
import sys

PATTERN = re.compile(r"^shapes/(?P<kind>one_shot|factored)/(?P<layout>[a-z]+\d*)/"
                     r"(?P<prec>double|float)/n:(?P<n>\d+)/nsys:(?P<nsys>\d+)")
SINGLE = re.compile(r"^shapes/single/(?P<who>[a-z_]+)/(?P<prec>double|float)/n:(?P<n>\d+)")
KINDS = ("one_shot", "factored")
PRECISIONS = ("double", "float")


def layout_family(layout):
    """interleaved8 (double) and interleaved16 (float) share one column."""
    return "interleaved" if layout.startswith("interleaved") else layout


def load(path):
    with open(path) as f:
        data = json.load(f)
    cells, single = {}, {}
    for b in data.get("benchmarks", []):
        if b.get("run_type", "iteration") != "iteration" or b.get("error_occurred"):
            continue
        m = PATTERN.match(b["name"])
        if m and "frac_of_stream" in b:
            key = (m["kind"], m["prec"], layout_family(m["layout"]), int(m["n"]))
            # Repetitions: keep the best, as the counters themselves do (best iteration).
            if key not in cells or b["frac_of_stream"] > cells[key]["frac_of_stream"]:
                cells[key] = dict(frac_of_stream=b["frac_of_stream"],
                                  ns_per_unknown=b["ns_per_unknown"],
                                  faults=b.get("page_faults_per_call", 0.0),
                                  layout=m["layout"])
            continue
        m = SINGLE.match(b["name"])
        if m:
            key = (m["who"], m["prec"], int(m["n"]))
            t = b["real_time"] * {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
            single[key] = min(t, single.get(key, t))
    return data.get("context", {}), cells, single


def layouts_of(cells):
    order = ["row", "column", "interleaved", "strided"]
    found = {k[2] for k in cells}
    return [l for l in order if l in found] + sorted(found - set(order))


def ns_of(cells):
    return sorted({k[3] for k in cells})


def n_label(n):
    return f"2^{n.bit_length() - 1}" if n >= 16384 and n & (n - 1) == 0 else str(n)


def cell_text(cells, before, key):
    if key not in cells:
        return "-"
    text = f"{cells[key]['frac_of_stream']:.2f}"
    if before is not None and key in before:
        text = f"{before[key]['frac_of_stream']:.2f} → {text}"
    return text


def print_tables(cells, before, markdown, out=sys.stdout):
    layouts = layouts_of(cells)
    for prec in PRECISIONS:
        for kind in KINDS:
            if not any(k[0] == kind and k[1] == prec for k in cells):
                continue
            out.write(f"\n{'one-shot (automatic)' if kind == 'one_shot' else 'factored (automatic)'},"
                      f" {prec}: frac_of_stream\n\n")
            head = ["n", "nsys"] + layouts
            rows = [[n_label(n), str((1 << 24) // n)] +
                    [cell_text(cells, before, (kind, prec, l, n)) for l in layouts]
                    for n in ns_of(cells)]
            write_table(head, rows, markdown, out)
    # The two ranges: short systems (n <= 4096, many of them) and long ones.
    for title, lo, hi in (("all n", 0, 1 << 30), ("n <= 4096", 0, 4096),
                          ("n >= 2^14", 1 << 14, 1 << 30)):
        out.write(f"\nworst cell per layout, {title} (frac_of_stream, at n)\n\n")
        head = ["layout"] + [f"{'one-shot' if k == 'one_shot' else 'factored'} {p}"
                             for p in PRECISIONS for k in KINDS]
        rows = []
        for l in layouts:
            row = [l]
            for prec in PRECISIONS:
                for kind in KINDS:
                    row.append(worst_text(cells, kind, prec, l, lo, hi))
            rows.append(row)
        write_table(head, rows, markdown, out)
    faults = [(k, c["faults"]) for k, c in sorted(cells.items()) if c["faults"] > 0.5]
    if faults:
        out.write("\npage faults per call (after the first call)\n\n")
        write_table(["kind", "precision", "layout", "n", "faults"],
                    [[k[0], k[1], k[2], n_label(k[3]), f"{f:.0f}"] for k, f in faults],
                    markdown, out)


def worst_text(cells, kind, prec, layout, lo=0, hi=1 << 30):
    found = [(c["frac_of_stream"], k[3]) for k, c in cells.items()
             if k[0] == kind and k[1] == prec and k[2] == layout and lo <= k[3] <= hi]
    if not found:
        return "-"
    frac, n = min(found)
    return f"{frac:.2f} (n = {n_label(n)})"


def print_single(single, markdown, out=sys.stdout):
    if not single:
        return
    out.write("\none system of n rows: microseconds per call\n\n")
    rows = []
    for prec in PRECISIONS:
        for n in sorted({k[2] for k in single if k[1] == prec}):
            t = {w: single.get((w, prec, n)) for w in ("thomas", "automatic", "lapack_gtsv")}
            ratio = (t["thomas"] / t["lapack_gtsv"]) if t["thomas"] and t["lapack_gtsv"] else None
            rows.append([prec, str(n)] + [f"{t[w] / 1e3:.2f}" if t[w] else "-" for w in t] +
                        [f"{ratio:.2f}" if ratio else "-"])
    write_table(["precision", "n", "thomas", "automatic", "?gtsv", "thomas / ?gtsv"], rows,
                markdown, out)


def write_table(head, rows, markdown, out):
    if markdown:
        out.write("| " + " | ".join(head) + " |\n")
        out.write("| " + " | ".join("---" for _ in head) + " |\n")
        for r in rows:
            out.write("| " + " | ".join(r) + " |\n")
    else:
        widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
        for r in [head] + rows:
            out.write("  ".join(str(x).ljust(w) for x, w in zip(r, widths)) + "\n")


def plot(cells, context, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 2, figsize=(12, 8), sharex=True, sharey=True)
    for row, prec in enumerate(PRECISIONS):
        for col, kind in enumerate(KINDS):
            ax = axes[row][col]
            for layout in layouts_of(cells):
                pts = sorted((k[3], c["frac_of_stream"]) for k, c in cells.items()
                             if k[0] == kind and k[1] == prec and k[2] == layout)
                if pts:
                    names = {c["layout"] for k, c in cells.items()
                             if k[1] == prec and k[2] == layout}
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o",
                            label=", ".join(sorted(names)))
            ax.set_xscale("log", base=2)
            ax.axhline(0.60, color="grey", linewidth=0.8, linestyle=":")
            ax.axhline(0.45, color="grey", linewidth=0.8, linestyle="--")
            ax.set_title(f"{'one-shot (automatic)' if kind == 'one_shot' else 'factored (automatic)'}"
                         f", {prec}")
            ax.set_ylim(0, 1.6)
            ax.grid(True, alpha=0.3)
            if row == 1:
                ax.set_xlabel("n (nsys = 2^24 / n)")
            if col == 0:
                ax.set_ylabel("fraction of same-run STREAM")
            ax.legend(fontsize=8)
    threads = context.get("kokkos_concurrency", "?")
    fig.suptitle(f"Shape sweep: 2^24 unknowns, {context.get('kokkos_execution_space', '')} "
                 f"on {threads} threads, STREAM {context.get('stream_4r1w_GBps', '?')} GB/s")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    print(f"wrote {path}", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json")
    ap.add_argument("--before", help="an earlier sweep: cells read 'before → after'")
    ap.add_argument("--out", help="PNG path (default: next to the JSON)")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--no-plot", action="store_true")
    args = ap.parse_args()
    context, cells, single = load(args.json)
    if not cells:
        sys.exit(f"{args.json}: no shapes/ benchmarks")
    before = load(args.before)[1] if args.before else None
    print_tables(cells, before, args.markdown)
    print_single(single, args.markdown)
    if not args.no_plot:
        plot(cells, context, args.out or os.path.join(os.path.dirname(args.json) or ".",
                                                      "shapes_frac_of_stream.png"))


if __name__ == "__main__":
    main()
