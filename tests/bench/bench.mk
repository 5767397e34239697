# SPDX-License-Identifier: GPL-2.0
# make bench: the module's cost, measured in the QEMU VM.
# Included by the top Makefile after tests/vm/vm.mk.  One boot runs the
# guest scripts tests/bench/guest/*.sh (vmtest.suite=bench): 10-bench
# (paired, rotated configurations: msgbench and sched-shadow bench) and
# 20-scaling (per-call cost from the module's `stats`); the host prints the
# tables with tests/bench/report.py into build/bench/report.txt.
#
#   make bench [BENCH_ROUNDS=5] [BENCH_SCENARIOS=10-*] [BENCH_APPEND=...]
#              [BENCH_QEMU_EXTRA='-icount shift=...']  (BENCH_QEMU_EXTRA= for wall clock)
#
# The VM runs single-threaded TCG (repeated kretprobe insmod/rmmod hangs
# multi-threaded TCG in QEMU 7.2, see docs/design.md; one host core also keeps
# the run from competing with itself) with 4 vCPUs in 2 sockets.

BENCH_ACCEL     ?= tcg,thread=single
BENCH_SMP       ?= 1
BENCH_TIMEOUT   ?= 3600
BENCH_ROUNDS    ?= 5
BENCH_SCENARIOS ?=
BENCH_APPEND    ?=
# Guest time from executed instructions, not the host's clock (QEMU -icount,
# single-threaded TCG only): the other work on this 2-core host no longer
# changes the guest's numbers.  It measures instruction cost: cache and
# memory effects are not modelled (docs/performance.md).
BENCH_QEMU_EXTRA ?= -icount shift=0,sleep=off
# The audit's cost against domain size and its newidle perturbation need
# sched domains: SMP boots without icount (QEMU 7.2 hangs bringing up APs
# under icount), one per topology (run-vm.sh VM_TOPO; "default" is the
# test VM's 6 vCPUs), running tests/bench/guest/40-audit.sh only.  Skipped
# when BENCH_SCENARIOS names no 40* script.
BENCH_AUDIT_TOPOLOGIES ?= default ring16 smt32
BENCH_AUDIT_MEM ?= 4G
# BENCH_MAIN=0: skip the BENCH_SMP boot (with BENCH_SCENARIOS='40*' it has
# nothing to run: 40-audit.sh needs sched domains)
BENCH_MAIN      ?= 1
BENCH_DIR       := $(BUILD)/bench
# its own initramfs, so a bench never races a test-vm/stress build of build/vm
BENCH_VM_DIR    := $(BENCH_DIR)/vm

VM_EXTRA_FILES += $(TOP)/tests/bench/guest:/lib/vm/bench
# the BPF alternative (bpf/pelt_count.bpf.c) for the "bpf" configuration
VM_EXTRA_FILES += $(BUILD)/pelt-count-static:/bin/pelt-count
vm-initramfs: $(BUILD)/progs/msgbench $(BUILD)/progs/pingpong $(BUILD)/pelt-count-static

# The wasted-core replay on the host (module/core/wasted_feed.c and
# wasted_replay.c, the sampler's code): a synthetic change stream at 8 to
# 1,024 CPUs; its targets lines go into the report.
REPLAY_BENCH := $(BUILD)/replay-bench
$(REPLAY_BENCH): tests/bench/replay_bench.c $(wildcard module/core/*.[ch])
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -Wall -Wextra -Werror -Itests/unit/shim -Imodule/core -o $@ $<

.PHONY: bench bench-replay
bench-replay: $(REPLAY_BENCH)
	@mkdir -p $(BENCH_DIR)
	$(REPLAY_BENCH) -t | tee $(BENCH_DIR)/replay.txt

bench: $(REPLAY_BENCH)
	@mkdir -p $(BENCH_DIR)/vm-out $(BUILD)/results
	$(REPLAY_BENCH) -t | tee $(BENCH_DIR)/replay.txt
	@$(MAKE) --no-print-directory vm-initramfs VM_DIR=$(BENCH_VM_DIR)
	@start=$$(date +%s); . $(VM_ENV) && if [ "$(BENCH_MAIN)" = 0 ]; then rc=0; \
	  echo "# bench: BENCH_MAIN=0: no $(BENCH_SMP)-vCPU boot, the audit's SMP boots only"; else \
	  VM_ACCEL='$(BENCH_ACCEL)' VM_SMP='$(BENCH_SMP)' \
	  VM_QEMU_EXTRA='$(BENCH_QEMU_EXTRA)' \
	  VM_TIMEOUT=$(BENCH_TIMEOUT) VM_SCENARIOS='$(BENCH_SCENARIOS)' \
	  VM_APPEND="vmtest.suite=bench bench.rounds=$(BENCH_ROUNDS) $(BENCH_APPEND)" \
	  HOST_CHECKS=$(TOP)/tests/bench/host SUMMARY=$(BUILD)/results/bench.summary \
	  EXPORT_DIR=$(BENCH_DIR)/vm-out \
	  tests/vm/run-vm.sh test $$VM_VMLINUZ $(BENCH_VM_DIR)/initramfs.cpio $(BENCH_DIR) 2>&1 | tee $(BENCH_DIR)/run.log; \
	  rc=$${PIPESTATUS[0]}; fi; \
	  case ",$(BENCH_SCENARIOS)," in ,,|*,40*) \
	    for t in $(BENCH_AUDIT_TOPOLOGIES); do \
	      topo=$$t; [ $$t = default ] && topo=; \
	      VM_ACCEL='$(BENCH_ACCEL)' VM_TOPO=$$topo VM_MEM=$(BENCH_AUDIT_MEM) \
	        VM_TIMEOUT=$(BENCH_TIMEOUT) VM_SCENARIOS='40*' \
	        VM_APPEND="vmtest.suite=bench $(BENCH_APPEND)" \
	        HOST_CHECKS=/nonexistent SUMMARY=$(BENCH_DIR)/audit-$$t.summary \
	        EXPORT_DIR=$(BENCH_DIR)/vm-out-$$t \
	        tests/vm/run-vm.sh test $$VM_VMLINUZ $(BENCH_VM_DIR)/initramfs.cpio $(BENCH_DIR)/smp-$$t 2>&1 | \
	        tee -a $(BENCH_DIR)/run.log | grep -E '^(ok|not ok|# [0-9]+ CPUs|# vm: (boot|wall))'; \
	      [ $${PIPESTATUS[0]} -eq 0 ] || rc=1; \
	      cp $(BENCH_DIR)/vm-out-$$t/audit-*.csv $(BENCH_DIR)/vm-out-$$t/perturb-*.csv \
	        $(BENCH_DIR)/vm-out/ 2>/dev/null; \
	    done ;; \
	  esac; \
	  python3 tests/bench/report.py $(BENCH_DIR)/vm-out | tee $(BENCH_DIR)/report.txt; \
	  if [ "$(BENCH_MAIN)" = 0 ]; then \
	    echo "# bench: $$(( $$(date +%s) - start )) s (accel $(BENCH_ACCEL), no icount, topologies $(BENCH_AUDIT_TOPOLOGIES); guest logs $(BENCH_DIR)/smp-*/tap.log)"; \
	  else \
	    echo "# bench: $$(( $$(date +%s) - start )) s (accel $(BENCH_ACCEL) $(BENCH_QEMU_EXTRA), smp $(BENCH_SMP); guest log $(BENCH_DIR)/tap.log)"; \
	  fi; \
	  exit $$rc
