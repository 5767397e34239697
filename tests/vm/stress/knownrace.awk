# SPDX-License-Identifier: GPL-2.0
# Known kernel race filter (see stress.lib: rmmod vs a debugfs open makes
# 6.1's full_proxy_open() WARN "debugfs file owner did not clean up at
# exit").  Reads a kernel log (dmesg, or the serial console with the guest's
# own lines mixed in), prints it without the lines of that race's reports
# and writes how many reports it dropped to the file `countfile` (default:
# stderr).
# A report is recognised only when, between its "cut here" and "end trace"
# lines, it has all three:
#   - the message for one of our debugfs files (the exact list below),
#   - "WARNING: CPU: N PID: N at fs/debugfs/file.c:N full_proxy_open",
#   - "RIP: ...:full_proxy_open+";
# and it is dropped only if the log showed a load of the module before it
# (every report needs an rmmod, and each rmmod follows a load: at most one
# report per load seen; -v loads=N adds N loads the log cannot show: the
# serial console at loglevel 5 omits the module's info line, run-vm.sh
# passes the count the guest took from dmesg).  Then only the report's own lines go: the lines
# of a WARN report (its header, the register dump, the call trace, the
# module list); any other line inside the block (another CPU's BUG, Oops
# or message interleaved with it) is printed, so it is still counted.
# Every other block is printed whole.  Used by stress.lib in the guest
# (busybox awk) and by run-vm.sh on the host (mawk/gawk).
function own(l) {
	# strip the timestamp and any printk caller prefix
	sub(/^\[ *[0-9]+\.[0-9]+\] /, "", l)
	sub(/^\[ *[CT][0-9]+\] /, "", l)
	return l ~ /^-+\[ cut here \]-+$/ ||
	       l ~ /^debugfs file owner did not clean up at exit: / ||
	       l ~ /^WARNING: CPU: [0-9]+ PID: [0-9]+ at fs\/debugfs\/file\.c:[0-9]+ full_proxy_open/ ||
	       l ~ /^Modules linked in:/ || l ~ /^ [a-z0-9_]+( |$)/ && mods ||
	       l ~ /^CPU: [0-9]+ PID: [0-9]+ Comm: / || l ~ /^Hardware name: / ||
	       l ~ /^RIP: / || l ~ /^Code: / || l ~ /^RSP: / ||
	       l ~ /^R[A-Z0-9]+: [0-9a-f]+ R[A-Z0-9]+: / || l ~ /^RAX: / ||
	       l ~ /^(FS|CS|CR2|DR[0-9]):/ || l ~ /^(PKRU|Call Trace):/ ||
	       l ~ /^ *<\/?(TASK|IRQ|NMI|SOFTIRQ)>$/ ||
	       l ~ /^ *(\? )?[A-Za-z0-9_.]+\+0x[0-9a-f]+\/0x[0-9a-f]+( \[[a-z0-9_]+\])?$/ ||
	       l ~ /^---\[ end trace [0-9a-f]+ \]---$/
}
function flush(   i) {
	if (msg && warn && rip && loads > races) {
		races++
		for (i = 1; i <= n; i++)
			if (!ownl[i])
				print blk[i]
	} else {
		for (i = 1; i <= n; i++) print blk[i]
	}
	n = 0; inblk = 0; msg = 0; warn = 0; rip = 0
}
{ sub(/\r$/, "") }
/sched_shadow: loaded: / { loads++ }
/-+\[ cut here \]-+/ { if (inblk) flush(); inblk = 1 }
inblk {
	blk[++n] = $0
	if ($0 ~ /Modules linked in:/) mods = 1
	else if ($0 !~ /^(\[ *[0-9]+\.[0-9]+\] )? [a-z0-9_]+( |$)/) mods = 0
	ownl[n] = own($0)
	if ($0 ~ /debugfs file owner did not clean up at exit: (info|cpus|groups|lb|lb_attempts|lb_snapshots|reset|enable|lb_dump_every|stats)$/) msg = 1
	if ($0 ~ /WARNING: CPU: [0-9]+ PID: [0-9]+ at fs\/debugfs\/file\.c:[0-9]+ full_proxy_open/) warn = 1
	if ($0 ~ /RIP: [0-9a-f]+:full_proxy_open\+/) rip = 1
	if ($0 ~ /---\[ end trace/ || n > 200) flush()
	next
}
{ print }
END {
	if (inblk) flush()
	if (countfile == "") countfile = "/dev/stderr"
	print races + 0 > countfile
}
