# SPDX-License-Identifier: GPL-2.0
# Host unit tests: every tests/unit/test_*.c is one TAP program.  Tests
# #include the module/core/*.c (or user-space) file they exercise, so the
# exact code that goes into the .ko is what runs here, behind the shim in
# tests/unit/shim/.
UNIT_SRCS  := $(wildcard tests/unit/test_*.c)
UNIT_BINS  := $(patsubst tests/unit/%.c,$(BUILD)/unit/%,$(UNIT_SRCS))
# host-side oracles tested on committed fixtures (python, TAP like the rest)
UNIT_PY    := $(wildcard tests/unit/test_*.py)
UNIT_CFLAGS := -O1 -g -Wall -Wextra -Werror -fsanitize=address,undefined \
	-Itests/unit/shim -Itests/unit -Imodule/core -Iuserspace -Ibpf \
	-DCLI_VERSION='"$(VERSION)"'

$(BUILD)/unit/%: tests/unit/%.c $(wildcard module/core/*.[ch]) $(wildcard userspace/*.[ch]) $(wildcard userspace/cli/*.[ch] userspace/cli/*/*.[ch]) tests/unit/tap.h tests/unit/cli_capture.h
	@mkdir -p $(dir $@)
	$(CC) $(UNIT_CFLAGS) -o $@ $< -lm $(UNIT_LIBS)

# btfgen's test runs the real generator on synthetic BTF written with libbpf
$(BUILD)/unit/test_btfgen: $(BTFGEN)
$(BUILD)/unit/test_btfgen: UNIT_LIBS = -lbpf
$(BUILD)/unit/test_btfgen: UNIT_CFLAGS = -O1 -g -Wall -Wextra -Werror -fsanitize=address,undefined \
	-Itests/unit -DBTFGEN_PATH='"$(BTFGEN)"'

test-unit: $(UNIT_BINS)
	@mkdir -p $(BUILD)/results
	@pass=0; fail=0; skip=0; \
	for t in $(UNIT_BINS) $(UNIT_PY); do \
		out=$$($$t 2>&1); rc=$$?; echo "$$out"; \
		line=$$(echo "$$out" | grep -E '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$$' | tail -n1); \
		if [ -z "$$line" ]; then echo "not ok - $$t crashed (rc=$$rc)"; fail=$$((fail+1)); continue; fi; \
		p=$${line%% passed*}; f=$${line#*, }; f=$${f%% failed*}; s=0; \
		case $$line in *skipped) s=$${line##*failed, }; s=$${s%% skipped}; ;; esac; \
		[ $$rc -ne 0 ] && [ $$f -eq 0 ] && f=1; \
		pass=$$((pass+p)); fail=$$((fail+f)); skip=$$((skip+s)); \
	done; \
	echo "$$pass passed, $$fail failed, $$skip skipped" | tee $(BUILD)/results/unit.summary; \
	[ $$fail -eq 0 ]

# Tests of the CLI as a whole (cli_main(), run, report, compare) link the
# CLI itself: every .c under userspace/cli/ built with the unit flags (sanitizers)
# and the build's features into one archive (rules in userspace/cli.mk),
# main() left out, so the test runs exactly the commands the binary has.
UNIT_CLI_TESTS := test_cli_main test_perfetto test_report test_cli_conventions test_knobs test_evidence
UNIT_CLI_LIB   := $(BUILD)/unit/libsched-shadow-cli.a
$(addprefix $(BUILD)/unit/,$(UNIT_CLI_TESTS)): $(UNIT_CLI_LIB)
$(addprefix $(BUILD)/unit/,$(UNIT_CLI_TESTS)): UNIT_CFLAGS += -I$(BUILD)/cli -I$(BUILD)/bpf
$(addprefix $(BUILD)/unit/,$(UNIT_CLI_TESTS)): UNIT_LIBS = $(UNIT_CLI_LIB) $(CLI_LIB_BPF) $(CLI_LIB_PB) -lm

# docs/debugfs.md's reason list is generated from module/core/audit_reasons.h
# (the unit test fails while they differ): rewrite it between its markers
.PHONY: docs-reasons
docs-reasons: $(BUILD)/unit/test_audit_core
	@$< --reasons-md > $(BUILD)/reasons.md
	@python3 -c 'import sys; d = open("docs/debugfs.md").read(); b = "<!-- reasons: generated from module/core/audit_reasons.h (make docs-reasons) -->\n"; e = "<!-- reasons: end -->\n"; i = d.index(b) + len(b); j = d.index(e, i); open("docs/debugfs.md", "w").write(d[:i] + open(sys.argv[1]).read() + d[j:])' $(BUILD)/reasons.md
	@echo "docs/debugfs.md: reason list rewritten from the table"
