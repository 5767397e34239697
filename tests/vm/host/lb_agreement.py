#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The per-kernel agreement line of the audit's kernel model.

Reads the lbmodel-N.info exports of the load-balancer scenarios (each the
module's `info` just before one of their resets, and once after the last:
tests/vm/guest/lib.sh lb_reset / lb_model_export), adds their counters up
and prints, exactly:

  <release>: model agreement 99.7% of 2143 judged attempts (disagree: stale 4, known 2, unknown 1); where either picked 99.2% of 312; void 1.1%

judged attempts: attempts whose destination could take work (idle or
newly idle), each counted once in lb_model_agree or one of the three
disagreement causes; where either picked: the attempts where the kernel or
the model picked a group; void: the judged attempts whose verdict is void.

usage: lb_agreement.py EXPORT_DIR [--check]
  --check  also print TAP checks of the targets (agreement >= 99.5 %, where
           either picked >= 99 %, unknown <= 0.1 %), the known rules by
           name, and "N passed, N failed"; exit 1 on a miss or on no data.
"""
import glob
import os
import sys

KEYS = ["lb_judged", "lb_void", "lb_model_agree", "lb_model_disagree",
        "lb_model_disagree_stale", "lb_model_disagree_known",
        "lb_model_disagree_unknown", "lb_model_either_picked",
        "lb_model_either_agree"]


def read_info(path):
    d = {}
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) >= 2:
                d[p[0]] = p[1]
    return d


def pct(a, b):
    return 100.0 * a / b if b else 0.0


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    check = "--check" in sys.argv
    if len(args) != 1:
        sys.stderr.write(__doc__)
        return 2
    files = sorted(glob.glob(os.path.join(args[0], "lbmodel-*.info")))
    tot = dict.fromkeys(KEYS, 0)
    known = {}
    release, rules = "?", set()
    for f in files:
        d = read_info(f)
        release = d.get("kernel", release)
        if "lb_rules" in d:
            rules.add(d["lb_rules"])
        for k in KEYS:
            try:
                tot[k] += int(d.get(k, 0))
            except ValueError:
                pass
        for k, v in d.items():
            if k.startswith("lb_model_known.") and v.isdigit():
                known[k[15:]] = known.get(k[15:], 0) + int(v)
    j = tot["lb_judged"]
    ag = tot["lb_model_agree"]
    st, kn, un = (tot["lb_model_disagree_stale"], tot["lb_model_disagree_known"],
                  tot["lb_model_disagree_unknown"])
    ep, ea = tot["lb_model_either_picked"], tot["lb_model_either_agree"]
    print("%s: model agreement %.1f%% of %d judged attempts (disagree: stale %d, known %d, "
          "unknown %d); where either picked %.1f%% of %d; void %.1f%%"
          % (release, pct(ag, j), j, st, kn, un, pct(ea, ep), ep, pct(tot["lb_void"], j)))
    if not check:
        return 0
    n = fail = 0

    def tap(ok, what):
        nonlocal n, fail
        n += 1
        fail += not ok
        print("%sok %d - %s" % ("" if ok else "not ", n, what))

    print("# %d exports; rule sets in force: %s; known disagreements by rule: %s"
          % (len(files), ", ".join(sorted(rules)) or "-",
             ", ".join("%s %d" % kv for kv in sorted(known.items()) if kv[1]) or "none"))
    tap(j > 0, "lb agreement: the lb scenarios judged attempts (%d)" % j)
    tap(ag + st + kn + un == j, "lb agreement: agree + disagreements = judged (%d + %d + %d + %d = %d)"
        % (ag, st, kn, un, j))
    tap(j > 0 and pct(ag, j) >= 99.5, "lb agreement: model agreement %.2f%% >= 99.5%%" % pct(ag, j))
    tap(ep > 0 and pct(ea, ep) >= 99.0,
        "lb agreement: where either picked %.2f%% of %d >= 99%%" % (pct(ea, ep), ep))
    tap(j > 0 and pct(un, j) <= 0.1, "lb agreement: unknown disagreements %.3f%% <= 0.1%%" % pct(un, j))
    print("%d passed, %d failed" % (n - fail, fail))
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
