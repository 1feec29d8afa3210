#!/usr/bin/env python3
"""Summary table and plots from a bandsolve_bench JSON file (Google Benchmark's --benchmark_out).

    python3 bench/plot.py RESULTS.json [--out DIR] [--prefix P] [--label L] [--markdown] [--all] [--no-plots]

Prints the summary table: family, layout, ns per unknown, fraction of the same-run STREAM and
speedup over the peer measured in the same run (LAPACK looped over the batch, or the sequential
algorithm the family replaces). Writes PNG plots into DIR (default: the JSON's folder):
  bandwidth_vs_n.png         Thomas, double, 65536 systems: fraction of STREAM against n per layout;
  bandwidth_vs_nsys.png      one row-layout problem of 2^22 unknowns split into nsys systems;
  speedup_over_peer.png      speedup over the same-run peer, per family and layout.
A plot whose benchmarks are not in the file is skipped. Needs matplotlib only for the plots
(Debian: python3-matplotlib; `bash cmake/scripts/setup-debian.sh --plotting` installs it).
"""
import argparse
import json
import os
import re
import sys

LAYOUTS = {"row": "row", "column": "column", "column_padded": "column, padded",
           "interleaved8": "interleaved<8>", "interleaved16": "interleaved<16>",
           "interleaved4": "interleaved<4>", "interleaved1": "interleaved<1>"}
SKIP = re.compile(r"^(\d+|manual_time|iterations:\d+|min_time:[\d.]+|repeats:\d+)$")


def key_of(name):
    """The benchmark's name without Google Benchmark's argument and option suffixes."""
    return "/".join(t for t in name.split("/") if not SKIP.match(t))


def load(path):
    with open(path) as f:
        data = json.load(f)
    runs = {}
    for b in data.get("benchmarks", []):
        if b.get("run_type", "iteration") != "iteration" or "ns_per_unknown" not in b:
            continue
        k = key_of(b["name"])
        # Repetitions: keep the fastest, as the counters themselves do (best iteration).
        if k not in runs or b["ns_per_unknown"] < runs[k]["ns_per_unknown"]:
            runs[k] = b
    return data.get("context", {}), runs


def params(key):
    return dict(t.split(":", 1) for t in key.split("/") if ":" in t)


