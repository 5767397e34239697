#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
atomic-calls: the kernel functions sched_shadow.ko can call from the
contexts where it must not sleep, checked against a list of functions
that are safe there (no sleeping lock under the rq lock, on
PREEMPT_RT included).

  atomic-calls.py [--list] MODULE.ko

Builds the module's static call graph from `objdump -dr` (direct calls and
jumps, resolved or through relocations, .cold parts included), starting at
every function that runs with the rq lock held, interrupts off or
preemption disabled:
  shadow_probe_*              the tracepoint probes (rq lock, IRQs off; or
                              p->pi_lock for pelt_se_tp, see trace_feed.c)
  audit_entry, audit_return   the kretprobe handlers
  trace_event_raw_event_*, perf_trace_*, __traceiter_*
                              the trace events' own code (the consumers the
                              tracepoint calls indirectly)
  shadow_cgpath_kick_fn       the irq_work (hard IRQ on !RT)
  wasted_cmt_*, wasted_llc_*, shadow_wasted_attempt, wasted_kick_fn,
  wasted_handoff_fn,          wasted.c's kretprobe handlers, its entry
  wasted_probe_switch         from the audit's, its hard irq_work and IPI,
                              its sched_switch probe (rq lock)
  wake_entry, wake_return     wakeup.c's select_task_rq_fair() kretprobe
                              (p->pi_lock, interrupts off)
and lists each kernel (undefined) symbol they reach.  Every one must be in
SAFE below, with the reason it may run in atomic context whatever the
preemption model; anything else fails (exit 1) and prints the call chain.
Indirect calls (retpoline thunks) are the tracepoint dispatch only; their
targets are the trace event functions above, checked as entries.

