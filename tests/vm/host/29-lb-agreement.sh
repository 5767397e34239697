#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Host check of the lb scenarios (20-29): the kernel model's agreement with
# the kernel over every judged attempt they made, from the lbmodel-N.info
# exports (tests/vm/host/lb_agreement.py prints the per-kernel lines and the
# targets as TAP: agreement >= 99.5 %, where either picked >= 99 %, unknown
# disagreements <= 0.1 %, each rule that decided >= 20 attempts matching
# the kernel more often in force than flipped), after what the
# disagreements are made of, from the lbdis-N.txt events
# (tests/vm/host/lb_disagree.py; its exit status, 1 when the checker and
# the module differ on a recorded disagreement, is one of the checks).
# VM_TOPO, when set, names the machine in the lines.
python3 "$(dirname "$0")/lb_disagree.py" "$1" --list 2 | cut -c1-400
rc=${PIPESTATUS[0]}
python3 "$(dirname "$0")/lb_agreement.py" "$1" --check --disagree-rc "$rc" ${VM_TOPO:+--topology "$VM_TOPO"}
