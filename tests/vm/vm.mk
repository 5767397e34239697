# SPDX-License-Identifier: GPL-2.0
# VM test harness (included by the top Makefile after userspace/cli.mk and
# bpf/bpf.mk).  Debian's own kernel boots under QEMU (TCG) with an
# initramfs holding busybox, the module, the workload programs, the guest
# scripts and whatever other fragments list in VM_EXTRA_FILES.
#
#   make vm-kernel [KERNEL=bookworm]   fetch/unpack the kernel into $(CACHE)
#   make test-vm [KERNEL=...] [VM_SCENARIOS=glob,glob]
#                KERNEL: bookworm (6.1, default), bookworm-rt (6.1 PREEMPT_RT),
#                bullseye (5.10), trixie (6.12), trixie-backports (7.3, flat
#                run queue), sid (7.2); see tests/vm/kernel.sh
#                [VM_ACCEL=tcg,thread=single]
#   make test-matrix                   the VM suite on every kernel in MATRIX,
#                                      then the PREEMPT_RT boot (MATRIX_RT);
#                                      after each kernel the audit model's
#                                      agreement line (lb_agreement.py) and
#                                      the bug corpus (make test-bugs), the
#                                      lb scenarios on SMT and NUMA machines
#                                      (make test-lb-topos)
#   make test-lb-topos [LB_TOPOS='smt8 numa-ring4 pkg2x4']
#                                      the lb scenarios' agreement and rule
#                                      evidence on those machines
#   make test-rt                       the PREEMPT_RT boot alone
#   make demo [DEMO_DOCS=1]            root vs nested cgroup, 3 rounds, side by side
#   make compare [KERNELS="trixie trixie-backports"] [COMPARE_ROUNDS=3]
#                [COMPARE_SIB_WEIGHT=100] [COMPARE_BENCH='-m 2 -t 6 ...']
#                [COMPARE_SETTINGS='modes' | 'default cgroup_mode=smp ...']
#                [COMPARE_SIB_THREADS=0 (the bench alone)]
#                                      the demo on each kernel, rounds in one
#                                      boot, one report across kernels (and
#                                      across the kernel's switches)
#
# Other fragments add files to the guest with
#   VM_EXTRA_FILES   += $(BUILD)/cli/sched-shadow:/bin/sched-shadow
#   VM_EXTRA_TARGETS += $(BUILD)/cli/sched-shadow
# and read what the guest exported (vm_export NAME FILE) in $(VM_OUT)/NAME.
#
# VM_KO=path boots a prebuilt module instead of building one (development).

KERNEL            ?= bookworm
MATRIX            ?= bullseye bookworm trixie trixie-backports sid
# The matrix runs single-threaded TCG: under multi-threaded TCG one 6.12 run
# died with an int3 Oops at a jump-label site in ttwu_do_activate (a stale
# breakpoint byte executed after text_poke_bp finished: cross-modified code
# the emulator's vCPU threads did not see in time), and the same suite on
# one host thread passed and took less time on this 2-core host.
MATRIX_ACCEL      ?= tcg,thread=single
VM_ENV            := $(CACHE)/$(KERNEL).env
# the default kernel keeps the historical paths; others get their own
VM_SUFFIX         := $(if $(filter bookworm,$(KERNEL)),,-$(KERNEL))$(if $(VM_TOPO),-$(VM_TOPO))
# make test-vm too: with the audit's three probes and the static key
# toggled by scenario 08, one integration run under multi-threaded TCG died
# with a call to address 0 from softirq right after `enable 1` re-armed them
# (the same text-patching artefact, not reproduced on one host thread).
VM_ACCEL          ?= tcg,thread=single
# the whole boot; each scenario has its own timeout (7.2 and 7.3 also run
# scenario 14 under six settings of their switches: about 5 minutes)
VM_TIMEOUT        ?= 1500
VM_SCENARIOS      ?=
VM_EXTRA_FILES    ?=
# the wasted-core scenarios' helpers (4x-wasted-*.sh source it)
VM_EXTRA_FILES    += $(TOP)/tests/vm/guest/wasted.sh:/lib/vm/wasted.sh
# the published-bug corpus (make test-bugs): its entries and their helpers
VM_EXTRA_FILES    += $(TOP)/tests/vm/bugs:/lib/vm/bugs
VM_EXTRA_FILES    += $(TOP)/tests/vm/guest/bugs.sh:/lib/vm/bugs.sh
VM_EXTRA_TARGETS  ?=
VM_KO             ?=
VM_DIR            := $(BUILD)/vm$(VM_SUFFIX)
VM_OUT            := $(BUILD)/vm-out$(VM_SUFFIX)
VM_SUMMARY        ?= $(BUILD)/results/vm$(VM_SUFFIX).summary
VM_INITRD         := $(VM_DIR)/initramfs.cpio
VM_FOREIGN        := $(BUILD)/foreign$(VM_SUFFIX)
VM_FOREIGN_BTF    ?= /sys/kernel/btf/vmlinux
VM_PROGS          := burn rtspin wr catn modload migdis cgtree forker wakepair
VM_PROG_BINS      := $(addprefix $(BUILD)/progs/,$(VM_PROGS))

