# SPDX-License-Identifier: GPL-2.0
# BPF latency component: vmlinux.h from BTF, latency.bpf.o, libbpf skeleton.
# Everything generated goes to $(BUILD)/bpf/, never into the source tree.
# Included by the top-level Makefile after userspace/cli.mk, so the CLI
# variables below are appended to (deferred expansion makes that work).
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

CLI_BPF_DEPS := $(BPF_OUT)/latency.skel.h
CLI_CFLAGS   += -I$(BPF_OUT)

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

test-bpf: $(CLI_BPF_DEPS) $(CLI_BIN)
	@mkdir -p $(BUILD)/results
	TAP_SUMMARY=$(BUILD)/results/bpf.summary BUILD=$(BUILD) \
		SCHED_SHADOW=$(CLI_BIN) tests/bpf/run.sh