What this proves: the module's own code takes no lock and calls nothing
outside SAFE in those contexts.  What it does not: what SAFE's functions
do inside the kernel (that is the kernel's contract, named per entry),
and BPF programs a user attaches to the events.
"""
import re
import subprocess
import sys

ENTRY_RES = [r"^shadow_probe_", r"^audit_entry$", r"^audit_return$",
             r"^trace_event_raw_event_", r"^perf_trace_", r"^__traceiter_",
             r"^shadow_cgpath_kick_fn$", r"^wasted_cmt_", r"^wasted_llc_",
             r"^shadow_wasted_attempt$", r"^wasted_kick_fn$", r"^wasted_handoff_fn$",
             r"^wasted_probe_switch$", r"^wake_entry$", r"^wake_return$"]

# kernel symbol (regex) -> why it is safe in atomic context, on PREEMPT_RT too
SAFE = {
    r"__fentry__": "ftrace patch site (nop)",
    r"__x86_return_thunk": "return thunk",
    r"__x86_indirect_thunk_\w+": "retpoline: tracepoint dispatch to the checked trace event functions",
    r"__x86_indirect_call_thunk_\w+|__x86_indirect_jump_thunk_\w+": "call depth thunks",
    r"__SCT__tp_func_\w+": "static call of a tracepoint: dispatch to the checked trace event functions",
    r"__stack_chk_fail": "stack protector: panics",
    r"__ubsan_handle_\w+": "UBSAN report",
    r"__sanitizer_cov_\w+|__tsan_\w+|__asan_\w+|__kasan_\w+": "instrumentation",
    r"__warn_printk|__WARN_printf|warn_slowpath_fmt|_printk|printk": "printk is safe in any context (deferred on RT)",
    r"memcpy|memset|memmove|__memcpy|__memset|strscpy|sized_strscpy|strlen|strnlen|strcmp|strncmp|__fortify_panic|fortify_panic": "string helpers, no locks",
    r"rb_next|rb_prev|rb_first|rb_last": "rbtree iteration, no locks",
    r"__rcu_read_lock|__rcu_read_unlock": "RCU read side: allowed in atomic context",
    r"__trace_trigger_soft_disabled|event_triggers_call|event_triggers_post_call": "ftrace event triggers, run by the event code in the event's context by design",
    r"rcu_read_unlock_strict": "RCU read side (PREEMPT_NONE build)",
    r"__SCT__WARN_trap|__WARN_trap": "WARN() (7.x static call)",
    r"ktime_get_mono_fast_ns": "NMI-safe clock (tk_fast, seqcount latch)",
    r"local_clock|sched_clock|sched_clock_cpu|local_clock_noinstr": "scheduler clock, no locks",
    r"irq_work_queue": "lock-free llist; what the scheduler itself queues under the rq lock",
    r"queue_delayed_work_on|mod_delayed_work_on|queue_work_on|delayed_work_timer_fn": "IRQ-safe; pool lock and timer base lock are raw spinlocks",
    r"trace_event_buffer_reserve|trace_event_buffer_commit|trace_event_ignore_this_pid|trace_event_buffer_lock_reserve|trace_buffer_unlock_commit_regs": "ftrace ring buffer: lockless",
    r"trace_raw_output_prep|trace_event_printf|trace_handle_return|trace_print_symbols_seq": "output side (read, process context)",
    r"perf_trace_buf_alloc|perf_trace_run_bpf_submit|perf_tp_event|perf_trace_buf_update": "perf tracepoint path: per-CPU buffers, no sleeping lock",
    r"bpf_trace_run\d+": "BPF raw tracepoint dispatch (the programs are the user's)",
    r"rcu_read_lock_held|rcu_read_lock_sched_held|rcu_read_lock_any_held|lockdep_rcu_suspicious|debug_lockdep_rcu_enabled": "RCU debug checks",
    r"__preempt_count_\w+|preempt_schedule\w*|__SCT__preempt_schedule\w*": "preempt_enable() of the probe's own disable",
    r"cpu_relax|__cpu_relax": "spin hint",
    r"__per_cpu_offset|this_cpu_off|pcpu_hot|cpu_number|nr_cpu_ids|__cpu_possible_mask|__cpu_online_mask": "data",
    r"__bitmap_\w+|_find_\w+_bit\w*|find_next_bit|_find_next_bit|cpumask_next\w*": "bit ops",
    r"__sw_hweight\d+": "bit counting (lib/hweight.c), pure arithmetic",
    r"__x86_indirect_thunk_array": "retpoline array",
    r"__put_task_struct": "never reached: task_pid_nr() takes no reference",
    r"scnprintf|snprintf|vsnprintf|vscnprintf": "formats into the caller's buffer: no lock, no allocation (lib/vsprintf.c; the audit's lb_verdict state string, plain %d/%u/%s only)",
    r"hrtimer_start_range_ns": "hrtimer base lock is a raw spinlock; the scheduler arms hrtimers under the rq lock (hrtick)",
    r"static_key_count": "atomic_read() of a static key's enable count (static_key_enabled())",
    r"__msecs_to_jiffies|__usecs_to_jiffies": "time conversion arithmetic (kernel/time/time.c), no lock",
}

def sh(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout

def main():
    args = sys.argv[1:]
    listing = "--list" in args
    args = [a for a in args if a != "--list"]
    if len(args) != 1:
        print("usage: atomic-calls.py [--list] MODULE.ko", file=sys.stderr)
        return 2
    ko = args[0]
    undefined = set()
    for line in sh(["nm", ko]).splitlines():
        f = line.split()
        if len(f) == 2 and f[0] in ("U", "w"):
            undefined.add(f[1])
    # functions: name -> (section, start); edges: name -> set(names)
    funcs = {}
    by_sec = {}
    edges = {}
    cur = None
    sec = None
    branch = False
    addr_re = re.compile(r"^\s*([0-9a-f]+):")
    pending = None      # (function, target) of the last branch, until we know it has no relocation

    def commit():
        if pending and pending[1] != pending[0]:
            edges[pending[0]].add(("direct", pending[1]))

    for line in sh(["objdump", "-dr", "--no-show-raw-insn", ko]).splitlines():
        m = re.match(r"^Disassembly of section (\S+):", line)
        if m:
            commit()
            pending = None
            sec = m.group(1)
            continue
        m = re.match(r"^([0-9a-f]+) <([^>]+)>:$", line)
        if m:
            commit()
            pending = None
            cur = m.group(2)
            start = int(m.group(1), 16)
            funcs[cur] = (sec, start)
            by_sec.setdefault(sec, []).append((start, cur))
            edges.setdefault(cur, set())
            continue
        if cur is None:
            continue
        # relocation lines: "  R_X86_64_PLT32  sym-0x4" or ".text.unlikely+0x1c",
        # counted only on a call or a jump (not a data reference); the
        # target objdump prints for such a branch is a placeholder
        m = re.match(r"^\s*[0-9a-f]+:\s+R_X86_64_(\w+)\s+(\S+)$", line)
        if m:
            if branch and m.group(1) in ("PLT32", "PC32"):
                edges[cur].add(("reloc", m.group(2)))
            pending = None
            continue
        m = re.match(r"^\s*[0-9a-f]+:\s+(?:(?:cs|ds|notrack|bnd|lock|rep\w*)\s+)*(\S+)", line)
        if not m:
            continue
        commit()
        pending = None
        branch = re.match(r"^(call|jmp|j[a-z]{1,3})\w*$", m.group(1)) is not None
        m = re.search(r"\b(call|jmp|j[a-z]{1,3})\w*\s+[0-9a-f]+ <([^>+]+)(\+0x[0-9a-f]+)?>", line)
        if m:
            pending = (cur, m.group(2))
    commit()
    for s in by_sec:
        by_sec[s].sort()

    def func_at(section, off):
        best = None
        for start, name in by_sec.get(section, []):
            if start <= off:
                best = name
            else:
                break
        return best

    def targets(f):
        out = set()
        for e in edges.get(f, ()):
            if e[0] == "direct":
                out.add(e[1])
                continue
            t = e[1]
            m = re.match(r"^(\.[\w.]+)\+0x([0-9a-f]+)$", t)
            if m:
                g = func_at(m.group(1), int(m.group(2), 16) + 4)
                if g and g != f:
                    out.add(g)
                continue
            t = re.sub(r"[-+]0x[0-9a-f]+$", "", t)
            if t in funcs or t in undefined:
                out.add(t)
        return out

    entries = sorted(f for f in funcs if any(re.search(r, f) for r in ENTRY_RES))
    if not entries:
        print("atomic-calls: no entry function found in %s" % ko, file=sys.stderr)
        return 1
    parent = {e: None for e in entries}
    todo = list(entries)
    ext = {}
    while todo:
        f = todo.pop()
        for t in sorted(targets(f)):
            if t in undefined:
                ext.setdefault(t, f)
                continue
            if t not in funcs or t in parent:
                continue
            parent[t] = f
            todo.append(t)

    def chain(f):
        c = []
        while f:
            c.append(f)
            f = parent.get(f)
        return " <- ".join(c)

    bad = 0
    for s in sorted(ext):
        why = next((w for r, w in SAFE.items() if re.fullmatch(r, s)), None)
        if why is None:
            bad += 1
            print("atomic-calls: NOT SAFE: %s  (%s)" % (s, chain(ext[s])))
        elif listing:
            print("atomic-calls: %-32s %s" % (s, why))
    print("atomic-calls: %d entry functions, %d module functions reached, %d kernel functions called, %d not known safe"
          % (len(entries), len(parent), len(ext), bad))
    return 1 if bad else 0

if __name__ == "__main__":
    sys.exit(main())
