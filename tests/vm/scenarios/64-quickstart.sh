# SPDX-License-Identifier: GPL-2.0
# Scenario 64: the README's quick start, as written.  Its install steps
# run on the host (tests/install); here the rest: the module is put where
# `make install` puts it (extra/, then depmod), unloaded, and every other
# command of the quick start runs verbatim (`sudo` is the only shim: the
# guest is root and has none).  Each must exit 0, and every line of its
# shown output without a digit (titles, headers, labels: numbers differ
# between runs) must be a line of its real output, runs of blanks counting
# as one (compare's columns widen to the longest label or value the two
# runs hold, so alignment differs between runs); the rows of the kernel's
# switches (cgroup_mode, llc_balancing) only by their label, their values
# being the kernel's.  The commands and lines
# come from the README (tests/quickstart/extract.sh, at build time).
# plan: 6
# timeout: 420
QS=/etc/sched_shadow-quickstart.txt
rel=$(uname -r)
unload_module
mkdir -p /lib/modules/$rel/extra && cp "$KO" /lib/modules/$rel/extra/sched_shadow.ko &&
	depmod "$rel" && grep -q 'extra/sched_shadow.ko:' /lib/modules/$rel/modules.dep &&
	[ "$(grep -c '^cmd vm ' $QS)" -eq 5 ]
check $? "quick start: the module installed as make install does (depmod: extra/sched_shadow.ko); 5 commands in the README"

sudo() { "$@"; }
mkdir -p /tmp/qs && cd /tmp/qs || return 0
n=0
# the vm records: "cmd vm COMMAND" then its "out LINE"s
grep -E '^(cmd vm |out )' $QS | awk '/^cmd vm / { n++ } n' > /tmp/qs/steps
while IFS= read -r rec; do
	case $rec in
	"cmd vm "*)
		n=$((n + 1))
		echo "${rec#cmd vm }" > /tmp/qs/cmd.$n
		: > /tmp/qs/want.$n ;;
	"out "*)
		echo "${rec#out }" >> /tmp/qs/want.$n ;;
	esac
done < /tmp/qs/steps
i=1
while [ $i -le $n ]; do
	cmd=$(cat /tmp/qs/cmd.$i)
	( eval "$cmd" ) > /tmp/qs/got.$i 2>&1
	rc=$?
	for f in got want; do
		sed 's/[ \t][ \t]*/ /g; s/ $//' /tmp/qs/$f.$i > /tmp/qs/$f.$i.t
	done
	missing=
	while IFS= read -r want; do
		case $want in
		# the kernel's switches: their values are the kernel's (6.1:
		# absent; 7.3: concur, 1): the row must be there, with any value
		"cgroup_mode "*|"llc_balancing "*)
			grep -q -- "^${want%% *} " /tmp/qs/got.$i.t || missing="$missing | ${want%% *} ..." ;;
		*) grep -qxF -- "$want" /tmp/qs/got.$i.t || missing="$missing | $want" ;;
		esac
	done < /tmp/qs/want.$i.t
	if [ $rc -eq 0 ] && [ -z "$missing" ]; then
		ok "quick start: \$ $cmd ($(grep -c . /tmp/qs/want.$i) lines of the README's output found)"
	else
		not_ok "quick start: \$ $cmd" "exit $rc; lines not in the output:$missing"
		diag < /tmp/qs/got.$i
	fi
	vm_export quickstart-$i.out /tmp/qs/got.$i
	i=$((i + 1))
done
cd /
