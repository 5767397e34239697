# SPDX-License-Identifier: GPL-2.0
# Scenario 38 (`groups` paths): a cgroup whose name holds a space, a
# newline, a tab and a backslash, with a hog pinned to cpu3 in it, read
# through `groups`.  docs/debugfs.md: the path is the last column, with
# whitespace and backslash escaped as \ooo octal, so a row never splits.
# The kernel refuses a newline in a cgroup name (cgroup_mkdir: EINVAL,
# "to prevent making /proc/<pid>/cgroup unparsable"); where it does, the
# group is named with the rest (space, tab, backslash) and the refusal is
# checked instead.  Oracle: the cgroup directory's inode number (its cgid)
# and its name as created.  Checks:
#  1. the data is there: the group's row (by cgid) on cpu3;
#  2. its path is exactly /s38/sp\040ace\012nl\011tab\134bs (with a
#     newline) or /s38/sp\040ace\011tab\134bs (refused), and a newline
#     is either refused by mkdir or escaped;
#  3. every line of `groups` after the header has the header's 16 columns
#     (no raw newline or space in any path) and no raw control character.
# plan: 3
# timeout: 60
T="groups escape"
need_module "$T" || return 0
res() { if [ "$1" -eq 0 ]; then ok "$2"; else not_ok "$2" "$3"; fi; }
pin_shell_last_cpu > /dev/null
name=$(printf 'sp ace\nnl\ttab\\bs')
want='/s38/sp\040ace\012nl\011tab\134bs'
cg_mk /s38
nl="escaped as \\012"
if ! mkdir "$CG/s38/$name" 2>/tmp/s38.err; then
	diag "mkdir of a name with a newline: $(cat /tmp/s38.err)"
	nl="refused by mkdir"
	name=$(printf 'sp ace\ttab\\bs')
	want='/s38/sp\040ace\011tab\134bs'
fi
if ! mkdir "$CG/s38/$name" 2>/dev/null && [ ! -d "$CG/s38/$name" ]; then
	not_ok "$T: a cgroup named 'sp ace<newline>nl<tab>tab\\bs' created"
	not_ok "$T: its path escaped" "no cgroup"
	not_ok "$T: every groups line has 16 columns" "no cgroup"
	cg_rm /s38
	return 0
fi
id=$(stat -c %i "$CG/s38/$name")
bg s38 burn -t 1 -s 0 -d 0 -q --cpu 3 --cgroup "/s38/$name"
sleep 1
cat "$SS/groups" > /tmp/s38.groups
bg_stop
rmdir "$CG/s38/$name" 2>/dev/null
cg_rm /s38
row=$(awk -v id="$id" 'NR > 2 && $1 == 3 && $2 == id' /tmp/s38.groups)
diag "cgid $id; its row: $row"
res "$([ -n "$row" ]; echo $?)" "$T: the group's row (cgid $id) on cpu3" "rows of cpu3: $(awk 'NR > 2 && $1 == 3' /tmp/s38.groups | tr '\n' ';')"
got=$(echo "$row" | awk '{ print $NF }')
res "$([ "$got" = "$want" ]; echo $?)" "$T: its path is exactly $want (a newline: $nl)" "got '$got'"
bad=$(awk 'NR == 2 { n = NF; next } NR > 2 && (NF != n || /[\001-\037]/) { b++ } END { print b + 0 }' /tmp/s38.groups)
lines=$(($(wc -l < /tmp/s38.groups) - 2))
res "$([ "$bad" -eq 0 ] && [ "$lines" -gt 0 ]; echo $?)" \
	"$T: all $lines rows of groups have the header's 16 columns and no control character ($bad off)" \
	"$(awk 'NR == 2 { n = NF; next } NR > 2 && NF != n' /tmp/s38.groups | head -n 3 | tr '\n' ';')"
