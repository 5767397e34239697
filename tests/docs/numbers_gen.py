#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The numbers in the docs' prose around the blocks made from the demo's
example reports: `<!-- n:KEY -->value<!-- /n -->`, KEY one of values()'s.
They come from `sched-shadow -j compare` of docs/examples/demo-root.json
and demo-nested.json, the same output the blocks are cut from, so a new
`make demo DEMO_DOCS=1` rewrites blocks and numbers together
(tests/docs/console.py check-gen --update) and `make test-docs` fails
while either differs.

    numbers_gen.py        prints KEY<TAB>value, one a line
"""
import json
import os
import subprocess

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
EX = [os.path.join(TOP, "docs", "examples", "demo-%s.json" % s) for s in ("root", "nested")]


def compare():
    cli = os.environ.get("CLI", os.path.join(TOP, "build", "sched-shadow"))
    out = subprocess.run([cli, "-j", "compare"] + EX, stdout=subprocess.PIPE, check=True,
                         universal_newlines=True).stdout
    return json.loads(out)


def values():
    c = compare()

    def row(title, label):
        for r in c["rows"]:
            if (r["title"] or "").startswith(title) and r["label"] == label:
                return r
        raise KeyError("%s / %s" % (title, label))

    v = {}
    v["demo.runs"] = "%d" % c["sides"][0]["runs"]
    v["demo.runs_nested"] = "%d" % c["sides"][1]["runs"]
    lat = "wakeup latency, bench's own"
    for key, label in (("p99", "p99"), ("p50", "p50"), ("rps", "requests/s")):
        r = row(lat, label)
        v["howto.%s_root" % key] = "%.0f" % r["median"][0]
        v["howto.%s_nested" % key] = "%.0f" % r["median"][1]
        v["howto.%s_call" % key] = r["call"] if r["call"] in ("within noise",) else \
            "%s, %+.0f" % (r["call"], r["difference"])
    wait = "run-queue wait of the command"
    for r in c["rows"]:
        if (r["title"] or "").startswith(wait) and "verdict" in r and \
                r["label"] in ("second minus first", "the extra wait is"):
            key = "howto.extra_split" if r["label"] == "second minus first" else "howto.extra_is"
            v[key] = r["verdict"]
    for key, label in (("wait_total", "total wait"), ("wait_bal", "an allowed CPU idle: the balancer's"),
                       ("wait_cap", "all allowed busy: capacity, shares")):
        r = row(wait, label)
        v["howto.%s_call" % key] = r["call"] if r["call"] in ("within noise",) else \
            "%s, %+.0f" % (r["call"], r["difference"])
    pol = row(wait, "policy that wasted time (most)")
    v["howto.policy"] = pol["verdict"] if "verdict" in pol else "%s; %s" % tuple(pol["cells"])
    att = "balancing attempts"
    for key, label in (("uw", "headline: unexplained wrong"), ("um", "headline: unexplained missed")):
        r = row(att, label)
        v["howto.%s_root" % key] = r["cells"][0]
        v["howto.%s_nested" % key] = r["cells"][1]
        v["howto.%s_call" % key] = r["call"]
    r = row(att, "model agrees/disagrees with the kernel's pick")
    v["howto.agree_root"], v["howto.agree_nested"] = r["cells"]
    r = row("load, time-weighted means", "real / shadow")
    v["demo.real_shadow_root"] = "%.2f" % r["median"][0]
    v["demo.real_shadow_nested"] = "%.2f" % r["median"][1]
    return v


if __name__ == "__main__":
    for k, x in sorted(values().items()):
        print("%s\t%s" % (k, x))