# --- the summary table -----------------------------------------------------------------------------
# (family label, benchmark key pattern, peer key from the match, peer label). Rows appear in this
# order, one per benchmark found; `--all` adds every other benchmark with a peer in the file.
ROWS = [
    ("Thomas, one-shot", r"thomas/one_shot/(?P<layout>row|column|column_padded|interleaved8)/double/n:256/nsys:65536$",
     "lapack_gtsv/row/double/n:256/nsys:65536", "dgtsv loop"),
    ("Thomas, factored", r"thomas/factored_solve/(?P<layout>row|column|column_padded|interleaved8)/double/n:256/nsys:65536$",
     "lapack_gtsv/row/double/n:256/nsys:65536", "dgtsv loop"),
    ("Thomas-PCR, 1 system", r"pcr_long/thomas_pcr/(?P<layout>row)/double/n:(?P<n>\d+)/nsys:1$",
     "pcr_long/sequential_thomas/row/double/n:{n}/nsys:1", "sequential Thomas"),
    ("block Thomas, one-shot", r"block_thomas/one_shot/(?P<layout>row|column|interleaved8)/double/m:(?P<m>4)/n:(?P<n>\d+)/nsys:(?P<s>\d+)$",
     "lapack_gbsv/row/double/m:{m}/n:{n}/nsys:{s}", "dgbsv loop"),
    ("Toeplitz batch", r"toeplitz/toeplitz_batch/(?P<layout>row|column|interleaved8)/double/n:256/nsys:65536$",
     "toeplitz/thomas_general/{layout}/double/n:256/nsys:65536", "general Thomas"),
    ("Toeplitz, 1 system (D&C)", r"toeplitz/divide_and_conquer/double/n:(?P<n>16777216)$",
     "toeplitz/sequential_thomas/double/n:{n}", "sequential Thomas"),
    ("banded LU, kl = ku = 2", r"banded_lu/one_shot/(?P<layout>row|column|interleaved8)/double/kl:2/ku:2/n:256/nsys:65536$",
     "lapack_gbsv/row/double/kl:2/ku:2/n:256/nsys:65536", "dgbsv loop"),
    ("axis of 256^3", r"axis/full/(?P<layout>x|y|z)/double/256\^3$",
     "axis/lapack_gtsv/{layout}/double/256^3", "dgtsv loop"),
    ("axis of 256^3, padded", r"axis/full_padded/(?P<layout>x|y|z)/double/256\^3$",
     "axis/lapack_gtsv/{layout}/double/256^3", "dgtsv loop"),
    ("ADI step, 256^3", r"axis/(?P<layout>adi_step|adi_step_padded)/double/256\^3$", None, None),
]
# Peers for `--all`: every family's LAPACK loop or sequential reference.
ALL_PEERS = [
    (r"(thomas|partial_pivoting)/(one_shot|factored_solve)/[^/]+/(?P<p>double|float)/n:(?P<n>\d+)/nsys:(?P<s>\d+)$",
     ["lapack_gtsv/row/{p}/n:{n}/nsys:{s}", "lapack_dgtsv_pivoting_peer/row/{p}/n:{n}/nsys:{s}"]),
    (r"(thomas|partial_pivoting)/(one_shot|factored_solve)/[^/]+/(?P<p>complex_double|double_coef_complex_rhs)/n:(?P<n>\d+)/nsys:(?P<s>\d+)$",
     ["lapack_zgtsv/row/complex_double/n:{n}/nsys:{s}", "lapack_zgtsv_pivoting_peer/row/{p}/n:{n}/nsys:{s}"]),
    (r"block_thomas/[^/]+/[^/]+/[^/]+/m:(?P<m>\d+)/n:(?P<n>\d+)/nsys:(?P<s>\d+)$", ["lapack_gbsv/row/double/m:{m}/n:{n}/nsys:{s}"]),
    (r"banded_lu/[^/]+/[^/]+/double/kl:(?P<kl>\d+)/ku:(?P<ku>\d+)/n:(?P<n>\d+)/nsys:(?P<s>\d+)$",
     ["lapack_gbsv/row/double/kl:{kl}/ku:{ku}/n:{n}/nsys:{s}"]),
    (r"toeplitz/(toeplitz_batch|shared_offdiag)/(?P<l>[^/]+)/double/n:(?P<n>\d+)/nsys:(?P<s>\d+)$",
     ["toeplitz/thomas_general/{l}/double/n:{n}/nsys:{s}"]),
    (r"toeplitz/divide_and_conquer/double/n:(?P<n>\d+)$", ["toeplitz/sequential_thomas/double/n:{n}"]),
    (r"pcr_long/(?!sequential)[^/]+/[^/]+/double/n:(?P<n>\d+)/nsys:1$", ["pcr_long/sequential_thomas/row/double/n:{n}/nsys:1"]),
    (r"axis/(full|shared|full_padded|full_d_allocated_first)/(?P<a>[xyz])/double/(?P<c>[^/]+)$", ["axis/lapack_gtsv/{a}/double/{c}"]),
    (r"periodic/[^/]+/[^/]+/double/n:(?P<n>\d+)/nsys:(?P<s>\d+)$", ["periodic_thomas_peer/one_shot/interleaved8/double/n:{n}/nsys:{s}"]),
]


def summary_rows(runs, everything=False):
    rows, used = [], set()

    def add(family, key, peer_key, peer_label, layout):
        b = runs[key]
        peer = runs.get(peer_key) if peer_key else None
        speedup = peer["ns_per_unknown"] / b["ns_per_unknown"] if peer else None
        rows.append(dict(family=family, layout=LAYOUTS.get(layout, layout), key=key,
                         ns=b["ns_per_unknown"], frac=b.get("frac_of_stream"),
                         gbps=b.get("GBps"), stream=b.get("stream_GBps"),
                         speedup=speedup, peer=(peer_label if peer else "")))
        used.add(key)

    for family, pattern, peer, peer_label in ROWS:
        for key in runs:
            m = re.match(pattern, key)
            if m:
                add(family, key, peer.format(**m.groupdict()) if peer else None, peer_label,
                    m.groupdict().get("layout", ""))
    if everything:
        for key in runs:
            if key in used:
                continue
            for pattern, peers in ALL_PEERS:
                m = re.match(pattern, key)
                if not m:
                    continue
                peer_key = next((p.format(**m.groupdict()) for p in peers
                                 if p.format(**m.groupdict()) in runs), None)
                if peer_key and peer_key != key:
                    parts = key.split("/")
                    add("/".join(parts[:2]), key, peer_key, peer_key.split("/")[0],
                        "/".join(parts[2:]))
                break
    return rows


