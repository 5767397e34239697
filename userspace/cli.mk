# SPDX-License-Identifier: GPL-2.0
# sched-shadow CLI (userspace/cli/).  Included by the top-level Makefile
# before bpf/bpf.mk, so every variable bpf.mk may set is used deferred (=):
#   CLI_BPF_DEPS        generated headers (BPF skeleton) the CLI objects need
#   CLI_EXTRA_CFLAGS    e.g. -I$(BUILD)/bpf for the skeleton's directory
#   CLI_EXTRA_LDLIBS    extra libraries for both binaries
# Outputs: $(BUILD)/sched-shadow (dynamic, host) and
# $(BUILD)/sched-shadow-static (static, packed into the VM initramfs).

CLI_DIR     := userspace/cli

# ---- optional features, detected (bpftool style) --------------------------
# A feature whose tools are missing is built out (-DCLI_NO_<F>="why", see
# userspace/cli/features.h) and `make` says which and why; `sched-shadow
# version` lists them.  NO_BPF=1 / NO_PERFETTO=1 turn one off by hand.
#   bpf       the wakeup-latency collector of `run`: clang and bpftool build
#             the BPF object and its skeleton from the kernel's BTF
#   perfetto  `record/run --perfetto`: protoc-c compiles perfetto_trace.proto,
#             libprotobuf-c (its .a for the static CLI) encodes the trace
BPF_CLANG   ?= clang
BPFTOOL     ?= bpftool
VMLINUX_BTF ?= /sys/kernel/btf/vmlinux
cli_have     = $(shell command -v $(1) >/dev/null 2>&1 && echo y)
CLI_BPF_WHY := $(strip $(if $(filter 1,$(NO_BPF)),turned off (NO_BPF=1),\
	$(if $(call cli_have,$(BPF_CLANG)),\
	$(if $(call cli_have,$(BPFTOOL)),\
	$(if $(wildcard $(VMLINUX_BTF)),,no kernel BTF at $(VMLINUX_BTF) for vmlinux.h (VMLINUX_BTF=path)),\
	$(BPFTOOL) not found (apt-get install bpftool)),\
	$(BPF_CLANG) not found (apt-get install clang llvm))))
CLI_PERFETTO_WHY := $(strip $(if $(filter 1,$(NO_PERFETTO)),turned off (NO_PERFETTO=1),\
	$(if $(call cli_have,protoc-c),\
	$(if $(wildcard /usr/include/protobuf-c/protobuf-c.h),,protobuf-c.h not found (apt-get install libprotobuf-c-dev)),\
	protoc-c not found (apt-get install protobuf-c-compiler))))
CLI_BPF      = $(if $(CLI_BPF_WHY),off,on)
CLI_PERFETTO = $(if $(CLI_PERFETTO_WHY),off,on)
CLI_FEATURE_CFLAGS = $(if $(CLI_BPF_WHY),-DCLI_NO_BPF='"$(CLI_BPF_WHY)"') \
	$(if $(CLI_PERFETTO_WHY),-DCLI_NO_PERFETTO='"$(CLI_PERFETTO_WHY)"')

.PHONY: cli-features
cli-features:
	@echo "sched-shadow: optional features"
	@printf '...%30s: [ %-3s ] %s\n' bpf $(CLI_BPF) '$(CLI_BPF_WHY)' perfetto $(CLI_PERFETTO) '$(CLI_PERFETTO_WHY)'

# Perfetto traces (pftrace.c): protoc-c turns the project's
# perfetto/perfetto_trace.proto into $(BUILD)/cli/perfetto_trace.pb-c.[ch].
CLI_PROTO    = $(CLI_DIR)/perfetto/perfetto_trace.proto
CLI_PB_C     = $(BUILD)/cli/perfetto_trace.pb-c.c
CLI_PB_H     = $(BUILD)/cli/perfetto_trace.pb-c.h
CLI_SRCS     = $(wildcard $(CLI_DIR)/*.c $(CLI_DIR)/*/*.c)
CLI_OBJS     = $(patsubst $(CLI_DIR)/%.c,$(BUILD)/cli/%.o,$(CLI_SRCS)) \
	       $(if $(CLI_PERFETTO_WHY),,$(BUILD)/cli/perfetto_trace.pb-c.o)
