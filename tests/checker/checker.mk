# SPDX-License-Identifier: GPL-2.0
# The independent checker (tests/checker/README.md): its model of
# find_busiest_group() per kernel, written from fair.c, against the
# module's audit core built on the host from module/core/*.c behind the
# unit tests' shim, on random domains.  CHECKER_CASES per rule variant.
CHECKER_CASES ?= 100000
CHECKER_BIN   := $(BUILD)/checker/driver

$(CHECKER_BIN): tests/checker/driver.c $(wildcard module/core/*.[ch])
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -Wall -Wextra -Werror -Wno-comment -Itests/unit/shim -Imodule/core \
		-o $@ tests/checker/driver.c module/core/audit_core.c module/core/work.c

.PHONY: test-checker
test-checker: $(CHECKER_BIN)
	@mkdir -p $(BUILD)/results
	@set -o pipefail; python3 tests/checker/crosscheck.py $(CHECKER_BIN) --cases $(CHECKER_CASES) | \
		tee $(BUILD)/results/checker.log; rc=$$?; \
	grep -E '^[0-9]+ passed, [0-9]+ failed' $(BUILD)/results/checker.log | tail -n1 > $(BUILD)/results/checker.summary; \
	exit $$rc

# Rule mutations of the core the cross-check must catch (not part of make test)
.PHONY: test-checker-teeth
test-checker-teeth:
	@BUILD=$(BUILD) CC=$(CC) tests/checker/teeth.sh
