# SPDX-License-Identifier: GPL-2.0
# make bench (issue 6): the module's cost, measured in the QEMU VM.
# Included by the top Makefile after tests/vm/vm.mk.  One boot runs the
# guest scripts tests/bench/guest/*.sh (vmtest.suite=bench): 10-bench
# (paired, rotated configurations: msgbench and sched-shadow bench) and
# 20-scaling (per-call cost from the module's `stats`); the host prints the
# tables with tests/bench/report.py into build/bench/report.txt.
#
#   make bench [BENCH_ROUNDS=5] [BENCH_SCENARIOS=10-*] [BENCH_APPEND=...]
#
# The VM runs single-threaded TCG (repeated kretprobe insmod/rmmod hangs
# multi-threaded TCG in QEMU 7.2, see DESIGN.md; one host core also keeps
# the run from competing with itself) with 4 vCPUs in 2 sockets.

BENCH_ACCEL     ?= tcg,thread=single
BENCH_SMP       ?= 4,sockets=2,cores=2
BENCH_TIMEOUT   ?= 3600
BENCH_ROUNDS    ?= 5
BENCH_SCENARIOS ?=
BENCH_APPEND    ?=
BENCH_DIR       := $(BUILD)/bench
# its own initramfs, so a bench never races a test-vm/stress build of build/vm
BENCH_VM_DIR    := $(BENCH_DIR)/vm

VM_EXTRA_FILES += $(TOP)/tests/bench/guest:/lib/vm/bench
vm-initramfs: $(BUILD)/progs/msgbench

.PHONY: bench
bench:
	@mkdir -p $(BENCH_DIR) $(BUILD)/results
	@$(MAKE) --no-print-directory vm-initramfs VM_DIR=$(BENCH_VM_DIR)
	@start=$$(date +%s); . $(VM_ENV) && VM_ACCEL='$(BENCH_ACCEL)' VM_SMP='$(BENCH_SMP)' \
	  VM_TIMEOUT=$(BENCH_TIMEOUT) VM_SCENARIOS='$(BENCH_SCENARIOS)' \
	  VM_APPEND="vmtest.suite=bench bench.rounds=$(BENCH_ROUNDS) $(BENCH_APPEND)" \
	  HOST_CHECKS=$(TOP)/tests/bench/host SUMMARY=$(BUILD)/results/bench.summary \
	  EXPORT_DIR=$(BENCH_DIR)/vm-out \
	  tests/vm/run-vm.sh test $$VM_VMLINUZ $(BENCH_VM_DIR)/initramfs.cpio $(BENCH_DIR) 2>&1 | tee $(BENCH_DIR)/run.log; \
	  rc=$${PIPESTATUS[0]}; \
	  python3 tests/bench/report.py $(BENCH_DIR)/vm-out | tee $(BENCH_DIR)/report.txt; \
	  echo "# bench: $$(( $$(date +%s) - start )) s (accel $(BENCH_ACCEL), smp $(BENCH_SMP); guest log $(BENCH_DIR)/tap.log)"; \
	  exit $$rc
