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

and, per kernel, what the disagreements are made of:

  <release>: stale explained by the entry read 12 of 14 disagreements whose inputs moved (85.7%); known confirmed by flipping 2; unknown 1

and one line per rule of the evidence (lb_rule_evidence.<rule>, the
attempts whose outcome the rule decides, of them those where the rule in
force gave the kernel's outcome, and those where its opposite did):

  rule fully_busy_later on <release>: decided 31, in force matched 31, flipped matched 0

usage: lb_agreement.py EXPORT_DIR [--check] [--reasons] [--topology T] [--disagree-rc N]
  --topology T  name the machine in the lines ("<release> <T>: ...")
  --reasons  also print the judged attempts per verdict and reason (the
           lbmodel-N.att exports' `all` rows, idle and newidle) as
           "# reasons: verdict/reason N, ..."
  --check  also print TAP checks of the targets (agreement >= 99.5 %, where
           either picked >= 99 %, unknown <= 0.1 %; a rule that decided at
           least 20 attempts matched the kernel more often in force than
           flipped), the known rules by name, and "N passed, N failed";
           exit 1 on a miss or on no data
  --disagree-rc N  lb_disagree.py's exit status (0: the checker and the
           module agree on every recorded disagreement), checked with --check
"""
import glob
import os
import sys

KEYS = ["lb_judged", "lb_void", "lb_model_agree", "lb_model_disagree", "lb_model_disagree_moved",
        "lb_model_disagree_stale", "lb_model_disagree_known",
        "lb_model_disagree_unknown", "lb_model_either_picked",
        "lb_model_either_agree"]
# a rule must decide this many attempts before its evidence is judged
EVIDENCE_MIN = 20


def opt(name, default=None):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def read_info(path):
    d = {}
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) >= 2:
                d[p[0]] = p[1]
    return d


def pct(a, b):
    """a / b in percent, cut (not rounded) to one decimal: 99.96 % prints as
    99.9 %, never as 100.0 % while a disagreement remains"""
    return (1000 * a // b) / 10.0 if b else 0.0


def main():
    args = [a for i, a in enumerate(sys.argv[1:], 1) if not a.startswith("--") and
            sys.argv[i - 1] not in ("--topology", "--disagree-rc")]
    check = "--check" in sys.argv
    topo = opt("--topology")
    drc = opt("--disagree-rc")
    if len(args) != 1:
        sys.stderr.write(__doc__)
        return 2
    files = sorted(glob.glob(os.path.join(args[0], "lbmodel-*.info")))
    tot = dict.fromkeys(KEYS, 0)
    known, evidence = {}, {}
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
            if k.startswith("lb_rule_evidence."):
                e = evidence.setdefault(k[17:], [0, 0, 0])
                for i, x in enumerate(v.split(":")[:3]):
                    e[i] += int(x) if x.isdigit() else 0
    j = tot["lb_judged"]
    ag = tot["lb_model_agree"]
    st, kn, un = (tot["lb_model_disagree_stale"], tot["lb_model_disagree_known"],
                  tot["lb_model_disagree_unknown"])
    ep, ea = tot["lb_model_either_picked"], tot["lb_model_either_agree"]
    name = "%s %s" % (release, topo) if topo else release
    print("%s: model agreement %.1f%% of %d judged attempts (disagree: stale %d, known %d, "
          "unknown %d); where either picked %.1f%% of %d; void %.1f%%"
          % (name, pct(ag, j), j, st, kn, un, pct(ea, ep), ep, pct(tot["lb_void"], j)))
    mv = tot["lb_model_disagree_moved"]
    print("%s: stale explained by the entry read %d of %d disagreements whose inputs moved (%.1f%%); "
          "known confirmed by flipping %d%s; unknown %d"
          % (name, st, mv, pct(st, mv), kn,
             " (%s)" % ", ".join("%s %d" % kv for kv in sorted(known.items()) if kv[1])
             if kn else "", un))
    for rule in sorted(evidence):
        d, a, b = evidence[rule]
        print("rule %s on %s: decided %d, in force matched %d, flipped matched %d"
              % (rule, name, d, a, b))
    # the rule calibration (lb_rules_learn): its phase's agreement, what it
    # learned, and the agreement over the rest (measured on other attempts)
    calib = None
    for f in files:
        d = read_info(f)
        c = d.get("lb_calibration", "off")
        if c.startswith("done:") and calib is None:
            calib = d
    if calib:
        n = int(calib["lb_calibration"].split(":")[1].split("/")[0])
        ca = int(calib.get("lb_calibration_agree", 0))
        learned = [k[8:] + "=" + v.split(":")[0] for k, v in calib.items()
                   if k.startswith("lb_rule.") and v.endswith(":learned")]
        ev = ["%s %s" % (k[20:], v) for k, v in sorted(calib.items())
              if k.startswith("lb_rule_calibration.") and not v.startswith("0:")]
        mj, ma = max(j - n, 0), max(ag - ca, 0)
        print("%s: calibration on the first %d judged attempts: agreement %.1f%%; learned: %s "
              "(evidence decided:in_force:flipped %s); measured on the other %d: agreement %.1f%%"
              % (release, n, pct(ca, n), ", ".join(learned) or "nothing",
                 "; ".join(ev) or "none", mj, pct(ma, mj)))
    if "--reasons" in sys.argv:
        rows = {}
        for f in sorted(glob.glob(os.path.join(args[0], "lbmodel-*.att"))):
            with open(f) as fh:
                lines = fh.read().splitlines()
            if len(lines) < 2:
                continue
            cols = lines[1].split()
            for line in lines[2:]:
                p = line.split()
                if len(p) != len(cols) or p[0] != "all" or p[1] == "busy":
                    continue
                k = p[2] + "/" + p[3]
                rows[k] = rows.get(k, 0) + int(p[cols.index("attempts")])
        print("# reasons: " + ", ".join("%s %d" % kv for kv in
                                        sorted(rows.items(), key=lambda kv: -kv[1]) if kv[1]))
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
    tap(j > 0 and 1000 * ag >= 995 * j, "lb agreement: model agreement %d of %d >= 99.5%%" % (ag, j))
    tap(ep > 0 and 100 * ea >= 99 * ep,
        "lb agreement: where either picked %d of %d >= 99%%" % (ea, ep))
    tap(j > 0 and 1000 * un <= j, "lb agreement: unknown disagreements %d of %d <= 0.1%%" % (un, j))
    tap(st <= mv, "lb agreement: stale disagreements are among those whose inputs moved (%d <= %d)"
        % (st, mv))
    for rule in sorted(evidence):
        d, a, b = evidence[rule]
        if d >= EVIDENCE_MIN:
            tap(a > b, "lb agreement: rule %s decided %d attempts: in force matched %d > flipped %d"
                % (rule, d, a, b))
    if drc is not None:
        tap(drc == "0", "lb agreement: the checker re-judges every recorded disagreement as the "
            "module did (lb_disagree.py exit %s)" % drc)
    print("%d passed, %d failed" % (n - fail, fail))
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