# VM_TOPO: a named topology (run-vm.sh; numa-ring4 for the NUMA scenarios)
VM_TOPO           ?=
export VM_ACCEL VM_TIMEOUT VM_SCENARIOS VM_TOPO

# PREEMPT_RT: bookworm's RT kernel boots the trace events'
# scenarios only (one boot, about 25 s), after the module built for it
# passed scripts/atomic-calls.py (nothing outside that script's list of
# atomic-safe kernel functions is reachable from the probes).  Debian's RT
# kernel has neither CONFIG_DEBUG_ATOMIC_SLEEP nor lockdep: see
# docs/debugfs.md, "Trace events", for what the boot proves.
MATRIX_RT         ?= bookworm-rt
RT_SCENARIOS      ?= 01*,09*,12*


# make test-big: the big machines (run-vm.sh VM_TOPO), one boot each,
# running the guest suite tests/vm/big/*.sh (plus scenario 50, nothing
# hangs on a CPU held by an RT task): topology, memory, 5,000 cgroups,
# audit coverage.  Single-threaded TCG hands each vCPU long slices: these
# runs test correctness, coverage, memory and cost, not latency.  One
# summary per kernel (results/big$(VM_SUFFIX).summary, the topologies added
# up); part of test-matrix on BIG_KERNELS.
BIG_TOPOLOGIES    ?= smt32 ring16 possible240
BIG_KERNELS       ?= bookworm trixie-backports
BIG_TIMEOUT       ?= 2400
# RCU's stall timeout (21 s of wall time on Debian's kernels) for the big
# machines: their 16-64 vCPUs share one host thread, each running 30-60x
# slower than the clock it keeps.  On 7.x (lazy preemption: a task can be
# preempted inside an RCU read-side section; voluntary is not offered) the
# cgroup build's 24 busy tasks per CPU starve a preempted reader long enough
# for RCU to report it ("Tasks blocked on level-1 rcu_node ... P<pid>/1:b..l")
# with the module never loaded: 4 reports while the 5,000 groups were built
# (none in the 240 s of load after) at a 3 s timeout on smt32, and 5 in one
# of three runs with the module at 21 s.  120 s still reports a CPU or a
# reader that never moves.
BIG_APPEND        ?= rcupdate.rcu_cpu_stall_timeout=120
BIG_SCENARIOS     ?=
BIG_MEM_smt32     ?= 4G
BIG_MEM_smt64     ?= 6G
BIG_MEM_ring16    ?= 2G
BIG_MEM_possible240 ?= 4G
BIG_DIR           := $(BUILD)/big$(VM_SUFFIX)
BIG_SUMMARY       ?= $(BUILD)/results/big$(VM_SUFFIX).summary
VM_EXTRA_FILES    += $(TOP)/tests/vm/big:/lib/vm/big
VM_EXTRA_FILES    += $(TOP)/tests/vm/scenarios/50-no-hang.sh:/lib/vm/big/50-no-hang.sh

