#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Host check of the lb scenarios (20-29): the kernel model's agreement with
# the kernel over every judged attempt they made, from the lbmodel-N.info
# exports (tests/vm/host/lb_agreement.py prints the per-kernel line and the
# targets as TAP: agreement >= 99.5 %, where either picked >= 99 %, unknown
# disagreements <= 0.1 %).
python3 "$(dirname "$0")/lb_agreement.py" "$1" --check