def print_table(rows, markdown=False, out=sys.stdout):
    head = ["family", "layout", "ns/unknown", "of STREAM", "GB/s", "speedup", "peer"]
    body = []
    for r in rows:
        body.append([r["family"], r["layout"], f"{r['ns']:.3f}",
                     f"{r['frac']:.2f}" if r["frac"] is not None else "",
                     f"{r['gbps']:.1f}" if r["gbps"] is not None else "",
                     f"{r['speedup']:.1f}x" if r["speedup"] is not None else "-",
                     r["peer"] or "-"])
    if markdown:
        out.write("| " + " | ".join(head) + " |\n")
        out.write("| " + " | ".join("---" for _ in head) + " |\n")
        for line in body:
            out.write("| " + " | ".join(line) + " |\n")
        return
    widths = [max(len(x) for x in col) for col in zip(head, *body)]
    right = {2, 3, 4, 5}
    fmt = lambda cells: "  ".join(c.rjust(w) if i in right else c.ljust(w)
                                  for i, (c, w) in enumerate(zip(cells, widths)))
    out.write(fmt(head) + "\n" + "  ".join("-" * w for w in widths) + "\n")
    for line in body:
        out.write(fmt(line) + "\n")


# --- plots -----------------------------------------------------------------------------------------
def style_fraction_axes(ax, ax2, xlabel, top):
    """Log2 x axes with a grid; the left axis is the fraction of STREAM, with 1.0 drawn."""
    for a in (ax, ax2):
        a.set_xscale("log", base=2)
        a.set_xlabel(xlabel)
        a.grid(True, alpha=0.3)
    ax.set_ylim(0, max(1.1, top * 1.08))
    ax.axhline(1.0, color="black", lw=0.8)
    ax.set_ylabel("fraction of same-run STREAM")