CLI_CFLAGS   = $(CFLAGS) -std=gnu11 -D_GNU_SOURCE -Iuserspace -Ibpf -I$(BUILD)/bpf -I$(BUILD)/cli \
	       -DCLI_VERSION='"$(VERSION)"' $(CLI_FEATURE_CFLAGS) $(CLI_EXTRA_CFLAGS) -MMD -MP
CLI_LIB_BPF  = $(if $(CLI_BPF_WHY),,-lbpf -lelf -lz)
CLI_LIB_PB   = $(if $(CLI_PERFETTO_WHY),,-lprotobuf-c)
CLI_LDLIBS   = $(CLI_EXTRA_LDLIBS) $(CLI_LIB_BPF) $(CLI_LIB_PB) -lm
# libbpf's static dependencies as pkg-config reports them (-lbpf -lelf -lz on
# Debian 12); libelf.a may want libzstd on newer distributions.
CLI_STATIC_LDLIBS = $(CLI_EXTRA_LDLIBS) \
	$(if $(CLI_BPF_WHY),,$(or $(shell pkg-config --static --libs libbpf 2>/dev/null),-lbpf -lelf -lz) \
	$(if $(wildcard /usr/lib/*/libzstd.a),-lzstd)) \
	$(if $(CLI_PERFETTO_WHY),,$(or $(shell pkg-config --static --libs libprotobuf-c 2>/dev/null),-lprotobuf-c)) \
	-lm -lpthread
# the objects that include a generated header, when its feature is on
CLI_GEN_HDRS = $(if $(CLI_PERFETTO_WHY),,$(CLI_PB_H))

CLI_BIN     = $(BUILD)/sched-shadow

tools: cli-features $(BUILD)/sched-shadow
VM_EXTRA_TARGETS += $(BUILD)/sched-shadow-static $(BUILD)/quickstart.txt
VM_EXTRA_FILES   += $(BUILD)/sched-shadow-static:/bin/sched-shadow \
		    $(BUILD)/quickstart.txt:/etc/sched_shadow-quickstart.txt

# The README's quick start as data (tests/quickstart/extract.sh): the host
# steps run in tests/install, the rest in VM scenario 64.
$(BUILD)/quickstart.txt: README.md tests/quickstart/extract.sh
	@mkdir -p $(dir $@)
	tests/quickstart/extract.sh README.md > $@.tmp && mv $@.tmp $@

# An object is rebuilt when a feature turns on or off (the flags file changes).
CLI_FLAGS_FILE = $(BUILD)/cli/features.flags
$(CLI_FLAGS_FILE): FORCE
	@mkdir -p $(dir $@)
	@echo '$(CLI_FEATURE_CFLAGS)' > $@.tmp; if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

$(BUILD)/cli/%.o: $(CLI_DIR)/%.c $(CLI_GEN_HDRS) $(CLI_FLAGS_FILE)
	@mkdir -p $(dir $@)
	$(CC) $(CLI_CFLAGS) -c -o $@ $<

$(CLI_PB_H): $(CLI_PB_C)
$(CLI_PB_C): $(CLI_PROTO)
	@mkdir -p $(dir $@)
	@command -v protoc-c >/dev/null || { echo "error: protoc-c not found (apt-get install protobuf-c-compiler libprotobuf-c-dev; make deps)"; exit 1; }
	protoc-c --c_out=$(BUILD)/cli -I$(dir $(CLI_PROTO)) $(CLI_PROTO)

$(BUILD)/cli/perfetto_trace.pb-c.o: $(CLI_PB_C)
	$(CC) $(CLI_CFLAGS) -c -o $@ $<

# the version comes in as -DCLI_VERSION from the VERSION file
$(BUILD)/cli/main.o: VERSION

$(BUILD)/sched-shadow: $(CLI_OBJS)
	$(CC) $(CFLAGS) -o $@ $(CLI_OBJS) $(CLI_LDLIBS)

$(BUILD)/sched-shadow-static: $(CLI_OBJS)
	$(CC) $(CFLAGS) -static -o $@ $(CLI_OBJS) $(CLI_STATIC_LDLIBS)

# The CLI for host unit tests (tests/unit/unit.mk): the same sources and
# features, with the unit flags (sanitizers), main() left out.
UNIT_CLI_OBJS = $(patsubst $(CLI_DIR)/%.c,$(BUILD)/unit/cli/%.o,$(CLI_SRCS)) \
	$(if $(CLI_PERFETTO_WHY),,$(BUILD)/unit/cli/perfetto_trace.pb-c.o)
UNIT_CLI_CFLAGS = -O1 -g -Wall -Wextra -Werror -fsanitize=address,undefined -std=gnu11 \
	-D_GNU_SOURCE -DCLI_NO_MAIN -DCLI_VERSION='"$(VERSION)"' $(CLI_FEATURE_CFLAGS) \
	-Iuserspace -Ibpf -I$(BUILD)/cli -I$(BUILD)/bpf
$(BUILD)/unit/cli/%.o: $(CLI_DIR)/%.c $(CLI_GEN_HDRS) $(CLI_FLAGS_FILE)
	@mkdir -p $(dir $@)
	$(CC) $(UNIT_CLI_CFLAGS) -MMD -MP -c -o $@ $<
$(BUILD)/unit/cli/sources/latency.o: $(if $(CLI_BPF_WHY),,$(BUILD)/bpf/latency.skel.h)
$(BUILD)/unit/cli/perfetto_trace.pb-c.o: $(CLI_PB_C)
	@mkdir -p $(dir $@)
	$(CC) $(UNIT_CLI_CFLAGS) -c -o $@ $<
$(BUILD)/unit/libsched-shadow-cli.a: $(UNIT_CLI_OBJS)
	@rm -f $@
	ar rcs $@ $(UNIT_CLI_OBJS)
-include $(wildcard $(BUILD)/unit/cli/*.d $(BUILD)/unit/cli/*/*.d)

.PHONY: cli-clean
cli-clean:
	rm -rf $(BUILD)/cli $(BUILD)/sched-shadow $(BUILD)/sched-shadow-static

-include $(wildcard $(BUILD)/cli/*.d $(BUILD)/cli/*/*.d)

# The man page's GLOBAL OPTIONS and COMMANDS sections and the bash
# completion are generated from the CLI's option tables; they are
# committed (readable in the tree, installed without running the CLI) and
# tests/unit/test_cli_conventions.c fails while they differ from the code.
CLI_MAN  := docs/sched-shadow.1
CLI_COMP := bash-completion/sched-shadow
.PHONY: docs-cli
docs-cli: $(BUILD)/sched-shadow
	@$(BUILD)/sched-shadow help --man > $(BUILD)/man-generated.roff
	@python3 -c 'import sys; d = open(sys.argv[1]).read(); b = ".\\\" BEGIN GENERATED\n"; e = ".\\\" END GENERATED\n"; i = d.index(b) + len(b); j = d.index(e, i); open(sys.argv[1], "w").write(d[:i] + open(sys.argv[2]).read() + d[j:])' $(CLI_MAN) $(BUILD)/man-generated.roff
	@mkdir -p $(dir $(CLI_COMP))
	@$(BUILD)/sched-shadow help --bash-completion > $(CLI_COMP)
	@echo "$(CLI_MAN), $(CLI_COMP): rewritten from the option tables"