# make compare: the kernels (6.12 hierarchical vs 7.3 flat run queue by
# default), rounds per kernel, and the demo settings (empty: demo.sh's own)
KERNELS           ?= trixie trixie-backports
COMPARE_ROUNDS    ?= 3
COMPARE_DURATION  ?= 10
COMPARE_BENCH     ?=
COMPARE_SIB_WEIGHT ?= 100
# 0: the bench alone (no sibling load), root vs nested
COMPARE_SIB_THREADS ?=
# single-threaded TCG like the matrix: under multi-threaded TCG both the 6.12
# and the 7.3 guest died of an int3 Oops at a jump-label site (update_curr_se,
# sched_balance_rq) when `run` attached its BPF programs mid-demo
COMPARE_ACCEL     ?= tcg,thread=single
COMPARE_DIR       := $(BUILD)/compare
# a settings file for the guest's demo.sh (/etc/sched_shadow-demo.conf)
DEMO_CONF         ?=
# The kernel's own switches (tests/vm/demo.sh DEMO_SETTINGS): each setting
# ("default" or NAME=VALUE[,NAME=VALUE]) runs COMPARE_ROUNDS rounds on every
# kernel that has its switches ("default" only where no other one runs);
# the report becomes one table of the nested/root penalty per setting
# (tests/vm/compare-report.py).  "modes": 7.3's five cgroup_modes, cache-
# aware balancing off at concur, and 6.12 (neither switch) as the reference.
COMPARE_SETTINGS  ?=
COMPARE_MODES     := default cgroup_mode=smp cgroup_mode=concur cgroup_mode=max cgroup_mode=tasks \
		     cgroup_mode=up cgroup_mode=concur,llc_balancing=0
COMPARE_SETS      = $(if $(filter modes,$(COMPARE_SETTINGS)),$(COMPARE_MODES),$(COMPARE_SETTINGS))
# each setting's rounds: about 70 s per round of two 10 s cases under TCG
COMPARE_TIMEOUT   ?= $(shell echo $$(( 600 + 120 * $(COMPARE_ROUNDS) * ($(words $(COMPARE_SETS)) + 1) )))

.PHONY: vm-kernel vm-module vm-foreign vm-progs vm-initramfs test-vm test-matrix demo \
	test-rt test-vm-rt compare test-vm-numa test-big

$(BUILD)/progs/%: tests/progs/%.c tests/progs/progs.h tests/progs/cpulist.h
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -Wall -Wextra -static -pthread -o $@ $<

vm-progs: $(VM_PROG_BINS)

vm-kernel:
	@CACHE=$(CACHE) tests/vm/kernel.sh $(KERNEL)

# The module for the VM kernel, built out of tree in $(VM_DIR)/kmod by
# tests/vm/build-module.sh (in the kernel's own suite's toolchain chroot
# when that is not the host's suite), so a host build in module/ or a
# build for another kernel never changes what the VM boots.
vm-module: vm-kernel $(BTFGEN)
	@mkdir -p $(VM_DIR)
ifeq ($(VM_KO),)
	@BTFGEN=$(BTFGEN) TOP=$(TOP) tests/vm/build-module.sh $(VM_ENV) $(VM_DIR)/kmod > $(VM_DIR)/kmod.log 2>&1 || \
	  { echo "vm-module: build for $(KERNEL) failed (see $(VM_DIR)/kmod.log):"; tail -n 15 $(VM_DIR)/kmod.log; exit 1; }
	@tail -n 1 $(VM_DIR)/kmod.log
	cp $(VM_DIR)/kmod/sched_shadow.ko $(VM_DIR)/sched_shadow.ko
else
	cp $(VM_KO) $(VM_DIR)/sched_shadow.ko
endif

# The same sources built against the VM kernel's headers but another
# kernel's BTF (the host's), with the BTF check deferred to insmod: the
# guest must refuse to load it.  A failure here is recorded for the
# guest scenario (which then fails) instead of stopping the suite.
vm-foreign: vm-kernel $(BTFGEN)
	@rm -rf $(VM_FOREIGN) && mkdir -p $(VM_FOREIGN)/out
	@log=$(VM_FOREIGN)/build.log; { \
	  test -r $(VM_FOREIGN_BTF) || { echo "no BTF at $(VM_FOREIGN_BTF) to build a foreign module from"; exit 1; }; \
	  BTFGEN=$(BTFGEN) TOP=$(TOP) tests/vm/build-module.sh $(VM_ENV) $(VM_FOREIGN) $(VM_FOREIGN_BTF) load && \
	  cp $(VM_FOREIGN)/sched_shadow.ko $(VM_FOREIGN)/out/; \
	} > $$log 2>&1 || { echo "vm-foreign: build failed (see $$log):"; tail -n 5 $$log; \
	  { echo "foreign module build failed:"; tail -n 5 $$log; } > $(VM_FOREIGN)/out/BUILD_FAILED; }