def plots(runs, context, outdir, label, prefix=""):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import matplotlib.ticker
    except ImportError:
        print("plot.py: matplotlib is missing (Debian: python3-matplotlib); no plots written",
              file=sys.stderr)
        return []
    written = []
    colors = {"row": "tab:blue", "column": "tab:orange", "column_padded": "tab:red",
              "interleaved8": "tab:green"}
    stream = context.get("stream_4r1w_GBps")
    subtitle = label + (f"; STREAM-like reference at start {stream} GB/s" if stream else "")

    def save(fig, name):
        path = os.path.join(outdir, prefix + name)
        fig.savefig(path, dpi=110, bbox_inches="tight")
        plt.close(fig)
        written.append(path)

    # Fraction of STREAM against n, Thomas double, 65536 systems.
    series = {}
    for key, b in runs.items():
        m = re.match(r"thomas/(one_shot|factored_solve)/(row|column|interleaved8)/double/n:(\d+)/nsys:65536$", key)
        if m:
            series.setdefault((m.group(1), m.group(2)), []).append((int(m.group(3)), b))
    lapack = sorted((int(params(k)["n"]), b) for k, b in runs.items()
                    if re.match(r"lapack_gtsv/row/double/n:\d+/nsys:65536$", k))
    if any(len(v) > 1 for v in series.values()):
        fig, (ax, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
        for (mode, layout), pts in sorted(series.items()):
            pts.sort(key=lambda p: p[0])
            style = "-o" if mode == "one_shot" else "--s"
            lbl = f"{LAYOUTS[layout]}, {'one-shot' if mode == 'one_shot' else 'factored'}"
            ax.plot([p[0] for p in pts], [p[1]["frac_of_stream"] for p in pts], style,
                    color=colors[layout], label=lbl)
            ax2.plot([p[0] for p in pts], [p[1]["GBps"] for p in pts], style, color=colors[layout],
                     label=lbl)
        top = max([p[1]["frac_of_stream"] for pts in series.values() for p in pts] + [1.0])
        if lapack:
            ax.plot([p[0] for p in lapack], [p[1]["frac_of_stream"] for p in lapack], ":^",
                    color="gray", label="dgtsv loop (row)")
            ax2.plot([p[0] for p in lapack], [p[1]["GBps"] for p in lapack], ":^", color="gray",
                     label="dgtsv loop (row)")
        style_fraction_axes(ax, ax2, "n (unknowns per system)", top)
        ax2.set_ylim(bottom=0)
        ax2.set_ylabel("effective bandwidth, GB/s (floor bytes / best time)")
        handles, names = ax.get_legend_handles_labels()
        fig.legend(handles, names, fontsize=8, loc="lower center", ncol=4,
                   bbox_to_anchor=(0.5, -0.16))
        fig.suptitle(f"Thomas, double, 65536 systems, per layout\n{subtitle}", fontsize=10)
        save(fig, "bandwidth_vs_n.png")

    # One row-layout problem of 2^22 unknowns split into nsys systems.
    sweep = {}
    for key, b in runs.items():
        m = re.match(r"pcr_sweep/(thomas|thomas_pcr|automatic|pcr)/(row|interleaved1)/double/n:(\d+)/nsys:(\d+)$", key)
        if m:
            sweep.setdefault(m.group(1), []).append((int(m.group(4)), b))
    if sweep:
        fig, (ax, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
        names = {"thomas": "Thomas", "thomas_pcr": "Thomas-PCR hybrid",
                 "automatic": "algo::automatic", "pcr": "PCR"}
        algo_style = {"thomas": ("tab:blue", "-o"), "thomas_pcr": ("tab:green", "-s"),
                      "automatic": ("black", ":x"), "pcr": ("tab:gray", "-^")}
        top = 1.0
        for algo, pts in sorted(sweep.items()):
            pts.sort(key=lambda p: p[0])
            color, style = algo_style.get(algo, (None, "-o"))
            top = max([top] + [p[1]["frac_of_stream"] for p in pts])
            ax.plot([p[0] for p in pts], [p[1]["frac_of_stream"] for p in pts], style,
                    color=color, label=names.get(algo, algo))
            ax2.plot([p[0] for p in pts], [p[1]["ns_per_unknown"] for p in pts], style,
                     color=color, label=names.get(algo, algo))
        style_fraction_axes(ax, ax2, "nsys (systems; n = 2^22 / nsys)", top)
        ax2.set_yscale("log")
        ax2.yaxis.set_major_formatter(matplotlib.ticker.ScalarFormatter())
        ax2.yaxis.set_minor_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
        ax2.set_ylabel("ns per unknown (best iteration)")
        ax.legend(fontsize=8)
        fig.suptitle(f"Row layout, double, 2^22 unknowns in nsys systems\n{subtitle}", fontsize=10)
        save(fig, "bandwidth_vs_nsys.png")

    # Speedup over the same-run peer, per family and layout (horizontal bars, one per benchmark).
    rows = [r for r in summary_rows(runs) if r["speedup"] is not None]
    if rows:
        layout_colors = {"row": "tab:blue", "column": "tab:orange", "column, padded": "tab:red",
                         "interleaved<8>": "tab:green"}
        fig, ax = plt.subplots(figsize=(9, 0.32 * len(rows) + 1.4))
        y = list(range(len(rows)))[::-1]
        for yi, r in zip(y, rows):
            ax.barh(yi, r["speedup"], color=layout_colors.get(r["layout"], "tab:purple"))
            ax.text(r["speedup"] * 1.03, yi, f"{r['speedup']:.1f}x", va="center", fontsize=8)
        ax.set_yticks(y)
        ax.set_yticklabels([f"{r['family']}, {r['layout']}  (vs {r['peer']})" if r["layout"]
                            else f"{r['family']}  (vs {r['peer']})" for r in rows], fontsize=8)
        ax.set_xscale("log")
        ax.set_xlim(0.8, max(r["speedup"] for r in rows) * 1.6)
        ax.axvline(1.0, color="black", lw=0.8)
        ax.set_xticks([t for t in (1, 2, 5, 10, 20, 50, 100) if t < ax.get_xlim()[1]])
        ax.xaxis.set_major_formatter(matplotlib.ticker.ScalarFormatter())
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.grid(True, axis="x", alpha=0.3, which="both")
        ax.set_xlabel("speedup over the peer in the same run (its ns per unknown / ours)")
        ax.set_title(f"Speedup over the same-run peer (LAPACK loop or sequential algorithm)\n{subtitle}",
                     fontsize=10)
        save(fig, "speedup_over_peer.png")
    return written


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("json", help="Google Benchmark JSON written by bandsolve_bench")
    ap.add_argument("--out", help="folder for the PNG plots (default: the JSON's folder)")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    ap.add_argument("--all", action="store_true", help="every benchmark with a peer in the table")
    ap.add_argument("--no-plots", action="store_true", help="print the table only")
    ap.add_argument("--label", default="", help="machine or run label for the plot titles")
    ap.add_argument("--prefix", default="", help="prefix of the PNG file names (e.g. full-)")
    args = ap.parse_args()

    context, runs = load(args.json)
    if not runs:
        sys.exit(f"plot.py: no solver benchmarks with counters in {args.json}")
    rows = summary_rows(runs, args.all)
    streams = [b["stream_GBps"] for b in runs.values() if "stream_GBps" in b]
    if streams:
        print(f"same-run STREAM-like reference: {min(streams):.1f}-{max(streams):.1f} GB/s "
              f"over {len(runs)} benchmarks (best pass sampled beside each)")
    print_table(rows, args.markdown)
    if not args.no_plots:
        outdir = args.out or os.path.dirname(os.path.abspath(args.json))
        os.makedirs(outdir, exist_ok=True)
        for path in plots(runs, context, outdir, args.label or os.path.basename(outdir), args.prefix):
            print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
