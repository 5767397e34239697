# SPDX-License-Identifier: GPL-2.0
# VM test harness (included by the top Makefile after userspace/cli.mk and
# bpf/bpf.mk).  Debian's own kernel boots under QEMU (TCG) with an
# initramfs holding busybox, the module, the workload programs, the guest
# scripts and whatever other fragments list in VM_EXTRA_FILES.
#
#   make vm-kernel [KERNEL=bookworm]   fetch/unpack the kernel into $(CACHE)
#   make test-vm [VM_SCENARIOS=glob,glob] [VM_ACCEL=tcg,thread=single]
#   make demo                          root vs nested cgroup, side by side
#
# Other fragments add files to the guest with
#   VM_EXTRA_FILES   += $(BUILD)/cli/sched-shadow:/bin/sched-shadow
#   VM_EXTRA_TARGETS += $(BUILD)/cli/sched-shadow
# and read what the guest exported (vm_export NAME FILE) in $(VM_OUT)/NAME.
#
# VM_KO=path boots a prebuilt module instead of building one (development).

KERNEL            ?= bookworm
VM_ENV            := $(CACHE)/$(KERNEL).env
VM_ACCEL          ?= tcg
VM_TIMEOUT        ?= 900
VM_SCENARIOS      ?=
VM_EXTRA_FILES    ?=
VM_EXTRA_TARGETS  ?=
VM_KO             ?=
VM_DIR            := $(BUILD)/vm
VM_OUT            := $(BUILD)/vm-out
VM_INITRD         := $(VM_DIR)/initramfs.cpio
VM_FOREIGN        := $(BUILD)/foreign
VM_FOREIGN_BTF    ?= /sys/kernel/btf/vmlinux
VM_PROGS          := burn rtspin wr catn modload
VM_PROG_BINS      := $(addprefix $(BUILD)/progs/,$(VM_PROGS))

export VM_ACCEL VM_TIMEOUT VM_SCENARIOS

.PHONY: vm-kernel vm-module vm-foreign vm-progs vm-initramfs test-vm demo

$(BUILD)/progs/%: tests/progs/%.c tests/progs/progs.h
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -Wall -Wextra -static -pthread -o $@ $<

vm-progs: $(VM_PROG_BINS)

vm-kernel:
	@CACHE=$(CACHE) tests/vm/kernel.sh $(KERNEL)

# The module for the VM kernel (kept in $(VM_DIR) so that a later host
# build in module/ does not change what the VM boots).
vm-module: vm-kernel
	@mkdir -p $(VM_DIR)
ifeq ($(VM_KO),)
	@. $(VM_ENV) && $(MAKE) --no-print-directory module KDIR=$$VM_KDIR BTF=$$VM_BTF BTF_RELEASE=$$VM_RELEASE
	cp module/sched_shadow.ko $(VM_DIR)/sched_shadow.ko
else
	cp $(VM_KO) $(VM_DIR)/sched_shadow.ko
endif

# The same sources built against the VM kernel's headers but another
# kernel's BTF (the host's), with the BTF check deferred to insmod: the
# guest must refuse to load it.  A failure here is recorded for the
# guest scenario (which then fails) instead of stopping the suite.
vm-foreign: vm-kernel $(BTFGEN)
	@rm -rf $(VM_FOREIGN) && mkdir -p $(VM_FOREIGN)/out
	@set -o pipefail; . $(VM_ENV); log=$(VM_FOREIGN)/build.log; { \
	  test -r $(VM_FOREIGN_BTF) || { echo "no BTF at $(VM_FOREIGN_BTF) to build a foreign module from"; exit 1; }; \
	  cp Kbuild VERSION $(VM_FOREIGN)/ && \
	  tar -C $(TOP) --exclude='*.o' --exclude='*.ko' --exclude='*.mod' --exclude='*.mod.c' \
	      --exclude='.*.cmd' --exclude='generated' --exclude='modules.order' -cf - module | tar -C $(VM_FOREIGN) -xf - && \
	  mkdir -p $(VM_FOREIGN)/module/generated && \
	  $(BTFGEN) --btf $(VM_FOREIGN_BTF) --manifest module/kstruct.fields \
	      -o $(VM_FOREIGN)/module/generated/kstruct_gen.h && \
	  $(MAKE) -C $$VM_KDIR M=$(VM_FOREIGN) SHADOW_BTF_CHECK=load modules && \
	  cp $(VM_FOREIGN)/module/sched_shadow.ko $(VM_FOREIGN)/out/; \
	} > $$log 2>&1 || { echo "vm-foreign: build failed (see $$log):"; tail -n 5 $$log; \
	  { echo "foreign module build failed:"; tail -n 5 $$log; } > $(VM_FOREIGN)/out/BUILD_FAILED; }

vm-initramfs: vm-module vm-foreign vm-progs $(VM_EXTRA_TARGETS)
	@tests/vm/mkinitramfs.sh $(VM_INITRD) $(VM_DIR)/stage $(VM_DIR)/sched_shadow.ko \
		$(VM_FOREIGN)/out $(BUILD)/progs $(VM_EXTRA_FILES)

# "0 passed, 1 failed" stays in the summary unless the run completes,
# so a build failure, a dead or a hung VM all count as failures.
test-vm:
	@mkdir -p $(BUILD)/results && echo "0 passed, 1 failed" > $(BUILD)/results/vm.summary
	@$(MAKE) --no-print-directory vm-initramfs
	@. $(VM_ENV) && SUMMARY=$(BUILD)/results/vm.summary EXPORT_DIR=$(VM_OUT) \
		tests/vm/run-vm.sh test $$VM_VMLINUZ $(VM_INITRD) $(VM_DIR)

# The demo keeps its logs, exports, report and plots in build/demo/
# (tests/vm/demo.sh in the guest, tests/vm/demo-report.py on the host).
demo:
	@$(MAKE) --no-print-directory vm-initramfs $(BUILD)/sched-shadow
	@. $(VM_ENV) && EXPORT_DIR=$(BUILD)/demo/vm-out VM_SCENARIOS= \
		tests/vm/run-vm.sh demo $$VM_VMLINUZ $(VM_INITRD) $(BUILD)/demo
	@python3 tests/vm/demo-report.py --cli $(BUILD)/sched-shadow $(BUILD)/demo