vm-initramfs: vm-module vm-foreign vm-progs $(VM_EXTRA_TARGETS)
	@tests/vm/mkinitramfs.sh $(VM_INITRD) $(VM_DIR)/stage $(VM_DIR)/sched_shadow.ko \
		$(VM_FOREIGN)/out $(BUILD)/progs $(VM_EXTRA_FILES) \
		$(if $(DEMO_CONF),$(DEMO_CONF):/etc/sched_shadow-demo.conf)

# "0 passed, 1 failed" stays in the summary unless the run completes,
# so a build failure, a dead or a hung VM all count as failures.
test-vm: $(BUILD)/sched-shadow
	@mkdir -p $(dir $(VM_SUMMARY)) && echo "0 passed, 1 failed" > $(VM_SUMMARY)
	@$(MAKE) --no-print-directory vm-initramfs
	@. $(VM_ENV) && SUMMARY=$(VM_SUMMARY) EXPORT_DIR=$(VM_OUT) \
		tests/vm/run-vm.sh test $$VM_VMLINUZ $(VM_INITRD) $(VM_DIR)

test-big: $(BUILD)/sched-shadow
	@mkdir -p $(dir $(BIG_SUMMARY)) $(BIG_DIR) && echo "0 passed, 1 failed" > $(BIG_SUMMARY)
	@$(MAKE) --no-print-directory vm-initramfs
	@start=$$(date +%s); rm -f $(BIG_DIR)/*.summary; for t in $(BIG_TOPOLOGIES); do \
	  t0=$$(date +%s); mem=; \
	  case $$t in smt32) mem='$(BIG_MEM_smt32)' ;; smt64) mem='$(BIG_MEM_smt64)' ;; \
	    ring16) mem='$(BIG_MEM_ring16)' ;; possible240) mem='$(BIG_MEM_possible240)' ;; esac; \
	  ( . $(VM_ENV) && VM_TOPO=$$t VM_MEM=$$mem VM_TIMEOUT=$(BIG_TIMEOUT) \
	    VM_SCENARIOS='$(BIG_SCENARIOS)' VM_APPEND="vmtest.suite=big big.topology=$$t $(BIG_APPEND) $(VM_APPEND)" \
	    HOST_CHECKS=$(TOP)/tests/vm/big/host SUMMARY=$(BIG_DIR)/$$t.summary EXPORT_DIR=$(BIG_DIR)/$$t/vm-out \
	    tests/vm/run-vm.sh test $$VM_VMLINUZ $(VM_INITRD) $(BIG_DIR)/$$t ); \
	  echo "# test-big: KERNEL=$(KERNEL) $$t: $$(cat $(BIG_DIR)/$$t.summary 2>/dev/null || echo 'no result') in $$(( $$(date +%s) - t0 )) s"; \
	done; \
	SUITES="$(BIG_TOPOLOGIES)" tests/summarize.sh $(BIG_DIR) | tail -n 1 > $(BIG_SUMMARY).tmp; \
	mv $(BIG_SUMMARY).tmp $(BIG_SUMMARY); \
	echo "# test-big: KERNEL=$(KERNEL): $$(cat $(BIG_SUMMARY)) in $$(( $$(date +%s) - start )) s"

# make test-bugs: the published-bug corpus (tests/vm/bugs/*.sh, docs/bugs.md),
# one boot per machine shape its entries ask for (tests/vm/run-bugs.sh);
# BUGS='name ...' selects entries (default: all).  Prints one line per entry:
#   bug <name>: <present|fixed> on <release>: <finding>: <shown|not shown>; <agree|DISAGREE>
# `make test` runs BUGS_TEST on 6.1; `make test-matrix` all of them on every
# kernel of MATRIX.
BUGS              ?=
BUGS_TEST         ?= local_group_imbalance wasted_group_imbalance
BUGS_DIR          := $(BUILD)/bugs$(VM_SUFFIX)
BUGS_SUMMARY      ?= $(BUILD)/results/bugs$(VM_SUFFIX).summary
.PHONY: test-bugs
test-bugs: $(BUILD)/sched-shadow
	@mkdir -p $(dir $(BUGS_SUMMARY)) && echo "0 passed, 1 failed" > $(BUGS_SUMMARY)
	@$(MAKE) --no-print-directory vm-initramfs
	@. $(VM_ENV) && SUMMARY=$(BUGS_SUMMARY) tests/vm/run-bugs.sh $$VM_VMLINUZ $(VM_INITRD) $(BUGS_DIR) $(BUGS)

# Every VM scenario on every kernel of MATRIX, one after the other (each
# kernel's failures are counted, none stops the others); the closing line
# adds them up like `make test` does.
test-matrix: deps
	@mkdir -p $(BUILD)/results/matrix && rm -f $(BUILD)/results/matrix/*.summary
	@start=$$(date +%s); for k in $(MATRIX) $(MATRIX_RT); do \
	  echo "# ---- test-matrix: KERNEL=$$k ----"; t0=$$(date +%s); \
	  t=test-vm sc='$(VM_SCENARIOS)'; \
	  case " $(MATRIX_RT) " in *" $$k "*) t=test-vm-rt sc='$(RT_SCENARIOS)' ;; esac; \
	  $(MAKE) --no-print-directory $$t KERNEL=$$k STRESS_IN_MAKE_TEST=0 VM_ACCEL='$(MATRIX_ACCEL)' \
	    VM_SCENARIOS="$$sc" VM_SUMMARY=$(BUILD)/results/matrix/$$k.summary; \
	  echo "# test-matrix: KERNEL=$$k: $$(cat $(BUILD)/results/matrix/$$k.summary) in $$(( $$(date +%s) - t0 )) s"; \
	  vo=$(BUILD)/vm-out$$([ $$k = bookworm ] || echo -$$k); \
	  if ls $$vo/lbmodel-*.info >/dev/null 2>&1; then python3 tests/vm/host/lb_agreement.py $$vo; fi; \
	  case " $(MATRIX) " in *" $$k "*) t0=$$(date +%s); \
	    $(MAKE) --no-print-directory test-bugs KERNEL=$$k VM_ACCEL='$(MATRIX_ACCEL)' BUGS= \
	      BUGS_SUMMARY=$(BUILD)/results/matrix/$$k-bugs.summary; \
	    echo "# test-matrix: KERNEL=$$k test-bugs: $$(cat $(BUILD)/results/matrix/$$k-bugs.summary) in $$(( $$(date +%s) - t0 )) s" ;; esac; \
	  case " $(LB_TOPO_KERNELS) " in *" $$k "*) t0=$$(date +%s); \
	    $(MAKE) --no-print-directory test-lb-topos KERNEL=$$k VM_ACCEL='$(MATRIX_ACCEL)' \
	      LBT_SUMMARY=$(BUILD)/results/matrix/$$k-lbtopo.summary; \
	    echo "# test-matrix: KERNEL=$$k test-lb-topos: $$(cat $(BUILD)/results/matrix/$$k-lbtopo.summary) in $$(( $$(date +%s) - t0 )) s" ;; esac; \
	  case " $(BIG_KERNELS) " in *" $$k "*) t0=$$(date +%s); \
	    $(MAKE) --no-print-directory test-big KERNEL=$$k BIG_SUMMARY=$(BUILD)/results/matrix/$$k-big.summary; \
	    echo "# test-matrix: KERNEL=$$k test-big: $$(cat $(BUILD)/results/matrix/$$k-big.summary) in $$(( $$(date +%s) - t0 )) s" ;; esac; \
	done; echo "# test-matrix: $$(( $$(date +%s) - start )) s"; \
	SUITES="$(MATRIX) $(MATRIX_RT) $(foreach k,$(MATRIX),$(k)-bugs) $(foreach k,$(LB_TOPO_KERNELS),$(k)-lbtopo) $(foreach k,$(BIG_KERNELS),$(k)-big)" tests/summarize.sh $(BUILD)/results/matrix

test-rt:
	@$(MAKE) --no-print-directory test-vm-rt KERNEL=$(MATRIX_RT) VM_SCENARIOS='$(RT_SCENARIOS)'

# The NUMA scenarios on the 4-node ring (three distances: overlapping groups)
NUMA_SCENARIOS    ?= 39*
test-vm-numa:
	@$(MAKE) --no-print-directory test-vm VM_TOPO=numa-ring4 VM_SCENARIOS='$(NUMA_SCENARIOS)'

# make test-lb-topos: the lb scenarios on the machines where the kernels'
# version-dependent rules can decide, one boot each (run-vm.sh VM_TOPO):
# smt8 (the MC groups are SMT cores: smt_balance, the fully_busy tie's
# "unless SMT", sibling_imbalance's core counts) and numa-ring4 (NUMA
# domains without SD_PREFER_SIBLING, overlapping groups: numa_busiest_nr),
# and, for scenario 28a alone (its phase C: sibling_imbalance; one boot of
# about 90 s per kernel), pkg2x4 (two packages of 4 cores: package
# groups of unequal core counts once CPUs of one are offline).
# Scenario 29's host check runs lb_agreement.py --check --topology T on the
# boot's exports; after each boot the lines are printed again, unindented:
#   <release> <topology>: model agreement ...
#   rule <name> on <release> <topology>: decided N, in force matched A, flipped matched B
# Left out: 22 and 27 (they need the default 3-package machine), 25 (no
# audit), and on smt8 28 (cpu0 and cpu1 as each other's only MC group);
# 39 needs the ring.  One summary per kernel (the topologies added up);
# part of test-matrix on LB_TOPO_KERNELS.
LB_TOPOS          ?= smt8 numa-ring4 pkg2x4
LB_TOPO_SCENARIOS ?= 20*,21*,23*,24*,26*,28a*,29*
LB_TOPO_SCENARIOS_NUMA ?= $(LB_TOPO_SCENARIOS),28-*,39*
LB_TOPO_SCENARIOS_PKG ?= 28a*,29*
LB_TOPO_TIMEOUT   ?= 900
LB_TOPO_KERNELS   ?= $(MATRIX)
LBT_DIR           := $(BUILD)/lbtopo$(VM_SUFFIX)
LBT_SUMMARY       ?= $(BUILD)/results/lbtopo$(VM_SUFFIX).summary
.PHONY: test-lb-topos
test-lb-topos: $(BUILD)/sched-shadow
	@mkdir -p $(dir $(LBT_SUMMARY)) $(LBT_DIR) && echo "0 passed, 1 failed" > $(LBT_SUMMARY)
	@$(MAKE) --no-print-directory vm-initramfs
	@start=$$(date +%s); rm -f $(LBT_DIR)/*.summary; for t in $(LB_TOPOS); do \
	  t0=$$(date +%s); sc='$(LB_TOPO_SCENARIOS)'; \
	  case $$t in numa-*|ring*) sc='$(LB_TOPO_SCENARIOS_NUMA)' ;; pkg*) sc='$(LB_TOPO_SCENARIOS_PKG)' ;; esac; \
	  ( . $(VM_ENV) && VM_TOPO=$$t VM_TIMEOUT=$(LB_TOPO_TIMEOUT) VM_SCENARIOS="$$sc" \
	    SUMMARY=$(LBT_DIR)/lb-$$t.summary EXPORT_DIR=$(LBT_DIR)/$$t/vm-out \
	    tests/vm/run-vm.sh test $$VM_VMLINUZ $(VM_INITRD) $(LBT_DIR)/$$t ); \
	  echo "# test-lb-topos: KERNEL=$(KERNEL) $$t: $$(cat $(LBT_DIR)/lb-$$t.summary 2>/dev/null || echo 'no result') in $$(( $$(date +%s) - t0 )) s"; \
	  if ls $(LBT_DIR)/$$t/vm-out/lbmodel-*.info >/dev/null 2>&1; then \
	    python3 tests/vm/host/lb_agreement.py $(LBT_DIR)/$$t/vm-out --topology $$t | grep -v '^#'; \
	  else echo "# test-lb-topos: KERNEL=$(KERNEL) $$t: no lbmodel exports"; fi; \
	done; \
	SUITES="$(addprefix lb-,$(LB_TOPOS))" tests/summarize.sh $(LBT_DIR) | tail -n 1 > $(LBT_SUMMARY).tmp; \
	mv $(LBT_SUMMARY).tmp $(LBT_SUMMARY); \
	echo "# test-lb-topos: KERNEL=$(KERNEL): $$(cat $(LBT_SUMMARY)) in $$(( $$(date +%s) - start )) s"; \
	case "$$(cat $(LBT_SUMMARY))" in *" 0 failed"*) ;; *) exit 1 ;; esac

# (KERNEL= an RT kernel) the static check of the module built for it, then the boot
test-vm-rt: $(BUILD)/sched-shadow
	@mkdir -p $(dir $(VM_SUMMARY)) && echo "0 passed, 1 failed" > $(VM_SUMMARY)
	@$(MAKE) --no-print-directory vm-module
	@python3 scripts/atomic-calls.py $(VM_DIR)/sched_shadow.ko
	@cp $(VM_DIR)/sched_shadow.ko $(VM_DIR)/checked.ko
	@$(MAKE) --no-print-directory test-vm VM_KO=$(VM_DIR)/checked.ko

# The demo keeps its logs, exports, report and plots in build/demo/
# (tests/vm/demo.sh in the guest, tests/vm/demo-report.sh on the host).
# DEMO_DOCS=1: the runs become docs/examples/ and the docs made from them
# are rewritten (tests/vm/demo-report.sh --docs).
DEMO_DOCS ?=
demo:
	@start=$$(date +%s); \
	$(MAKE) --no-print-directory vm-initramfs $(BUILD)/sched-shadow && \
	rm -rf $(BUILD)/demo/vm-out && \
	( . $(VM_ENV) && EXPORT_DIR=$(BUILD)/demo/vm-out VM_SCENARIOS= \
		tests/vm/run-vm.sh demo $$VM_VMLINUZ $(VM_INITRD) $(BUILD)/demo ) && \
	tests/vm/demo-report.sh --cli $(BUILD)/sched-shadow $(if $(DEMO_DOCS),--docs) $(BUILD)/demo; \
	rc=$$?; echo "make demo: $$(( $$(date +%s) - start )) s"; exit $$rc

# The demo's workload on each of KERNELS, COMPARE_ROUNDS rounds in one boot
# per kernel, then one side-by-side report (tests/vm/compare-report.py):
# build/compare/<kernel>/ holds each boot's logs and exports, and
# build/compare/report.txt the report.  A kernel whose boot fails is
# reported as missing; the others still run.
compare: $(BUILD)/sched-shadow
	@rm -rf $(COMPARE_DIR) && mkdir -p $(COMPARE_DIR)
	@{ echo "DEMO_ROUNDS=$(COMPARE_ROUNDS)"; echo "DEMO_DURATION=$(COMPARE_DURATION)"; \
	   $(if $(COMPARE_BENCH),echo "DEMO_BENCH='$(COMPARE_BENCH)'";) \
	   $(if $(COMPARE_SIB_WEIGHT),echo "DEMO_SIB_WEIGHT=$(COMPARE_SIB_WEIGHT)";) \
	   $(if $(COMPARE_SIB_THREADS),echo "DEMO_SIB_THREADS=$(COMPARE_SIB_THREADS)";) \
	   $(if $(COMPARE_SETS),echo "DEMO_SETTINGS='$(COMPARE_SETS)'";) } > $(COMPARE_DIR)/demo.conf
	@start=$$(date +%s); for k in $(KERNELS); do \
	  echo "# ---- compare: KERNEL=$$k, $(COMPARE_ROUNDS) round(s) ----"; t0=$$(date +%s); \
	  vmdir=$(BUILD)/vm$$([ $$k = bookworm ] || echo -$$k); mkdir -p $(COMPARE_DIR)/$$k; \
	  if $(MAKE) --no-print-directory vm-initramfs KERNEL=$$k DEMO_CONF=$(COMPARE_DIR)/demo.conf; then \
	    ( . $(CACHE)/$$k.env && EXPORT_DIR=$(COMPARE_DIR)/$$k/vm-out VM_SCENARIOS= VM_ACCEL='$(COMPARE_ACCEL)' \
	      VM_TIMEOUT=$(COMPARE_TIMEOUT) VM_APPEND="vmtest.demo_timeout=$(COMPARE_TIMEOUT) $(VM_APPEND)" \
	      tests/vm/run-vm.sh demo $$VM_VMLINUZ $$vmdir/initramfs.cpio $(COMPARE_DIR)/$$k ) | \
	      grep -E '^(== |   run|   the kernel|sched_shadow demo|# vm: (wall|exported .*json))' ; \
	  fi; \
	  echo $$(( $$(date +%s) - t0 )) > $(COMPARE_DIR)/$$k/wall_s 2>/dev/null; \
	  echo "# compare: KERNEL=$$k: $$(( $$(date +%s) - t0 )) s"; \
	done; echo "# compare: $$(( $$(date +%s) - start )) s"; \
	CACHE=$(CACHE) python3 tests/vm/compare-report.py $(if $(COMPARE_SETS),--settings '$(COMPARE_SETS)') \
	  $(COMPARE_DIR) $(KERNELS)
