# SPDX-License-Identifier: GPL-2.0
# BPF latency component: vmlinux.h from BTF, latency.bpf.o, libbpf skeleton.
# Everything generated goes to $(BUILD)/bpf/, never into the source tree.
# Included by the top-level Makefile after userspace/cli.mk, whose object
# rules depend on $(CLI_BPF_DEPS) and whose CLI_CFLAGS (deferred) already
# holds -I$(BUILD)/bpf for the skeleton.
#
#   make bpf             build $(BUILD)/bpf/latency.skel.h
#   make test-bpf        host BPF suite (root; raw tracepoints), TAP output
#   VMLINUX_BTF=path     BTF to generate vmlinux.h from (CO-RE: any recent
#                        kernel's BTF works, relocation happens at load time)

VMLINUX_BTF  ?= /sys/kernel/btf/vmlinux
BPF_CLANG    ?= clang
BPFTOOL      ?= bpftool
BPF_OUT      := $(BUILD)/bpf
BPF_ARCH     := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
BPF_CFLAGS   := -g -O2 -Wall -target bpf -D__TARGET_ARCH_$(BPF_ARCH) \
		-I$(BPF_OUT) -Ibpf

# The one CLI object that includes the skeleton; none when cli.mk found the
# BPF feature off (no clang or bpftool: the CLI is built without it).
CLI_BPF_DEPS := $(if $(CLI_BPF_WHY),,$(BPF_OUT)/latency.skel.h)
$(BUILD)/cli/sources/latency.o: $(CLI_BPF_DEPS)

.PHONY: bpf test-bpf
bpf: $(BPF_OUT)/latency.skel.h

# vmlinux.h only changes when the BTF does: regenerate into a temp file and
# keep the old one (and its timestamp) when identical.
$(BPF_OUT)/vmlinux.h: $(VMLINUX_BTF)
	@mkdir -p $(BPF_OUT)
	$(BPFTOOL) btf dump file $(VMLINUX_BTF) format c > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; touch $@; else mv $@.tmp $@; fi

$(BPF_OUT)/latency.bpf.o: bpf/latency.bpf.c bpf/latency.h $(BPF_OUT)/vmlinux.h
	$(BPF_CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BPF_OUT)/latency.skel.h: $(BPF_OUT)/latency.bpf.o
	$(BPFTOOL) gen skeleton $< name latency_bpf > $@.tmp && mv $@.tmp $@

test-bpf: $(BUILD)/sched-shadow $(BUILD)/pelt-count $(BTFGEN)
	@mkdir -p $(BUILD)/results
	TAP_SUMMARY=$(BUILD)/results/bpf.summary BUILD=$(BUILD) \
		SCHED_SHADOW=$(BUILD)/sched-shadow PELT_COUNT=$(BUILD)/pelt-count tests/bpf/run.sh

# pelt-count: the BPF alternative `make bench` measures against
# the module; the static build goes into the bench VM (tests/bench/bench.mk)
# and the dynamic one is tried on the host by test-bpf.
PC_CFLAGS = $(CFLAGS) -std=gnu11 -D_GNU_SOURCE -Ibpf -I$(BPF_OUT)

bpf: $(BUILD)/pelt-count

$(BPF_OUT)/pelt_count.bpf.o: bpf/pelt_count.bpf.c bpf/pelt_count.h $(BPF_OUT)/vmlinux.h
	$(BPF_CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BPF_OUT)/pelt_count.skel.h: $(BPF_OUT)/pelt_count.bpf.o
	$(BPFTOOL) gen skeleton $< name pelt_count_bpf > $@.tmp && mv $@.tmp $@

$(BUILD)/pelt-count: bpf/pelt_count.c bpf/pelt_count.h $(BPF_OUT)/pelt_count.skel.h
	$(CC) $(PC_CFLAGS) -o $@ $< $(CLI_LDLIBS)

$(BUILD)/pelt-count-static: bpf/pelt_count.c bpf/pelt_count.h $(BPF_OUT)/pelt_count.skel.h
	$(CC) $(PC_CFLAGS) -static -o $@ $< $(CLI_STATIC_LDLIBS)
