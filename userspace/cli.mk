# SPDX-License-Identifier: GPL-2.0
# sched-shadow CLI (userspace/cli/).  Included by the top-level Makefile
# before bpf/bpf.mk, so every variable bpf.mk may set is used deferred (=):
#   CLI_BPF_DEPS        generated headers (BPF skeleton) the CLI objects need
#   CLI_EXTRA_CFLAGS    e.g. -I$(BUILD)/bpf for the skeleton's directory
#   CLI_EXTRA_LDLIBS    extra libraries for both binaries
# Outputs: $(BUILD)/sched-shadow (dynamic, host) and
# $(BUILD)/sched-shadow-static (static, packed into the VM initramfs).

CLI_DIR     := userspace/cli
# Perfetto traces (pftrace.c): protoc-c (protobuf-c-compiler) turns the
# project's perfetto_trace.proto into $(BUILD)/cli/perfetto_trace.pb-c.[ch],
# linked with libprotobuf-c (libprotobuf-c-dev; its .a for the static CLI).
CLI_PROTO    = $(CLI_DIR)/perfetto_trace.proto
CLI_PB_C     = $(BUILD)/cli/perfetto_trace.pb-c.c
CLI_PB_H     = $(BUILD)/cli/perfetto_trace.pb-c.h
CLI_SRCS     = $(wildcard $(CLI_DIR)/*.c)
CLI_OBJS     = $(patsubst $(CLI_DIR)/%.c,$(BUILD)/cli/%.o,$(CLI_SRCS)) $(BUILD)/cli/perfetto_trace.pb-c.o
CLI_CFLAGS   = $(CFLAGS) -std=gnu11 -D_GNU_SOURCE -Iuserspace -Ibpf -I$(BUILD)/bpf -I$(BUILD)/cli \
	       -DCLI_VERSION='"$(VERSION)"' $(CLI_EXTRA_CFLAGS) -MMD -MP
CLI_LDLIBS   = $(CLI_EXTRA_LDLIBS) -lbpf -lelf -lz -lprotobuf-c -lm
# libbpf's static dependencies as pkg-config reports them (-lbpf -lelf -lz on
# Debian 12); libelf.a may want libzstd on newer distributions.
CLI_STATIC_LDLIBS = $(CLI_EXTRA_LDLIBS) \
	$(or $(shell pkg-config --static --libs libbpf 2>/dev/null),-lbpf -lelf -lz) \
	$(if $(wildcard /usr/lib/*/libzstd.a),-lzstd) \
	$(or $(shell pkg-config --static --libs libprotobuf-c 2>/dev/null),-lprotobuf-c) -lm -lpthread

CLI_BIN     = $(BUILD)/sched-shadow

tools: $(BUILD)/sched-shadow
VM_EXTRA_TARGETS += $(BUILD)/sched-shadow-static
VM_EXTRA_FILES   += $(BUILD)/sched-shadow-static:/bin/sched-shadow

$(BUILD)/cli/%.o: $(CLI_DIR)/%.c $(CLI_BPF_DEPS) $(CLI_PB_H)
	@mkdir -p $(dir $@)
	$(CC) $(CLI_CFLAGS) -c -o $@ $<

$(CLI_PB_H): $(CLI_PB_C)
$(CLI_PB_C): $(CLI_PROTO)
	@mkdir -p $(dir $@)
	@command -v protoc-c >/dev/null || { echo "error: protoc-c not found (apt-get install protobuf-c-compiler libprotobuf-c-dev; make deps)"; exit 1; }
	protoc-c --c_out=$(BUILD)/cli -I$(CLI_DIR) $(CLI_PROTO)

$(BUILD)/cli/perfetto_trace.pb-c.o: $(CLI_PB_C)
	$(CC) $(CLI_CFLAGS) -c -o $@ $<

# the version comes in as -DCLI_VERSION from the VERSION file
$(BUILD)/cli/main.o: VERSION

$(BUILD)/sched-shadow: $(CLI_OBJS)
	$(CC) $(CFLAGS) -o $@ $^ $(CLI_LDLIBS)

$(BUILD)/sched-shadow-static: $(CLI_OBJS)
	$(CC) $(CFLAGS) -static -o $@ $^ $(CLI_STATIC_LDLIBS)

.PHONY: cli-clean
cli-clean:
	rm -rf $(BUILD)/cli $(BUILD)/sched-shadow $(BUILD)/sched-shadow-static

-include $(wildcard $(BUILD)/cli/*.d)
