# SPDX-License-Identifier: GPL-2.0
# Known kernel race filter (see stress.lib: rmmod vs a debugfs open makes
# 6.1's full_proxy_open() WARN "debugfs file owner did not clean up at
# exit").  Reads a kernel log (dmesg, or the serial console with the guest's
# own lines mixed in), prints it without the reports of that race and writes
# how many it dropped to the file `countfile` (default: stderr).
# A report is dropped only when, between its "cut here" and "end trace"
# lines, it has all three:
#   - the message for one of our debugfs files (the exact list below),
#   - "WARNING: CPU: N PID: N at fs/debugfs/file.c:N full_proxy_open",
#   - "RIP: ...:full_proxy_open+";
# every other report is printed whole.  Used by stress.lib in the guest
# (busybox awk) and by run-vm.sh on the host (mawk/gawk).
function flush(   i) {
	if (msg && warn && rip)
		races++
	else
		for (i = 1; i <= n; i++) print blk[i]
	n = 0; inblk = 0; msg = 0; warn = 0; rip = 0
}
{ sub(/\r$/, "") }
/-+\[ cut here \]-+/ { if (inblk) flush(); inblk = 1 }
inblk {
	blk[++n] = $0
	if ($0 ~ /debugfs file owner did not clean up at exit: (info|cpus|groups|lb|lb_snapshots|reset|enable|lb_dump_every|stats)$/) msg = 1
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
