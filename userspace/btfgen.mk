# SPDX-License-Identifier: GPL-2.0
# The BTF offset generator (a build tool for the module).
BTFGEN := $(BUILD)/btfgen

$(BTFGEN): userspace/btfgen.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< -lbpf

tools: $(BTFGEN)
