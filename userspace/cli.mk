# SPDX-License-Identifier: GPL-2.0
# sched-shadow CLI (userspace/cli/).  Included by the top-level Makefile
# before bpf/bpf.mk, so every variable bpf.mk may set is used deferred (=):
#   CLI_BPF_DEPS        generated headers (BPF skeleton) the CLI objects need
#   CLI_EXTRA_CFLAGS    e.g. -I$(BUILD)/bpf for the skeleton's directory
#   CLI_EXTRA_LDLIBS    extra libraries for both binaries
# Outputs: $(BUILD)/sched-shadow (dynamic, host) and
# $(BUILD)/sched-shadow-static (static, packed into the VM initramfs).

CLI_DIR     := userspace/cli
CLI_SRCS     = $(wildcard $(CLI_DIR)/*.c)
CLI_OBJS     = $(patsubst $(CLI_DIR)/%.c,$(BUILD)/cli/%.o,$(CLI_SRCS))
CLI_CFLAGS   = $(CFLAGS) -std=gnu11 -D_GNU_SOURCE -Iuserspace -Ibpf -I$(BUILD)/bpf \
	       -DCLI_VERSION='"$(VERSION)"' $(CLI_EXTRA_CFLAGS) -MMD -MP
CLI_LDLIBS   = $(CLI_EXTRA_LDLIBS) -lbpf -lelf -lz -lm
# libbpf's static dependencies as pkg-config reports them (-lbpf -lelf -lz on
# Debian 12); libelf.a may want libzstd on newer distributions.
CLI_STATIC_LDLIBS = $(CLI_EXTRA_LDLIBS) \
	$(or $(shell pkg-config --static --libs libbpf 2>/dev/null),-lbpf -lelf -lz) \
	$(if $(wildcard /usr/lib/*/libzstd.a),-lzstd) -lm -lpthread

CLI_BIN     = $(BUILD)/sched-shadow

tools: $(BUILD)/sched-shadow
VM_EXTRA_TARGETS += $(BUILD)/sched-shadow-static
VM_EXTRA_FILES   += $(BUILD)/sched-shadow-static:/bin/sched-shadow

$(BUILD)/cli/%.o: $(CLI_DIR)/%.c $(CLI_BPF_DEPS)
	@mkdir -p $(dir $@)
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
