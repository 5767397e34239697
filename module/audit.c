// SPDX-License-Identifier: GPL-2.0
/*
 * Load-balancer audit: the loadable-module version of Tejun Heo's
 * dbg_odd_cnt / dbg_odd_nth debug patch, without matching task names.
 *
 * Two kretprobes.  One on the balancing function itself (load_balance(),
 * sched_balance_rq() since 6.10; KS_FUNCS_lb_attempt, chosen by BTF
 * prototype) brackets one balancing attempt: its verdict is the judgement
 * of the attempt's first busiest-group search, with the number of redos
 * (LBF_ALL_PINNED searches again), the tasks it moved (the function's
 * return value, ld_moved) and whether it kicked active balance (a
 * stop_one_cpu_nowait() call on this CPU inside the attempt: only the
 * active-balance path calls it there).  The other, on the busiest-group
 * search (find_busiest_group(), sched_balance_find_src_group() since
 * 6.10), judges every call for the per-call `lb` table.
 *
 * The entry handler keeps the struct lb_env pointer; the return handler
 * describes the domain env->sd as arrays of groups and CPUs (each group's
 * CPUs restricted to env->cpus) from the CPUs' *published* shadow state
 * (no remote locks, no remote tree walks) and hands them to the pure
 * judgement in core/audit_core.c.  Counters are per CPU (the destination
 * CPU, where the handler runs), per domain name, idle type and tracker,
 * under a per-CPU seqcount so a reader sees whole rows.
 *
 * Which functions are safe to probe is decided by BTF: btfgen lists every
 * function with the prototype struct sched_group *f(struct lb_env *)
 * (KS_FUNCS_lb_find_src).  If none is present, or lb_symbol= names a
 * function not in that list, the audit stays inactive and says why in
 * `info`; the rest of the module works without it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/mutex.h>
#include <linux/version.h>
#include <linux/slab.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>
#include <linux/cpumask.h>
#include <linux/cgroup.h>
#include <linux/sched/idle.h>
#include <linux/timekeeping.h>
#include <linux/irq_work.h>
#include <linux/cpuhotplug.h>
#include <linux/cpu.h>
#include <linux/topology.h>
#include <linux/vmalloc.h>
#include <linux/sched/topology.h>
#include <linux/sched/smt.h>

#include "kstruct.h"
#include "shadow.h"
#include "audit.h"
#include "stats.h"
#include "trace.h"
#include "core/audit_core.h"
#include "core/parse.h"
#include "dbgfs_input.h"
#include "wasted.h"

static_assert((int)AUDIT_NR_IDLE_TYPES == (int)CPU_MAX_IDLE_TYPES, "enum cpu_idle_type changed");
static_assert(AUDIT_R_VOID_UNREADABLE - AUDIT_R_VOID_NEVER ==
	      SHADOW_VOID_UNREADABLE - SHADOW_VOID_NEVER, "void reasons out of step");
static_assert(SHADOW_VOID_NEVER == 1,
	      "void reasons: AUDIT_R_VOID_NEVER - 1 + enum shadow_void_reason");

/*
 * The kernel's idle type as audit_core's.  The values moved in 6.10
 * (CPU_NOT_IDLE became __CPU_NOT_IDLE = 0, CPU_IDLE = 1), so map by name;
 * a value outside the enum stays invalid and audit_judge() flags it.
 */
static int audit_idle_type(int kidle)
{
	if (kidle == CPU_IDLE)
		return AUDIT_CPU_IDLE;
	if (kidle == CPU_NEWLY_IDLE)
		return AUDIT_CPU_NEWLY_IDLE;
	if (kidle >= 0 && kidle < CPU_MAX_IDLE_TYPES)
		return AUDIT_CPU_NOT_IDLE;
	return -1;
}

/*
 * The scratch of one search, sized at load from the machine (audit_size()):
 * audit_max_groups groups (no sched domain of the machine has more: an MC
 * domain has a group per core of the LLC, a package one per LLC, a NUMA
 * one at most one per node) and audit_scratch_cpus CPU entries (the
 * present CPUs four times: overlapping NUMA groups list a CPU more than
 * once).  A domain past either is counted (lb_too_many_groups,
 * lb_overlap_cut) and not judged; `info` shows both sizes.
 */
#define AUDIT_GROUPS_MIN	64
#define AUDIT_GROUPS_MAX	1024
#define AUDIT_SCRATCH_MAX	8192
static u32 audit_max_groups = AUDIT_GROUPS_MIN;
static u32 audit_scratch_cpus;
#define AUDIT_MAX_GROUPS	audit_max_groups
#define AUDIT_SCRATCH_CPUS	audit_scratch_cpus
#define AUDIT_NR_SNAPSHOTS	4
#define AUDIT_SNAP_TREE_CPUS	32	/* CPUs whose cfs_rq tree a snapshot keeps */
#define AUDIT_SNAP_TREE_NODES	16	/* cfs_rqs kept per CPU in a snapshot */
#define AUDIT_DUMP_EVERY_MAX	1000000000ULL
#define AUDIT_TRACE_STATE_LEN	4096	/* lb_verdict's inputs: ~90 bytes per CPU entry */
#define AUDIT_TRACE_ENTRY_LEN	1024	/* lb_verdict's entry=: ~60 bytes per stale CPU entry */
#define AUDIT_SMT_MAX		16	/* SMT siblings dst_core_idle reads */
#define AUDIT_NS_BUCKETS	16	/* lb_audit_us_hist: < 2^10 ns, < 2^11 ns, ..., the rest */

/* Domain slots: known names, one for anything else, and the total. */
static const char * const audit_domain_names[] = { "SMT", "CLS", "MC", "PKG", "DIE", "NUMA", "other" };
#define AUDIT_NR_DOMAINS	ARRAY_SIZE(audit_domain_names)
#define AUDIT_ALL		AUDIT_NR_DOMAINS

/* Rows: the kernel's actual pick, then each tracker. */
#define AUDIT_ROW_ACTUAL	0
#define AUDIT_NR_ROWS		(1 + AUDIT_NR_TRACKERS)
enum { LB_CALLS, LB_RIGHT, LB_WRONG, LB_MISSED, LB_NONE, LB_VOID, LB_AGREE, LB_NR_COLS };

/*
 * Attempt rows: each (verdict, reason) pair the reason table allows,
 * numbered by audit_reason_rows() at load; columns attempts, redos, moved,
 * active.
 */
#define AUDIT_ATT_ROWS		AUDIT_NR_REASON_ROWS
enum {
	ATT_N, ATT_REDOS, ATT_MOVED, ATT_ACTIVE, ATT_AGREE, ATT_STALE, ATT_KNOWN, ATT_UNKNOWN,
	ATT_EITHER, ATT_EITHER_AGREE, ATT_NR_COLS
};
static_assert(ATT_STALE - ATT_AGREE == AUDIT_CAUSE_STALE && ATT_KNOWN - ATT_AGREE == AUDIT_CAUSE_KNOWN &&
	      ATT_UNKNOWN - ATT_AGREE == AUDIT_CAUSE_UNKNOWN && AUDIT_CAUSE_AGREE == 0,
	      "lb_attempts' agreement columns follow enum audit_cause");
static const char * const audit_att_col_name[ATT_NR_COLS] = {
	"attempts", "redos", "moved", "active", "agree", "stale", "known", "unknown",
	"either", "either_agree",
};

struct audit_counts {
	u64 c[AUDIT_NR_DOMAINS + 1][AUDIT_NR_IDLE_TYPES][AUDIT_NR_ROWS][LB_NR_COLS];
	u64 att[AUDIT_NR_DOMAINS + 1][AUDIT_NR_IDLE_TYPES][AUDIT_ATT_ROWS][ATT_NR_COLS];
	u64 bad;		/* inputs audit_judge() flagged as inconsistent */
	u64 picked_local;
	u64 too_many_groups;
	u64 overlap_cut;	/* overlapping groups held more CPUs than the scratch: not judged */
	u64 unreadable;		/* a CPU's published state could not be read */
	u64 att_skipped;	/* attempts that never searched (should_we_balance() said no) */
	u64 att_nested;		/* an attempt inside an attempt on one CPU (not expected) */
	u64 att_orphan;		/* searches outside an attempt, or for another domain */
	u64 known[AUDIT_NR_KNOWN_RULES];	/* known disagreements per named rule (attempts) */
	u64 entry_unread;	/* judged searches without the entry read (nested on the CPU) */
	/*
	 * per flippable rule, judged attempts whose outcome the rule decides, and of
	 * those the ones where the rule in force / its opposite gave the kernel's
	 */
	u64 rule_disc[AUDIT_NR_RULES], rule_in_force[AUDIT_NR_RULES], rule_flipped[AUDIT_NR_RULES];
	u64 no_rq;		/* CPU entries whose rq was not learned yet (read as stale) */
	u64 scratch_busy;	/* idle/newidle searches not judged: every pool buffer held */
	/*
	 * judged attempts whose inputs moved during the search (in agreement or
	 * not), of those the ones where the model on the return read gives the
	 * kernel's outcome, and the disagreements among them (the `stale'
	 * candidates: stale only when audit_explain() reproduced the outcome)
	 */
	u64 stale_in, stale_in_ret, disagree_moved;
	/* audit_explain()'s model runs, and the most in one attempt */
	u64 explain_runs, explain_runs_max;
	/*
	 * the audit's handlers' time per attempt (local_clock(); the kprobe
	 * traps themselves not included), by idle type of the attempt: the
	 * most, the sum and the attempts; newly idle ones run with interrupts
	 * off from start to end
	 */
	u64 att_ns_max[AUDIT_NR_IDLE_TYPES], att_ns_sum[AUDIT_NR_IDLE_TYPES];
	u64 att_ns_n[AUDIT_NR_IDLE_TYPES];
	/* the attempts' own duration, entry to return (the kernel's work and every probe's) */
	u64 att_wall_sum[AUDIT_NR_IDLE_TYPES];
	/* the audit's time per attempt by power of 2: < 2^10 ns, < 2^11 ns, ..., the rest */
	u64 att_ns_hist[AUDIT_NR_IDLE_TYPES][AUDIT_NS_BUCKETS];
};

/*
 * The balancing attempt in progress on this CPU, filled by the first
 * search inside it.  gs/gcpu describe its groups for the trace event.
 */
struct audit_attempt {
	bool active;
	bool judged;
	bool kicked;
	void *sd;
	int idle;
	int dom;
	int dst;
	u32 searches;
	int ng;
	void *dst_rq;		/* the attempt's this_rq (the entry's second argument) */
	int dst_work;		/* at the return: ks_rq_has_work(dst_rq); -1 unknown */
	u64 audit_ns;		/* the audit's handlers' time in this attempt (idle, newidle) */
	u64 t_start;		/* local_clock() at the attempt's entry (idle, newidle) */
	u64 judged_ns;		/* when its first search was judged (wasted-core time's clock) */
	struct audit_domain d;
	struct audit_result res;
	struct audit_gstats *gs;	/* [audit_max_groups] */
	int *gcpu;			/* [audit_max_groups]: first CPU of each group, -1 if empty */
};

struct audit_pcpu {
	seqcount_t seq;
	u32 gen;
	struct audit_counts n;
	struct audit_attempt att;
	/*
	 * The search's scratch, a buffer of the pool (audit_pool) while the
	 * CPU holds one (pool_idx >= 0): groups, their statistics, the CPU
	 * entries and the entry read.  Pooled, not per CPU: a search reads
	 * its whole domain, and only a few run at any instant.
	 */
	int pool_idx;
	struct audit_group *groups;		/* [audit_max_groups] */
	struct audit_gstats *gs;		/* [audit_max_groups] */
	/*
	 * Deferred snapshot trees: off the balancer's path, in process
	 * context (the irq_work only queues audit_snap_work).
	 */
	struct irq_work snap_work;
	int snap_slot;			/* slot whose trees are pending, -1 if none */
	char tbuf[AUDIT_TRACE_STATE_LEN];	/* the lb_verdict event's state string */
	/*
	 * the search's entry read: its owner, the groups' capacities and the
	 * CPUs' inputs in the order the return handler visits them
	 */
	bool entry_busy;
	bool entry_done;
	unsigned long entry_since;		/* jiffies when entry_busy was taken */
	void *entry_env;
	u64 *entry_sgc;				/* [audit_max_groups] */
	struct audit_live *entry;		/* [audit_scratch_cpus] */
	/* the lb_verdict event's CPU entries, formatted while the first search fills them */
	bool fmt;
	bool ccut;
	u32 clen;
	char cbuf[AUDIT_TRACE_STATE_LEN];
	/* the stale CPU entries' values at the search's entry (lb_verdict entry=) */
	bool ecut;
	u32 elen;
	char ebuf[AUDIT_TRACE_ENTRY_LEN];
	int nr_cpus;
	struct audit_cpu *cpus;			/* [audit_scratch_cpus] */
	/* the destination's SMT siblings as read for dst_core_idle (lb_verdict's smt=) */
	bool smt;
	int nsib;
	int sib[AUDIT_SMT_MAX];
	bool sib_idle[AUDIT_SMT_MAX];
};

/* One buffer of the search scratch pool. */
struct audit_scratch {
	struct audit_group *groups;
	struct audit_gstats *gs;
	u64 *entry_sgc;
	struct audit_live *entry;
	struct audit_cpu *cpus;
};

#define AUDIT_POOL_MAX	BITS_PER_LONG
static struct audit_scratch audit_pool[AUDIT_POOL_MAX];
static unsigned int audit_pool_size;
static unsigned long audit_pool_busy;	/* bit i: audit_pool[i] is held */

/* Take a free buffer for @a (any context, lock-free); false when all are held. */
static bool audit_scratch_get(struct audit_pcpu *a)
{
	unsigned int i;

	for (i = 0; i < audit_pool_size; i++) {
		if (test_bit(i, &audit_pool_busy) || test_and_set_bit_lock(i, &audit_pool_busy))
			continue;
		a->pool_idx = i;
		a->groups = audit_pool[i].groups;
		a->gs = audit_pool[i].gs;
		a->entry_sgc = audit_pool[i].entry_sgc;
		a->entry = audit_pool[i].entry;
		a->cpus = audit_pool[i].cpus;
		return true;
	}
	return false;
}

static void audit_scratch_put(struct audit_pcpu *a)
{
	if (a->pool_idx < 0)
		return;
	clear_bit_unlock(a->pool_idx, &audit_pool_busy);
	a->pool_idx = -1;
	a->groups = NULL;
	a->gs = NULL;
	a->entry_sgc = NULL;
	a->entry = NULL;
	a->cpus = NULL;
}

/* One recorded wrong/missed call (debugfs lb_snapshots). */
struct audit_snapshot {
	seqcount_t seq;
	atomic_t busy;
	u32 gen;
	bool used;
	u64 nth;
	u64 time_ns;
	int domain;
	int dst_cpu;
	bool trees_done;		/* the irq_work copied the cfs_rq trees */
	struct audit_result res;
	int nr_groups;
	int nr_cpus;
	struct audit_group *groups;			/* [audit_max_groups] */
	struct audit_cpu *cpus;				/* [AUDIT_SCRATCH_CPUS] */
	u32 *nr_nodes;					/* [AUDIT_SNAP_TREE_CPUS] */
	struct shadow_node (*nodes)[AUDIT_SNAP_TREE_NODES];	/* [AUDIT_SNAP_TREE_CPUS] */
};

static struct audit_pcpu **audit_pcpu;
static struct audit_snapshot audit_snaps[AUDIT_NR_SNAPSHOTS];
static atomic64_t audit_odd = ATOMIC64_INIT(0);	/* wrong + missed since reset */
static atomic64_t audit_snap_next = ATOMIC64_INIT(0);
static unsigned long audit_dump_every = 100;
static u32 audit_odd_gen;
static char audit_state[96] = "inactive:not-initialized";
static bool audit_registered;

static bool audit_att_registered, audit_kick_registered;
/* the probes are armed while `enable' (audit_arm_want) and lb_audit= both say so */
static DEFINE_MUTEX(audit_arm_lock);
static bool audit_arm_want = true, audit_param_on = true, audit_armed;
static char audit_att_state[96] = "inactive:not-initialized";

struct audit_ri_data {
	void *env;
	bool entry_owner;	/* this instance made the CPU's entry read */
};

struct audit_att_ri {
	bool owner;
	u64 t0;
};

/*
 * The sched_domain flags, from BTF (enum constants, which the preprocessor
 * cannot test): SD_SHARE_LLC was SD_SHARE_PKG_RESOURCES before 6.10, and
 * 7.x has no SD_OVERLAP.
 */
#if HAS_KS_ENUMV__SD_SHARE_LLC
#define SHADOW_SD_SHARE_LLC ((int)KS_ENUMV__SD_SHARE_LLC)
#elif HAS_KS_ENUMV__SD_SHARE_PKG_RESOURCES
#define SHADOW_SD_SHARE_LLC ((int)KS_ENUMV__SD_SHARE_PKG_RESOURCES)
#else
#error "BTF has neither SD_SHARE_LLC nor SD_SHARE_PKG_RESOURCES"
#endif
#define SHADOW_SD_OVERLAP (HAS_KS_ENUMV__SD_OVERLAP ? (int)KS_ENUMV__SD_OVERLAP : 0)

/*
 * The domain's name, or one made from its flags when the kernel has no
 * sd->name (CONFIG_SCHED_DEBUG off before 6.15): SMT shares CPU capacity,
 * NUMA is a NUMA level, MC shares the LLC, PKG is the rest.
 */
static int audit_domain_slot(const struct sched_domain *sd)
{
	const char *name = ks_sd_name(sd);
	int i, flags;

	if (!name) {
		flags = ks_sd_flags(sd);
		if (flags & SD_SHARE_CPUCAPACITY)
			name = "SMT";
		else if (flags & SD_NUMA)
			name = "NUMA";
		else if (flags & SHADOW_SD_SHARE_LLC)
			name = "MC";
		else
			name = "PKG";
	}
	for (i = 0; i < AUDIT_NR_DOMAINS - 1; i++)
		if (!strncmp(name, audit_domain_names[i], 8))
			return i;
	return AUDIT_NR_DOMAINS - 1;
}

static s8 audit_row_of[AUDIT_NR_VERDICTS][AUDIT_NR_REASONS];
static u8 audit_row_verdict[AUDIT_ATT_ROWS], audit_row_reason[AUDIT_ATT_ROWS];

/* The dense attempt row of (verdict, reason); -1 if the table does not allow the pair. */
static int audit_att_row(int verdict, int reason)
{
	if (verdict < 0 || verdict >= AUDIT_NR_VERDICTS || reason < 0 || reason >= AUDIT_NR_REASONS)
		return -1;
	return audit_row_of[verdict][reason];
}

static void audit_rows_init(void)
{
	audit_reason_rows(audit_row_of, audit_row_verdict, audit_row_reason);
}

/*
 * The class ranks from BTF's enum group_type, every enumerator of it
 * (audit_ranks_from_enum(): the model's own derivation, which the checker's
 * cross-check feeds raw enums); derived once at load.  audit_ranks_unknown:
 * enumerators no class of the model names (a newer kernel's class), -1 when
 * the enum could not be mapped (the audit stays inactive then).
 */
static s8 audit_ranks[AUDIT_NR_CLASSES];
static int audit_ranks_unknown;

#define AUDIT_ENUM_NAME(name, value) name,
#define AUDIT_ENUM_VALUE(name, value) value,
static void audit_ranks_init(void)
{
	static const char * const names[] = { KS_ENUMS_group_type(AUDIT_ENUM_NAME) NULL };
	static const s64 values[] = { KS_ENUMS_group_type(AUDIT_ENUM_VALUE) 0 };

	audit_ranks_unknown = audit_ranks_from_enum(audit_ranks, names, values,
						    KS_ENUM_COUNT_group_type);
}
#undef AUDIT_ENUM_NAME
#undef AUDIT_ENUM_VALUE

/* ---- the rule set (docs/debugfs.md, "Rule sets") ---- */

static u32 audit_rules;				/* in force */
static u32 audit_rules_btf;			/* what BTF chose */
static u32 audit_rules_on, audit_rules_off;	/* lb_rules= overrides */
static char audit_rules_arg[256];
static u32 audit_rules_learned;			/* switched by the calibration */

/*
 * lb_rules_learn=N: the first N judged attempts after load are a
 * calibration phase: for each rule the kernel's outcome can tell apart
 * (AUDIT_RULES_FLIPPABLE, not set by lb_rules=), the model is also run
 * with the rule switched; at the end a rule whose opposite matched the
 * kernel in more of the attempts it decided is switched (source
 * "learned").  0 (default): no calibration.
 */
static unsigned int audit_learn_n;
module_param_named(lb_rules_learn, audit_learn_n, uint, 0444);
MODULE_PARM_DESC(lb_rules_learn, "judged attempts of the rule calibration phase after load (0: none; docs/debugfs.md, Rule sets)");
/*
 * lb_evidence=1: every judged attempt also runs the model with each rule of
 * AUDIT_RULES_FLIPPABLE switched (lb_rule_evidence.* in info); off by
 * default (their model runs add to the time newly idle balancing spends
 * with interrupts off).  The calibration phase runs them whatever this is.
 */
static bool audit_evidence;
module_param_named(lb_evidence, audit_evidence, bool, 0644);
MODULE_PARM_DESC(lb_evidence, "run the rule-evidence model runs on every judged attempt (docs/debugfs.md, Rule sets)");
static atomic64_t audit_calib_seen = ATOMIC64_INIT(0), audit_calib_agree = ATOMIC64_INIT(0);
static atomic64_t audit_calib_ev[3][AUDIT_NR_RULES];	/* disc, in force agreed, flipped agreed */
static bool audit_calib_done;
#define AUDIT_CALIB_MIN	5	/* attempts a rule must decide before the calibration switches it */

/*
 * lb_rules=: comma-separated +name / -name (names of AUDIT_RULES), each at
 * most once; anything else refuses the load (the kernel's one line:
 * "`x' invalid for parameter `lb_rules'").
 */
static int audit_rules_set(const char *val, const struct kernel_param *kp)
{
	char buf[256], *p, *tok;
	u32 on = 0, off = 0;
	int i;

	if (!val || strscpy(buf, val, sizeof(buf)) < 0)
		return -EINVAL;
	strim(buf);
	p = buf;
	while ((tok = strsep(&p, ",")) != NULL) {
		bool plus = *tok == '+';

		if (!*tok && !p && p == NULL && tok == buf)
			break;		/* the empty string: no override */
		if (*tok != '+' && *tok != '-')
			return -EINVAL;
		for (i = 0; i < AUDIT_NR_RULES; i++)
			if (!strcmp(tok + 1, audit_rule_name[i]))
				break;
		if (i == AUDIT_NR_RULES || ((on | off) & BIT(i)))
			return -EINVAL;
		if (plus)
			on |= BIT(i);
		else
			off |= BIT(i);
	}
	audit_rules_on = on;
	audit_rules_off = off;
	strscpy(audit_rules_arg, buf, sizeof(audit_rules_arg));
	return 0;
}

static int audit_rules_get(char *buffer, const struct kernel_param *kp)
{
	return scnprintf(buffer, PAGE_SIZE, "%s\n", audit_rules_arg);
}

static const struct kernel_param_ops audit_rules_ops = {
	.set = audit_rules_set,
	.get = audit_rules_get,
};
module_param_cb(lb_rules, &audit_rules_ops, NULL, 0444);
MODULE_PARM_DESC(lb_rules, "the audit model's rule set over what BTF chose: +name,-name (docs/debugfs.md, Rule sets)");

/*
 * The rule set from BTF: each rule is tied to a marker the kernel's BTF
 * shows (a field, an enumerator); lb_rules= overrides.  No version number.
 */
static void audit_rules_init(void)
{
	u32 r = 0;
	bool numa_nr = HAS_KS_sched_domain__imb_numa_nr;		/* 5.18+ */
	bool smt6 = KS_ENUM_group_type__group_smt_balance >= 0;	/* 6.6+ */
	bool llc7 = KS_ENUM_group_type__group_llc_balance >= 0;	/* 7.2+ */

	if (!numa_nr)
		r |= AUDIT_RULE_EAS_FIRST | AUDIT_RULE_NUMA_BUSIEST_NR | AUDIT_RULE_CAPACITY_LOCAL;
	else
		r |= AUDIT_RULE_REDUCED_CAPACITY | AUDIT_RULE_CAPACITY_FIRST;
	if (smt6)
		r |= AUDIT_RULE_FULLY_BUSY_LATER | AUDIT_RULE_MISFIT_TIE_FIRST |
		     AUDIT_RULE_SMT_BALANCE | AUDIT_RULE_PREFER_SIBLING_BUSIEST;
	if (smt6 && HAS_KS_sched_group__cores)
		r |= AUDIT_RULE_SIBLING_IMBALANCE;
	/*
	 * asym_packing with SMT: asym_smt_can_pull_tasks() came with
	 * sched_group.flags (5.16) and went with the 6.5 rework whose
	 * sched_group_asym() 6.6's marker stands for
	 */
	if (smt6)
		r |= AUDIT_RULE_ASYM_CORE_IDLE;
	else if (HAS_KS_sched_group__flags)
		r |= AUDIT_RULE_ASYM_SMT;
	/*
	 * the balancer sums h_nr_runnable since the series that renamed
	 * idle_h_nr_running to h_nr_idle (6.14); 6.12.117 has only the field
	 */
	if (HAS_KS_cfs_rq__h_nr_runnable && HAS_KS_cfs_rq__h_nr_idle)
		r |= AUDIT_RULE_H_NR_RUNNABLE;
	if (llc7)
		r |= AUDIT_RULE_EAS_OVERLOAD | AUDIT_RULE_LLC_BALANCE | AUDIT_RULE_MISFIT_DST_CAPACITY;
	audit_rules_btf = r;
	audit_rules = (r | audit_rules_on) & ~audit_rules_off;
}

/*
 * The kernel model's inputs of @cpu, read live as update_sg_lb_stats()
 * reads them: lockless, from the rq (learned by the shadow's tracepoints;
 * have=false until then).  Bounded: a fixed number of loads, plus at most
 * 64 llc_counts entries on 7.2+.
 */
static void audit_read_live(int cpu, struct audit_live *l)
{
	struct shadow_cpu *sc = (unsigned int)cpu < nr_cpu_ids ? shadow_cpus[cpu] : NULL;
	struct rq *rq = sc ? READ_ONCE(sc->rq) : NULL;
	const struct sched_avg *avg;
	struct cfs_rq *cfs;
	int hr;

	memset(l, 0, sizeof(*l));
	if (!rq)
		return;
	cfs = ks_rq_cfs(rq);
	avg = ks_cfs_rq_avg(cfs);
	l->have = true;
	l->load = READ_ONCE(avg->load_avg);
	l->util = READ_ONCE(avg->util_avg);
	l->util_est = ks_cfs_rq_util_est(cfs);
	l->runnable = READ_ONCE(avg->runnable_avg);
	l->capacity = ks_rq_cpu_capacity(rq);
	l->capacity_orig = ks_rq_capacity_orig(rq);
	l->misfit = ks_rq_misfit_task_load(rq);
	l->nr = ks_rq_nr_running(rq);
	hr = (audit_rules & AUDIT_RULE_H_NR_RUNNABLE) ? ks_cfs_rq_h_nr_runnable(cfs) : -1;
	l->h_nr = hr >= 0 ? (u32)hr : ks_cfs_rq_h_nr_running(cfs);
	l->idle = ks_rq_idle_cpu(rq);
	l->llc_pref = (audit_rules & AUDIT_RULE_LLC_BALANCE) ? ks_rq_llc_pref(rq) : 0;
}

static bool audit_live_differs(const struct audit_live *a, const struct audit_live *b)
{
	return a->load != b->load || a->util != b->util || a->util_est != b->util_est ||
	       a->runnable != b->runnable || a->capacity != b->capacity ||
	       a->capacity_orig != b->capacity_orig || a->misfit != b->misfit ||
	       a->nr != b->nr || a->h_nr != b->h_nr || a->llc_pref != b->llc_pref ||
	       a->idle != b->idle || a->have != b->have;
}

/*
 * The search's entry: read the inputs of every CPU of the domain (in
 * env->cpus) and every group's capacity, to compare with the return.
 * Bounded like the return handler: AUDIT_MAX_GROUPS groups, a->nr_cpus
 * entries.
 */
static void audit_entry_read(struct audit_pcpu *a, void *env)
{
	struct sched_domain *sd = ks_lb_env_sd(env);
	const struct cpumask *allowed = ks_lb_env_cpus(env);
	struct sched_group *sg, *first;
	int ng = 0, nc = 0, cpu;

	a->entry_done = false;
	if (!sd || !allowed)
		return;
	first = ks_sd_groups(sd);
	sg = first;
	do {
		struct sched_group_capacity *sgc = ks_sg_sgc(sg);

		if (ng >= AUDIT_MAX_GROUPS)
			return;
		a->entry_sgc[ng++] = sgc ? ks_sgc_capacity(sgc) : 0;
		for_each_cpu_and(cpu, ks_sg_span(sg), allowed) {
			if (nc >= a->nr_cpus)
				return;
			audit_read_live(cpu, &a->entry[nc++]);
		}
		sg = ks_sg_next(sg);
	} while (sg && sg != first);
	a->entry_env = env;
	a->entry_done = true;
}

/*
 * env->dst_core_idle, read as update_sd_lb_stats() computes it:
 * !sched_smt_active() || every other SMT sibling of @dst idle_cpu()
 * (audit_dst_core_idle()), the reads kept in @a for the trace event.  A
 * sibling whose rq is not learned yet is taken as busy and counted in
 * @no_rq.  Bounded: AUDIT_SMT_MAX siblings.
 */
static bool audit_read_core_idle(struct audit_pcpu *a, int dst, u32 *no_rq)
{
	int cpu;

	a->smt = sched_smt_active();
	a->nsib = 0;
	if (a->smt && (unsigned int)dst < nr_cpu_ids) {
		for_each_cpu(cpu, topology_sibling_cpumask(dst)) {
			struct shadow_cpu *sc = shadow_cpus[cpu];
			struct rq *rq = sc ? READ_ONCE(sc->rq) : NULL;

			if (a->nsib == AUDIT_SMT_MAX)
				break;
			a->sib[a->nsib] = cpu;
			a->sib_idle[a->nsib] = rq && ks_rq_idle_cpu(rq);
			*no_rq += !rq && cpu != dst;
			a->nsib++;
		}
	}
	return audit_dst_core_idle(a->smt, dst, a->sib, a->sib_idle, a->nsib);
}

/* The domain-wide inputs of the kernel's rules, read from @env under RCU. */
static void audit_fill_domain(struct audit_pcpu *a, struct audit_domain *d, void *env,
			      struct sched_domain *sd, u32 *no_rq)
{
	struct sched_domain *child = ks_sd_child(sd);
	struct rq *dst_rq = ks_lb_env_dst_rq(env);
	struct root_domain *rd = dst_rq ? ks_rq_rd(dst_rq) : NULL;
	int flags = ks_sd_flags(sd);

	memcpy(d->rank, audit_ranks, sizeof(d->rank));
	d->imbalance_pct = ks_sd_imbalance_pct(sd);
	d->imb_numa_nr = ks_sd_imb_numa_nr(sd);
	audit_eas_state(d, rd && ks_rd_pd(rd), rd ? ks_rd_overutilized(rd) : 0);
	d->rules = READ_ONCE(audit_rules);
	d->dst_capacity = dst_rq ? ks_rq_cpu_capacity(dst_rq) : SCHED_CAPACITY_SCALE;
	d->dst_core_idle = audit_read_core_idle(a, ks_lb_env_dst_cpu(env), no_rq);
	d->flags = 0;
	if (flags & SD_ASYM_PACKING)
		d->flags |= AUDIT_SD_ASYM_PACKING;
	if (flags & SD_ASYM_CPUCAPACITY)
		d->flags |= AUDIT_SD_ASYM_CAPACITY;
	if (flags & SD_NUMA)
		d->flags |= AUDIT_SD_NUMA;
	if (flags & SHADOW_SD_SHARE_LLC)
		d->flags |= AUDIT_SD_SHARE_LLC;
	if (flags & SD_SHARE_CPUCAPACITY)
		d->flags |= AUDIT_SD_SHARE_CPUCAPACITY;
	/*
	 * BTF of 7.x (7.2, 7.3 seen) has no SD_OVERLAP; only NUMA domains
	 * build overlapping groups, so there every NUMA domain is marked as
	 * possibly overlapping (the mark is informative: a domain whose groups
	 * do not fit the scratch is never judged either way).
	 */
	if (SHADOW_SD_OVERLAP ? (flags & SHADOW_SD_OVERLAP) : (flags & SD_NUMA))
		d->flags |= AUDIT_SD_OVERLAP;
	if (child && (ks_sd_flags(child) & SD_PREFER_SIBLING))
		d->flags |= AUDIT_SD_PREFER_SIBLING;
}

/*
 * One CPU entry of the domain: the kernel model's inputs read live now
 * (compared with the entry read when there is one), the published state
 * for the verdict and the trackers, and its waiter summary in @w (for the
 * trace event).
 */
/*
 * Append CPU entry @c of group @g with its waiter summary @w to the event's
 * cbuf, as the destination sees it: waiters of groups throttled there
 * (bit i of @thr for w->tg[i]) count as throttled, not as work.
 */
static void audit_format_cpu(struct audit_pcpu *a, int g, const struct audit_cpu *c,
			     const struct shadow_work *w, u32 thr)
{
	u32 nr = min_t(u32, w->nr_restricted, SHADOW_WORK_RESTRICTED), m, i, any = w->any;
	u32 throttled = w->throttled, shown = 0, words = 0, k;
	size_t len = sizeof(a->cbuf), n = a->clen;

	for (i = 0; i < min_t(u32, w->nr_tg, SHADOW_WORK_TGS); i++) {
		if (thr & BIT(i))
			throttled += w->tg_any[i];
		else
			any += w->tg_any[i];
	}
	for (m = 0; m < nr; m++)
		words += shadow_work_mask_end(w, m, BITS_TO_LONGS(nr_cpu_ids));

	if (a->ccut || len - n < 160 + words * 18) {
		a->ccut = true;
		return;
	}
	n += scnprintf(a->cbuf + n, len - n,
		       "%s%d,%d,%u,%u,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%d,%d,%u,%u,%u,%u,%u,%u,",
		       n ? ";" : "", g, c->cpu, c->nr_running, c->h_nr_running, c->load_avg,
		       c->util_avg, c->util_est, c->runnable_avg, c->capacity,
		       c->capacity_orig ? c->capacity_orig : SCHED_CAPACITY_SCALE,
		       c->misfit_task_load, c->idle, c->stale, c->llc_pref,
		       c->void_reason ? c->void_reason : (c->valid ? 0 : SHADOW_VOID_NEVER),
		       any, w->pinned, w->unknown, throttled);
	for (m = 0; m < nr; m++) {
		if (!w->rcount[m])
			continue;	/* a free entry */
		/* its group is throttled on the destination */
		if (w->rtg[m] >= 0 && w->rtg[m] < SHADOW_WORK_TGS && (thr & BIT(w->rtg[m])))
			continue;
		/*
		 * the summary keeps a window from word base[m]: print absolute
		 * words, through the window's last CPU
		 */
		words = shadow_work_mask_end(w, m, BITS_TO_LONGS(nr_cpu_ids));
		for (k = 0; k < words; k++)
			n += scnprintf(a->cbuf + n, len - n, "%s%llx", k ? "." : (shown ? "/" : ""),
				       shadow_work_mask_word(w, m, k));
		shown++;
	}
	if (!shown)
		n += scnprintf(a->cbuf + n, len - n, "-");
	a->clen = n;
}

/*
 * Bit i set: the bandwidth-limited group w->tg[i] is throttled on @dst
 * (throttled_lb_pair()'s destination half).  The group pointers come from
 * the source CPU's published summary: a group cannot be freed while it has
 * queued tasks, its last task's dequeue republishes the summary first, and
 * the caller holds RCU across the copy and this read (the group is freed
 * after a grace period).
 */
static u32 audit_tg_throttled(const struct shadow_work *w, int dst)
{
	u32 i, thr = 0;

	for (i = 0; i < min_t(u32, w->nr_tg, SHADOW_WORK_TGS); i++) {
		const struct task_group *tg = (const struct task_group *)(unsigned long)w->tg[i];
		struct cfs_rq *cfs = tg ? ks_tg_cfs_rq(tg, dst) : NULL;

		if (cfs && ks_cfs_rq_throttled(cfs))
			thr |= BIT(i);
	}
	return thr;
}

/*
 * Append the entry read of stale CPU @cpu to the event's ebuf (entry=):
 * the values the kernel may have read instead of the return read's.
 */
static void audit_format_entry(struct audit_pcpu *a, int cpu, const struct audit_live *e)
{
	size_t len = sizeof(a->ebuf), n = a->elen;

	if (a->ecut || len - n < 128) {
		a->ecut = true;
		return;
	}
	n += scnprintf(a->ebuf + n, len - n, "%s%d,%u,%u,%llu,%llu,%llu,%llu,%llu,%llu,%d,%llu,%u",
		       n ? ";" : "", cpu, e->nr, e->h_nr, e->load, e->util, e->util_est,
		       e->runnable, e->capacity, e->misfit, e->idle,
		       e->capacity_orig ? e->capacity_orig : SCHED_CAPACITY_SCALE, e->llc_pref);
	a->elen = n;
}

/*
 * The kernel model's inputs of entry @c (CPU @cpu), read live now: the
 * first pass of the return handler, in one tight loop over the domain so
 * that the read is as close as it can be to the kernel's own (the
 * published state and the event's text come after, in audit_fill_pub()).
 */
static void audit_fill_live(struct audit_pcpu *a, struct audit_cpu *c, int cpu, u32 *no_rq)
{
	struct audit_live l;

	memset(c, 0, sizeof(*c));
	c->cpu = cpu;
	audit_read_live(cpu, &l);
	c->nr_running = l.nr;
	c->h_nr_running = l.h_nr;
	c->load_avg = l.load;
	c->util_avg = l.util;
	c->util_est = l.util_est;
	c->runnable_avg = l.runnable;
	c->capacity = l.have ? l.capacity : SCHED_CAPACITY_SCALE;
	c->capacity_orig = l.capacity_orig;
	c->misfit_task_load = l.misfit;
	c->idle = l.idle;
	c->llc_pref = l.llc_pref;
	/* no rq learned yet: the inputs are unknown, which reads as stale */
	c->stale = !l.have || (a->entry_done && audit_live_differs(&l, &a->entry[c - a->cpus]));
	*no_rq += !l.have;
}

/*
 * The verdict's inputs of entry @c of group @g: the CPU's published state
 * (the waiter summary as destination @dst sees it, the trackers' values),
 * and the entry's text for the lb_verdict event.
 */
static void audit_fill_pub(struct audit_pcpu *a, struct audit_cpu *c, int g, int dst,
			   u32 *unreadable)
{
	struct shadow_scalars s;
	int cpu = c->cpu;
	bool again = true;
	u32 thr = 0;

retry:
	shadow_work_begin(&s.work);
	if (!shadow_read_scalars(cpu, &s)) {
		(*unreadable)++;
		c->void_reason = SHADOW_VOID_UNREADABLE;
		shadow_work_begin(&s.work);
		goto out;
	}
	if (!s.valid) {
		c->void_reason = SHADOW_VOID_NEVER;
		shadow_work_begin(&s.work);
		goto out;
	}
	/*
	 * The published waiters must be of the moment of the model's inputs
	 * (the first pass, read closest to the kernel's own reads): the same
	 * nr_running.  If not, the publication of a change is in flight or
	 * the CPU changed since: read it once more (bounded: two reads), and
	 * if it still differs, the CPU's work is unknown (one waiter of
	 * unknown destinations), so a verdict resting on it is void
	 * (work_unknown), never missed or wrong on another moment's waiters.
	 * The model's inputs are not read again.
	 */
	if (s.nr_running != c->nr_running && again) {
		again = false;
		goto retry;
	}
	c->valid = true;
	c->void_reason = s.void_reason < SHADOW_NR_VOID_REASONS ? s.void_reason :
			 SHADOW_VOID_UNREADABLE;
	if (s.nr_running != c->nr_running) {
		shadow_work_begin(&s.work);
		s.work.unknown = 1;
	}
	thr = audit_tg_throttled(&s.work, dst);
	c->work = shadow_work_for_dst(&s.work, dst, thr);
	c->h_load = s.h_load;
	c->movable = s.movable;
	c->weight = s.weight;
	c->shadow = shadow_fp_round(s.shadow_fp);
	c->shadow_avg = shadow_fp_round(s.shadow_avg_fp);
out:
	if (a->fmt && c->stale && a->entry_done && a->entry[c - a->cpus].have)
		audit_format_entry(a, cpu, &a->entry[c - a->cpus]);
	if (a->fmt)
		audit_format_cpu(a, g, c, &s.work, thr);
}

static void audit_count(struct audit_counts *n, int dom, const struct audit_result *res)
{
	int idle = res->idle_type, t, slot;

	for (slot = 0; slot < 2; slot++) {
		u64 (*row)[LB_NR_COLS] = n->c[slot ? AUDIT_ALL : dom][idle];

		row[AUDIT_ROW_ACTUAL][LB_CALLS]++;
		if (res->verdict == AUDIT_BUSY)
			continue;
		row[AUDIT_ROW_ACTUAL][LB_RIGHT + res->verdict]++;
		for (t = 0; t < AUDIT_NR_TRACKERS; t++) {
			u64 *r = row[1 + t];

			r[LB_CALLS]++;
			if (res->verdict == AUDIT_VOID) {
				r[LB_VOID]++;
				continue;
			}
			switch (res->outcome[t]) {
			case AUDIT_PICK_WORK:
				r[LB_RIGHT]++;
				break;
			case AUDIT_PICK_IDLE_WRONG:
				r[LB_WRONG]++;
				break;
			case AUDIT_NO_PICK:
				r[res->nonlocal_work ? LB_MISSED : LB_NONE]++;
				break;
			default:
				r[LB_NONE]++;
				break;
			}
			if (res->agree[t])
				r[LB_AGREE]++;
		}
	}
}

/*
 * The inputs of the lb_verdict event of one attempt, formatted at its
 * first search (only while the event is enabled) into a->tbuf; the event
 * itself fires at the attempt's return.  docs/debugfs.md ("lb_verdict")
 * documents every field; a checker recomputes the verdict from them.
 */
static void audit_format_state(struct audit_pcpu *a, const struct audit_domain *d,
			       const struct audit_group *groups, int ng)
{
	char *b = a->tbuf;
	size_t len = sizeof(a->tbuf), n;
	int g, i;

	n = scnprintf(b, len, "rules=0x%x pct=%u sd=0x%x eas=%d eas_on=%d imb_numa=%u dst_cap=%llu dst_core_idle=%d ranks=",
		      d->rules, d->imbalance_pct, d->flags, d->eas_balanced, d->eas_present,
		      d->imb_numa_nr, d->dst_capacity, d->dst_core_idle);
	for (i = 0; i < AUDIT_NR_CLASSES; i++)
		n += scnprintf(b + n, len - n, "%s%d", i ? "," : "", d->rank[i]);
	/* the raw reads of dst_core_idle: sched_smt_active(), dst's siblings and their idle_cpu() */
	n += scnprintf(b + n, len - n, " smt=%d sib=", a->smt);
	for (i = 0; i < a->nsib; i++)
		n += scnprintf(b + n, len - n, "%s%d:%d", i ? "," : "", a->sib[i], a->sib_idle[i]);
	if (!a->nsib)
		n += scnprintf(b + n, len - n, "-");
	n += scnprintf(b + n, len - n, " groups=");
	for (g = 0; g < ng; g++) {
		const struct audit_group *gr = &groups[g];

		if (len - n < 160)
			goto cut;
		n += scnprintf(b + n, len - n, "%s%d,%d,%u,%llu,%d,%u,%u,%llu,%llu,%d", g ? ";" : "",
			       gr->local, gr->nr ? a->cpus[gr->first].cpu : -1, gr->weight,
			       gr->capacity, gr->imbalanced, gr->flags, gr->cores, gr->min_capacity,
			       gr->max_capacity, gr->stale);
	}
	n += scnprintf(b + n, len - n, " cpus=");
	if (a->ccut || len - n < a->clen + 16)
		goto cut;
	memcpy(b + n, a->cbuf, a->clen);
	n += a->clen;
	b[n] = 0;
	/* the entry read of the stale CPUs and of every group's capacity */
	if (len - n < a->elen + 32 + ng * 24 || a->ecut)
		goto cut;
	n += scnprintf(b + n, len - n, " entry=%s", a->elen ? a->ebuf : "-");
	n += scnprintf(b + n, len - n, " entry_sgc=");
	for (g = 0; g < ng; g++) {
		if (!a->entry_done) {
			n += scnprintf(b + n, len - n, "-");
			break;
		}
		n += scnprintf(b + n, len - n, "%s%llu", g ? "," : "", a->entry_sgc[g]);
	}
	return;
cut:
	scnprintf(b + n, len - n, " trunc=1");
}

/* The lb_verdict event of one attempt, from the state its first search kept. */
static void audit_trace_attempt(struct audit_pcpu *a, int moved)
{
	const struct audit_attempt *at = &a->att;
	const struct audit_result *r = &at->res;
	struct shadow_lb_verdict v;
	int t;

	static_assert(AUDIT_NR_TRACKERS == ARRAY_SIZE(v.tracker));
#define AUDIT_GCPU(i) ((i) >= 0 && (i) < at->ng ? at->gcpu[i] : -1)
	for (t = 0; t < AUDIT_NR_TRACKERS; t++)
		v.tracker[t] = AUDIT_GCPU(r->pick[t]);
	v.dst_cpu = at->dst;
	v.domain = audit_domain_names[at->dom];
	v.idle = r->idle_type;
	v.verdict = r->verdict;
	v.reason = audit_reason_name[r->reason];
	v.pick = AUDIT_GCPU(r->kernel_pick);
	v.model = AUDIT_GCPU(r->model_pick);
	v.busiest = AUDIT_GCPU(r->model.busiest);
	v.model_exit = audit_reason_name[r->model.exit];
	v.cause = audit_cause_name[r->cause];
	v.known = audit_known_name[r->known];
	v.gpick = r->kernel_pick;
	v.gmodel = r->model_pick;
	v.gbusiest = r->model.busiest;
	v.redos = at->searches ? at->searches - 1 : 0;
	v.moved = moved;
	v.active = at->kicked;
	v.dst_work = at->dst_work;
	v.runs = r->runs;
#undef AUDIT_GCPU
	trace_lb_verdict(&v, a->tbuf);
}

/*
 * Record the Nth wrong/missed verdict.  The handler copies only the
 * judgement, groups and CPU rows it already has (O(groups + CPUs)); the
 * cfs_rq trees of the CPUs, the expensive part, are copied in process
 * context after the balancer's path (audit_snap_trees_fn()).  The slot
 * stays busy until then.
 */
static void audit_snapshot_record(struct audit_pcpu *a, int dom, int dst, u64 nth,
				  const struct audit_result *res, int ng, int nc)
{
	struct audit_snapshot *sn;
	long slot;

	if (READ_ONCE(a->snap_slot) >= 0)
		return;		/* this CPU's previous trees are still pending */
	slot = atomic64_inc_return(&audit_snap_next) % AUDIT_NR_SNAPSHOTS;
	sn = &audit_snaps[slot];
	if (atomic_cmpxchg_acquire(&sn->busy, 0, 1))
		return;		/* another CPU is writing this slot: drop this one */
	raw_write_seqcount_begin(&sn->seq);
	sn->used = true;
	sn->trees_done = false;
	sn->gen = READ_ONCE(audit_odd_gen);
	sn->nth = nth;
	sn->time_ns = ktime_get_mono_fast_ns();
	sn->domain = dom;
	sn->dst_cpu = dst;
	sn->res = *res;
	sn->nr_groups = ng;
	/* the groups index every entry: the snapshot holds as many as the scratch */
	sn->nr_cpus = min_t(int, nc, AUDIT_SCRATCH_CPUS);
	memcpy(sn->groups, a->groups, ng * sizeof(a->groups[0]));
	memcpy(sn->cpus, a->cpus, sn->nr_cpus * sizeof(a->cpus[0]));
	memset(sn->nr_nodes, 0, AUDIT_SNAP_TREE_CPUS * sizeof(*sn->nr_nodes));
	raw_write_seqcount_end(&sn->seq);
	WRITE_ONCE(a->snap_slot, slot);
	irq_work_queue(&a->snap_work);
}

/*
 * The cfs_rq trees of pending snapshots, copied in process context: every
 * CPU whose snapshot is pending (snap_slot >= 0) gets its slot's trees
 * read from the CPUs' published walks, then the slot is freed.  Its
 * scratch is one shadow_snap for the whole machine (the work item never
 * runs concurrently with itself).
 */
static struct shadow_snap *audit_snap_scratch;

static void audit_snap_trees_fn(struct work_struct *work)
{
	struct shadow_snap *snap = audit_snap_scratch;
	int cpu, i, k;

	for_each_possible_cpu(cpu) {
		struct audit_pcpu *a = READ_ONCE(audit_pcpu[cpu]);
		struct audit_snapshot *sn;
		int slot;

		if (!a)
			continue;
		slot = READ_ONCE(a->snap_slot);
		if (slot < 0)
			continue;
		sn = &audit_snaps[slot];
		raw_write_seqcount_begin(&sn->seq);
		for (i = 0; i < AUDIT_SNAP_TREE_CPUS; i++)
			sn->nr_nodes[i] = 0;
		for (i = 0; i < sn->nr_cpus && i < AUDIT_SNAP_TREE_CPUS; i++) {
			if (!shadow_read_cpu(sn->cpus[i].cpu, snap) || !snap->s.valid)
				continue;
			k = min_t(u32, snap->s.nr_nodes, AUDIT_SNAP_TREE_NODES);
			memcpy(sn->nodes[i], snap->nodes, k * sizeof(snap->nodes[0]));
			sn->nr_nodes[i] = k;
		}
		sn->trees_done = true;
		raw_write_seqcount_end(&sn->seq);
		WRITE_ONCE(a->snap_slot, -1);
		atomic_set_release(&sn->busy, 0);
		cond_resched();
	}
}
static DECLARE_WORK(audit_snap_work, audit_snap_trees_fn);

/*
 * Hard IRQ, right after the balancer's path: only queues the copy (the
 * balancer may run under a run-queue lock, where waking a kworker could
 * deadlock; here no such lock is held).
 */
static void audit_snap_kick(struct irq_work *w)
{
	queue_work(system_unbound_wq, &audit_snap_work);
}

/* Keep what the attempt's trace event and counters need from its first search. */
static void audit_attempt_keep(struct audit_pcpu *a, const struct audit_domain *d, int dom,
			       int dst, const struct audit_result *res, int ng)
{
	struct audit_attempt *at = &a->att;
	int g;

	at->judged = true;
	at->judged_ns = shadow_wasted_clock();
	at->dom = dom;
	at->dst = dst;
	at->d = *d;
	at->res = *res;
	at->ng = ng;
	memcpy(at->gs, a->gs, ng * sizeof(a->gs[0]));
	for (g = 0; g < ng; g++)
		at->gcpu[g] = a->groups[g].nr ? a->cpus[a->groups[g].first].cpu : -1;
	if (a->fmt)
		audit_format_state(a, d, a->groups, ng);
}

/*
 * One judged attempt of the calibration phase (lb_rules_learn=N): its
 * evidence, and at the N-th the decision.  Atomic counters: the phase is
 * short and shared by every CPU.
 */
static void audit_calibrate(const struct audit_result *res, u32 differs, u32 fagree)
{
	s64 n;
	u32 flip = 0;
	int b;

	for (b = 0; differs && b < AUDIT_NR_RULES; b++) {
		if (!(differs & BIT(b)))
			continue;
		atomic64_inc(&audit_calib_ev[0][b]);
		if (res->cause == AUDIT_CAUSE_AGREE)
			atomic64_inc(&audit_calib_ev[1][b]);
		if (fagree & BIT(b))
			atomic64_inc(&audit_calib_ev[2][b]);
	}
	if (res->cause == AUDIT_CAUSE_AGREE)
		atomic64_inc(&audit_calib_agree);
	n = atomic64_inc_return(&audit_calib_seen);
	if (n != audit_learn_n)
		return;
	/* the last attempt of the phase decides, once */
	for (b = 0; b < AUDIT_NR_RULES; b++)
		if (atomic64_read(&audit_calib_ev[0][b]) >= AUDIT_CALIB_MIN &&
		    atomic64_read(&audit_calib_ev[2][b]) > atomic64_read(&audit_calib_ev[1][b]))
			flip |= BIT(b);
	flip &= AUDIT_RULES_FLIPPABLE & ~(audit_rules_on | audit_rules_off);
	audit_rules_learned = flip;
	WRITE_ONCE(audit_rules, audit_rules ^ flip);
	WRITE_ONCE(audit_calib_done, true);
}

static void audit_judge_call(struct audit_pcpu *a, void *env, struct sched_group *picked)
{
	struct sched_domain *sd = ks_lb_env_sd(env);
	struct sched_group *sg, *first;
	const struct cpumask *allowed = ks_lb_env_cpus(env);
	int dst = ks_lb_env_dst_cpu(env), idle = audit_idle_type(ks_lb_env_idle(env));
	int ng = 0, nc = 0, kpick = -1, dom, cpu;
	bool too_many = false, cut = false, bad = false, first_search = false, orphan = false;
	struct audit_attempt *at = &a->att;
	struct audit_domain d;
	struct audit_result res;
	u32 unreadable = 0, no_rq = 0, gen, differs = 0, fagree = 0;
	bool stale_in = false, judged;
	int b;

	if (!sd || !allowed || (unsigned int)dst >= nr_cpu_ids)
		return;
	if (audit_att_registered) {
		if (at->active && at->sd == (void *)sd) {
			first_search = !at->searches++;
		} else {
			orphan = true;
		}
	} else {
		first_search = true;	/* no attempt hook: every search stands alone */
	}
	dom = audit_domain_slot(sd);

	/* perf: a busy destination is counted, no CPU is read */
	if (idle == AUDIT_CPU_NOT_IDLE) {
		gen = atomic_read(&shadow_reset_gen);
		raw_write_seqcount_begin(&a->seq);
		if (a->gen != gen) {
			memset(&a->n, 0, sizeof(a->n));
			a->gen = gen;
		}
		a->n.c[dom][idle][AUDIT_ROW_ACTUAL][LB_CALLS]++;
		a->n.c[AUDIT_ALL][idle][AUDIT_ROW_ACTUAL][LB_CALLS]++;
		a->n.att_orphan += orphan;
		raw_write_seqcount_end(&a->seq);
		if (first_search && audit_att_registered) {
			at->judged = true;
			at->judged_ns = 0;	/* busy: wasted-core time ignores it */
			at->dom = dom;
			at->dst = dst;
			at->res.verdict = AUDIT_BUSY;
			at->res.reason = AUDIT_R_NONE;
			at->res.idle_type = AUDIT_CPU_NOT_IDLE;
			at->ng = 0;
		}
		return;
	}

	/* describe the domain: live inputs, published state for the verdict */
	a->fmt = first_search && trace_lb_verdict_enabled();
	a->ccut = false;
	a->clen = 0;
	a->cbuf[0] = 0;
	a->ecut = false;
	a->elen = 0;
	a->ebuf[0] = 0;
	if (a->entry_done && a->entry_env != env)
		a->entry_done = false;
	first = ks_sd_groups(sd);
	sg = first;
	do {
		struct audit_group *g;
		struct sched_group_capacity *sgc;
		int sgf;

		if (ng >= AUDIT_MAX_GROUPS) {
			too_many = true;
			break;
		}
		g = &a->groups[ng];
		memset(g, 0, sizeof(*g));
		g->first = nc;
		g->local = cpumask_test_cpu(dst, ks_sg_span(sg));
		g->weight = ks_sg_group_weight(sg);
		sgc = ks_sg_sgc(sg);
		g->capacity = sgc ? ks_sgc_capacity(sgc) : 0;
		g->imbalanced = sgc && ks_sgc_imbalance(sgc);
		g->min_capacity = sgc ? ks_sgc_min_capacity(sgc) : 0;
		g->max_capacity = sgc ? ks_sgc_max_capacity(sgc) : 0;
		g->stale = a->entry_done && a->entry_sgc[ng] != g->capacity;
		sgf = ks_sg_flags(sg);
		g->flags = (sgf & SD_SHARE_CPUCAPACITY ? AUDIT_SG_SMT : 0) |
			   (sgf & SD_PREFER_SIBLING ? AUDIT_SG_PREFER_SIBLING : 0);
		g->cores = ks_sg_cores(sg);
		for_each_cpu_and(cpu, ks_sg_span(sg), allowed) {
			if (nc >= a->nr_cpus) {
				cut = true;	/* overlapping NUMA groups: never judged cut */
				break;
			}
			audit_fill_live(a, &a->cpus[nc], cpu, &no_rq);
			nc++;
			g->nr++;
		}
		if (sg == picked)
			kpick = ng;
		ng++;
		sg = ks_sg_next(sg);
	} while (sg && sg != first && !cut);
	/* second pass: the published state, after every live read */
	if (!too_many && !cut) {
		int gi, i;

		for (gi = 0; gi < ng; gi++)
			for (i = a->groups[gi].first; i < a->groups[gi].first + a->groups[gi].nr; i++)
				audit_fill_pub(a, &a->cpus[i], gi, dst, &unreadable);
	}
	if (picked && kpick < 0)
		kpick = ng;	/* not in the domain: audit_judge() flags it */
	if (!too_many && !cut) {
		audit_fill_domain(a, &d, env, sd, &no_rq);
		audit_judge(&d, a->groups, ng, a->cpus, nc, idle, kpick, a->gs, &res);
		bad = res.flags & AUDIT_F_BAD_MASK;
		judged = !bad && first_search;
		for (b = 0; b < ng; b++)
			stale_in |= a->gs[b].stale;
		stale_in &= judged;
		/*
		 * a disagreement of the attempt's verdict: why (the entry read,
		 * the left-out rules flipped), at most AUDIT_EXPLAIN_RUNS(ng)
		 * model runs; the rules' evidence only while it is asked for
		 */
		if (judged)
			audit_explain(&d, a->groups, ng, a->cpus, nc, a->entry_done ? a->entry : NULL,
				      a->entry_done ? a->entry_sgc : NULL, a->gs, &res);
		if (judged && (READ_ONCE(audit_evidence) ||
			       (audit_learn_n && !READ_ONCE(audit_calib_done))))
			audit_model_flips(&d, a->gs, ng, idle, &res.model, res.kernel_pick,
					  AUDIT_RULES_FLIPPABLE & ~(audit_rules_on | audit_rules_off),
					  &differs, &fagree);
	}

	gen = atomic_read(&shadow_reset_gen);
	raw_write_seqcount_begin(&a->seq);
	if (a->gen != gen) {
		memset(&a->n, 0, sizeof(a->n));
		a->gen = gen;
	}
	a->n.unreadable += unreadable;
	a->n.no_rq += no_rq;
	a->n.att_orphan += orphan;
	if (too_many) {
		a->n.too_many_groups++;
	} else if (cut) {
		a->n.overlap_cut++;
	} else if (bad) {
		a->n.bad++;
	} else {
		if (res.flags & AUDIT_F_PICKED_LOCAL)
			a->n.picked_local++;
		a->n.entry_unread += !a->entry_done;
		a->n.stale_in += stale_in;
		a->n.stale_in_ret += stale_in && res.cause == AUDIT_CAUSE_AGREE;
		a->n.disagree_moved += stale_in && res.cause != AUDIT_CAUSE_AGREE &&
				       idle != AUDIT_CPU_NOT_IDLE;
		a->n.explain_runs += res.runs;
		a->n.explain_runs_max = max_t(u64, a->n.explain_runs_max, res.runs);
		audit_count(&a->n, dom, &res);
		for (b = 0; differs && b < AUDIT_NR_RULES; b++) {
			if (!(differs & BIT(b)))
				continue;
			a->n.rule_disc[b]++;
			a->n.rule_in_force[b] += res.cause == AUDIT_CAUSE_AGREE;
			a->n.rule_flipped[b] += !!(fagree & BIT(b));
		}
	}
	raw_write_seqcount_end(&a->seq);
	if (too_many || cut || bad || !first_search)
		return;

	if (audit_learn_n && !READ_ONCE(audit_calib_done))
		audit_calibrate(&res, differs, fagree);
	if (audit_att_registered)
		audit_attempt_keep(a, &d, dom, dst, &res, ng);
	if (res.verdict == AUDIT_WRONG || res.verdict == AUDIT_MISSED) {
		unsigned long every = READ_ONCE(audit_dump_every);
		u64 nth = atomic64_inc_return(&audit_odd);

		if (every && !(nth % every))
			audit_snapshot_record(a, dom, dst, nth, &res, ng, nc);
	}
	if (!audit_att_registered && trace_lb_verdict_enabled() && res.verdict != AUDIT_BUSY) {
		at->searches = 1;	/* no attempt hook: the event describes this search */
		at->kicked = false;
		at->dst_work = -1;
		audit_attempt_keep(a, &d, dom, dst, &res, ng);
		audit_trace_attempt(a, -1);
	}
}

/* An idle or newly idle attempt in progress on this CPU: its handlers are timed. */
static bool audit_att_timed(const struct audit_pcpu *a)
{
	return a && a->att.active && a->att.idle != AUDIT_CPU_NOT_IDLE;
}

static int audit_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct audit_ri_data *d = (struct audit_ri_data *)ri->data;
	struct audit_pcpu *a;
	u64 t0, c0 = 0;

	d->env = NULL;
	d->entry_owner = false;
	if (!static_branch_likely(&shadow_enabled))
		return 0;
	t0 = shadow_stat_begin(SS_LB_ENTRY);	/* stats (static key) */
	/* the prototype struct sched_group *f(struct lb_env *) is verified from BTF */
	d->env = (void *)regs_get_kernel_argument(regs, 0);
	a = READ_ONCE(audit_pcpu[smp_processor_id()]);
	if (unlikely(!a)) {		/* a CPU that came up without state */
		d->env = NULL;
		goto out;
	}
	if (audit_att_timed(a))
		c0 = local_clock();
	/*
	 * The entry read of the kernel's inputs; a search nested on this CPU
	 * (a softirq's balance inside a newidle one) does not take it over.
	 */
	/*
	 * An owner whose return never ran (the probe disarmed in between)
	 * would keep the read to itself: after a second it is taken over.
	 */
	if (d->env && (!a->entry_busy || time_after(jiffies, a->entry_since + HZ)) &&
	    audit_idle_type(ks_lb_env_idle(d->env)) != AUDIT_CPU_NOT_IDLE) {
		/* a takeover's buffer is the stuck owner's: reuse it */
		if (a->pool_idx >= 0 || audit_scratch_get(a)) {
			a->entry_busy = true;
			a->entry_since = jiffies;
			d->entry_owner = true;
			rcu_read_lock();
			audit_entry_read(a, d->env);
			rcu_read_unlock();
		}
	}
	if (c0)
		a->att.audit_ns += local_clock() - c0;
out:
	shadow_stat_end(SS_LB_ENTRY, t0);
	return 0;
}

static int audit_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct audit_ri_data *d = (struct audit_ri_data *)ri->data;
	struct audit_pcpu *a;
	u64 t0, c0 = 0;

	if (!d->env)
		return 0;
	a = READ_ONCE(audit_pcpu[smp_processor_id()]);
	if (unlikely(!a))
		return 0;
	if (audit_att_timed(a))
		c0 = local_clock();
	/*
	 * When another instance owns the entry read (a search nested in
	 * another on this CPU), this one is judged without it, in a buffer of
	 * its own; the owner's is put back for it after.
	 */
	if (static_branch_likely(&shadow_enabled)) {
		bool saved = a->entry_done, busy_dst;
		struct audit_scratch owner = {
			.groups = a->groups, .gs = a->gs, .entry_sgc = a->entry_sgc,
			.entry = a->entry, .cpus = a->cpus,
		};
		int owner_idx = a->pool_idx;
		bool own = d->entry_owner, got = true;

		t0 = shadow_stat_begin(SS_LB_RETURN);	/* stats (static key) */
		busy_dst = audit_idle_type(ks_lb_env_idle(d->env)) == AUDIT_CPU_NOT_IDLE;
		if (!own) {
			a->entry_done = false;
			/* a busy destination reads no CPU: no scratch needed */
			a->pool_idx = -1;
			got = busy_dst || audit_scratch_get(a);
		}
		if (got) {
			rcu_read_lock();
			audit_judge_call(a, d->env, (struct sched_group *)regs_return_value(regs));
			rcu_read_unlock();
		} else {
			a->n.scratch_busy++;	/* outside the seqcount: a diagnostic count */
		}
		if (!own) {
			audit_scratch_put(a);
			a->pool_idx = owner_idx;
			a->groups = owner.groups;
			a->gs = owner.gs;
			a->entry_sgc = owner.entry_sgc;
			a->entry = owner.entry;
			a->cpus = owner.cpus;
			a->entry_done = saved;
		}
		shadow_stat_end(SS_LB_RETURN, t0);
	}
	if (d->entry_owner) {
		a->entry_done = false;
		a->entry_busy = false;
		audit_scratch_put(a);
	}
	if (c0)
		a->att.audit_ns += local_clock() - c0;
	return 0;
}

/* ---- balancing attempts ---- */

static int audit_att_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct audit_att_ri *r = (struct audit_att_ri *)ri->data;
	struct audit_pcpu *a;
	struct audit_attempt *at;
	u64 c0 = local_clock();

	r->owner = false;
	if (!static_branch_likely(&shadow_enabled))
		return 0;
	a = READ_ONCE(audit_pcpu[smp_processor_id()]);
	if (unlikely(!a))
		return 0;
	at = &a->att;
	/*
	 * Attempts do not nest on one CPU.  An active one here was left by a
	 * return handler that did not run (the probe was disarmed in between):
	 * count it and take over, so the CPU's audit does not stay stuck.
	 */
	if (at->active)
		a->n.att_nested++;	/* outside the seqcount: diagnostic */
	/* int f(int this_cpu, struct rq *, struct sched_domain *sd, enum cpu_idle_type, int *) */
	at->dst_rq = (void *)regs_get_kernel_argument(regs, 1);
	at->sd = (void *)regs_get_kernel_argument(regs, 2);
	at->idle = audit_idle_type((int)regs_get_kernel_argument(regs, 3));
	at->searches = 0;
	at->judged = false;
	at->kicked = false;
	at->dst_work = -1;
	at->active = true;
	r->owner = true;
	at->t_start = c0;
	at->audit_ns = at->idle != AUDIT_CPU_NOT_IDLE ? local_clock() - c0 : 0;
	return 0;
}

static int audit_att_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct audit_att_ri *r = (struct audit_att_ri *)ri->data;
	struct audit_pcpu *a;
	struct audit_attempt *at;
	int moved = (int)regs_return_value(regs), row, it;
	u64 c0 = 0, ns;
	u32 gen;

	if (!r->owner)
		return 0;
	r->t0 = shadow_stat_begin(SS_LB_ATTEMPT);	/* stats (static key) */
	a = audit_pcpu[smp_processor_id()];	/* the entry found it: owner */
	at = &a->att;
	if (audit_att_timed(a))
		c0 = local_clock();
	row = at->judged ? audit_att_row(at->res.verdict, at->res.reason) : -1;
	gen = atomic_read(&shadow_reset_gen);
	raw_write_seqcount_begin(&a->seq);
	if (a->gen != gen) {
		memset(&a->n, 0, sizeof(a->n));
		a->gen = gen;
	}
	if (!at->judged) {
		a->n.att_skipped++;
	} else if (row >= 0 && at->res.idle_type >= 0 && at->res.idle_type < AUDIT_NR_IDLE_TYPES) {
		int s;

		for (s = 0; s < 2; s++) {
			u64 *c = a->n.att[s ? AUDIT_ALL : at->dom][at->res.verdict == AUDIT_BUSY ?
				 AUDIT_CPU_NOT_IDLE : at->res.idle_type][row];

			c[ATT_N]++;
			c[ATT_REDOS] += at->searches ? at->searches - 1 : 0;
			c[ATT_MOVED] += moved > 0 ? moved : 0;
			c[ATT_ACTIVE] += at->kicked;
			if (at->res.verdict == AUDIT_BUSY)
				continue;	/* not judged, the model is not run */
			c[ATT_AGREE + at->res.cause]++;
			c[ATT_EITHER] += at->res.either_picked;
			c[ATT_EITHER_AGREE] += at->res.either_picked &&
					       at->res.cause == AUDIT_CAUSE_AGREE;
		}
		if (at->res.verdict != AUDIT_BUSY && at->res.cause == AUDIT_CAUSE_KNOWN &&
		    at->res.known < AUDIT_NR_KNOWN_RULES)
			a->n.known[at->res.known]++;
	}
	raw_write_seqcount_end(&a->seq);
	if (at->judged)		/* wasted.c: charge wasted time to this attempt */
		shadow_wasted_attempt(at->dst, audit_domain_names[at->dom], at->res.verdict,
				      at->res.reason, moved, at->kicked, at->judged_ns);
	if (at->judged && at->res.verdict != AUDIT_BUSY && trace_lb_verdict_enabled()) {
		/*
		 * Work on the destination now: should_we_balance() ends a redo
		 * when it finds it (newidle: a queued task or a pending wakeup,
		 * 5.19+; idle: the destination is no longer idle_cpu()).  A
		 * newly idle attempt runs with interrupts off, so what it saw
		 * is still there; the attempt's own moved tasks count too.
		 */
		at->dst_work = at->dst_rq ? ks_rq_has_work(at->dst_rq) : -1;
		audit_trace_attempt(a, moved);
	}
	/* the audit's time in this attempt, its handlers' from first to last */
	it = at->idle;
	if (c0 && it >= 0 && it < AUDIT_NR_IDLE_TYPES) {
		u64 c1 = local_clock();

		ns = at->audit_ns + c1 - c0;
		raw_write_seqcount_begin(&a->seq);
		if (a->gen == gen) {
			a->n.att_ns_max[it] = max(a->n.att_ns_max[it], ns);
			a->n.att_ns_sum[it] += ns;
			a->n.att_ns_n[it]++;
			a->n.att_wall_sum[it] += c1 - at->t_start;
			a->n.att_ns_hist[it][min_t(u32, fls64(ns >> 10), AUDIT_NS_BUCKETS - 1)]++;
		}
		raw_write_seqcount_end(&a->seq);
	}
	at->active = false;
	shadow_stat_end(SS_LB_ATTEMPT, r->t0);
	return 0;
}

/* stop_one_cpu_nowait() inside an attempt on this CPU: active balance was kicked. */
static int audit_kick_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct audit_pcpu *a = READ_ONCE(audit_pcpu[smp_processor_id()]);

	if (a && a->att.active)
		a->att.kicked = true;
	return 0;
}

static struct kretprobe audit_att_krp = {
	.entry_handler = audit_att_entry,
	.handler = audit_att_return,
	.data_size = sizeof(struct audit_att_ri),
};

static struct kprobe audit_kick_kp = {
	.symbol_name = "stop_one_cpu_nowait",
	.pre_handler = audit_kick_pre,
};

static struct kretprobe audit_krp = {
	.entry_handler = audit_entry,
	.handler = audit_return,
	.data_size = sizeof(struct audit_ri_data),
};

static const char * const audit_funcs[] = { KS_FUNCS_lb_find_src NULL };

/*
 * Scratch sizes from the machine at load: no domain has more groups than a
 * package has CPUs (MC: cores of an LLC; package: its LLCs) or than there
 * are nodes (NUMA), and a domain lists at most its CPUs, four times over
 * with overlapping NUMA groups.  Present CPUs, not possible ones.
 */
static void audit_size(void)
{
	unsigned int cpu, g = nr_node_ids;

	for_each_present_cpu(cpu)
		g = max(g, cpumask_weight(topology_core_cpumask(cpu)));
	audit_max_groups = clamp_t(u32, g, AUDIT_GROUPS_MIN, AUDIT_GROUPS_MAX);
	audit_scratch_cpus = clamp_t(u32, 4 * num_present_cpus(), 16,
				     min_t(u32, AUDIT_SCRATCH_MAX, 4 * nr_cpu_ids));
}

static void audit_pcpu_free(struct audit_pcpu *a)
{
	if (!a)
		return;
	kvfree(a->att.gs);
	kvfree(a->att.gcpu);
	kvfree(a);
}

/* One CPU's state (NULL without memory); its search scratch comes from the pool. */
static struct audit_pcpu *audit_pcpu_alloc(int cpu)
{
	int node = cpu_to_node(cpu);
	struct audit_pcpu *a = kvzalloc_node(sizeof(*a), GFP_KERNEL, node);

	if (!a)
		return NULL;
	a->att.gs = kvzalloc_node(AUDIT_MAX_GROUPS * sizeof(*a->att.gs), GFP_KERNEL, node);
	a->att.gcpu = kvzalloc_node(AUDIT_MAX_GROUPS * sizeof(*a->att.gcpu), GFP_KERNEL, node);
	if (!a->att.gs || !a->att.gcpu) {
		audit_pcpu_free(a);
		return NULL;
	}
	seqcount_init(&a->seq);
	init_irq_work(&a->snap_work, audit_snap_kick);
	a->snap_slot = -1;
	a->pool_idx = -1;
	a->nr_cpus = AUDIT_SCRATCH_CPUS;
	a->gen = atomic_read(&shadow_reset_gen);
	return a;
}

/* Bytes of one CPU's audit state and of one pool buffer (`info`, docs/performance.md). */
static size_t audit_pcpu_bytes(void)
{
	return sizeof(struct audit_pcpu) +
	       (size_t)AUDIT_MAX_GROUPS * (sizeof(struct audit_gstats) + sizeof(int));
}

static size_t audit_scratch_bytes(void)
{
	return (size_t)AUDIT_SCRATCH_CPUS * (sizeof(struct audit_cpu) + sizeof(struct audit_live)) +
	       (size_t)AUDIT_MAX_GROUPS * (sizeof(u64) + sizeof(struct audit_group) +
					   sizeof(struct audit_gstats));
}

static void audit_pool_free(void)
{
	unsigned int i;

	for (i = 0; i < AUDIT_POOL_MAX; i++) {
		struct audit_scratch *b = &audit_pool[i];

		kvfree(b->groups);
		kvfree(b->gs);
		kvfree(b->entry_sgc);
		kvfree(b->entry);
		kvfree(b->cpus);
		memset(b, 0, sizeof(*b));
	}
	audit_pool_size = 0;
}

/*
 * The pool: one buffer per present CPU up to 32 (no search ever waits or
 * goes unjudged there), then one per eight CPUs, at most 64.
 */
static int audit_pool_alloc(void)
{
	unsigned int n = num_present_cpus(), i;

	n = n <= 32 ? n : clamp(n / 8, 32U, (unsigned int)AUDIT_POOL_MAX);
	for (i = 0; i < n; i++) {
		struct audit_scratch *b = &audit_pool[i];

		b->groups = kvcalloc(AUDIT_MAX_GROUPS, sizeof(*b->groups), GFP_KERNEL);
		b->gs = kvcalloc(AUDIT_MAX_GROUPS, sizeof(*b->gs), GFP_KERNEL);
		b->entry_sgc = kvcalloc(AUDIT_MAX_GROUPS, sizeof(*b->entry_sgc), GFP_KERNEL);
		b->entry = kvcalloc(AUDIT_SCRATCH_CPUS, sizeof(*b->entry), GFP_KERNEL);
		b->cpus = kvcalloc(AUDIT_SCRATCH_CPUS, sizeof(*b->cpus), GFP_KERNEL);
		if (!b->groups || !b->gs || !b->entry_sgc || !b->entry || !b->cpus) {
			audit_pool_free();
			return -ENOMEM;
		}
	}
	audit_pool_size = n;
	audit_pool_busy = 0;
	return 0;
}

static int audit_cpu_prepare(unsigned int cpu);
static enum cpuhp_state audit_prepare_state;

static void audit_free(void)
{
	int i;

	if (audit_prepare_state > 0)
		cpuhp_remove_state_nocalls(audit_prepare_state);
	audit_prepare_state = 0;

	for (i = 0; i < AUDIT_NR_SNAPSHOTS; i++) {
		kvfree(audit_snaps[i].cpus);
		kvfree(audit_snaps[i].groups);
		kfree(audit_snaps[i].nr_nodes);
		kfree(audit_snaps[i].nodes);
		audit_snaps[i].cpus = NULL;
		audit_snaps[i].groups = NULL;
		audit_snaps[i].nr_nodes = NULL;
		audit_snaps[i].nodes = NULL;
	}
	kvfree(audit_snap_scratch);
	audit_snap_scratch = NULL;
	audit_pool_free();
	if (audit_pcpu) {
		for_each_possible_cpu(i)
			audit_pcpu_free(audit_pcpu[i]);
		kfree(audit_pcpu);
		audit_pcpu = NULL;
	}
}

static int audit_alloc(void)
{
	int cpu, i;

	audit_size();
	audit_pcpu = kcalloc(nr_cpu_ids, sizeof(*audit_pcpu), GFP_KERNEL);
	audit_snap_scratch = kvmalloc(sizeof(*audit_snap_scratch), GFP_KERNEL);
	if (!audit_pcpu || !audit_snap_scratch || audit_pool_alloc())
		goto out_free;
	/* present CPUs; one that comes up later gets its own (audit_cpu_prepare()) */
	cpus_read_lock();
	for_each_present_cpu(cpu) {
		audit_pcpu[cpu] = audit_pcpu_alloc(cpu);
		if (!audit_pcpu[cpu]) {
			cpus_read_unlock();
			goto out_free;
		}
	}
	i = cpuhp_setup_state_nocalls_cpuslocked(CPUHP_BP_PREPARE_DYN, "sched_shadow/audit:prepare",
						 audit_cpu_prepare, NULL);
	cpus_read_unlock();
	if (i < 0)
		goto out_free;
	audit_prepare_state = i;
	for (i = 0; i < AUDIT_NR_SNAPSHOTS; i++) {
		struct audit_snapshot *sn = &audit_snaps[i];

		seqcount_init(&sn->seq);
		sn->cpus = kvcalloc(AUDIT_SCRATCH_CPUS, sizeof(*sn->cpus), GFP_KERNEL);
		sn->groups = kvcalloc(AUDIT_MAX_GROUPS, sizeof(*sn->groups), GFP_KERNEL);
		sn->nr_nodes = kcalloc(AUDIT_SNAP_TREE_CPUS, sizeof(*sn->nr_nodes), GFP_KERNEL);
		sn->nodes = kcalloc(AUDIT_SNAP_TREE_CPUS, sizeof(*sn->nodes), GFP_KERNEL);
		if (!sn->cpus || !sn->groups || !sn->nr_nodes || !sn->nodes)
			goto out_free;
	}
	return 0;

out_free:
	audit_free();
	return -ENOMEM;
}

/*
 * A CPU about to come up (CPUHP_BP_PREPARE_DYN, process context, before it
 * runs anything): its audit state, if it has none yet.  Out of memory: its
 * balancing is not judged (the handlers find no state), hotplug goes on.
 */
static int audit_cpu_prepare(unsigned int cpu)
{
	struct audit_pcpu *a;

	if (READ_ONCE(audit_pcpu[cpu]))
		return 0;
	a = audit_pcpu_alloc(cpu);
	if (!a) {
		pr_warn("CPU %u comes up without audit state (out of memory): its balancing is not judged\n", cpu);
		return 0;
	}
	/* pairs with the handlers' READ_ONCE(): they see the state initialized */
	smp_store_release(&audit_pcpu[cpu], a);
	return 0;
}

static const char * const audit_att_funcs[] = { KS_FUNCS_lb_attempt NULL };

/*
 * The attempt probes are optional: without them every search is judged on
 * its own (lb_attempts stays empty and `info` says why).  They are
 * registered after the search probe, so a search inside an attempt always
 * finds its attempt state (a search seen first counts as an orphan).
 */
static void audit_attempt_init(void)
{
	int i, err = -ENOENT;

	for (i = 0; audit_att_funcs[i]; i++) {
		audit_att_krp.kp.symbol_name = audit_att_funcs[i];
		audit_att_krp.kp.addr = NULL;
		audit_att_krp.maxactive = 2 * num_possible_cpus();
		err = register_kretprobe(&audit_att_krp);
		if (!err)
			break;
	}
	if (err) {
		snprintf(audit_att_state, sizeof(audit_att_state), "inactive:%s",
			 audit_att_funcs[0] ? "register_kretprobe-failed" :
			 "no-balancing-function-in-BTF");
		pr_warn("load-balancer audit: no attempt probe (%d): verdicts per search only\n", err);
		return;
	}
	/* set only now: a search probe running before this saw no attempt hook */
	if (register_kprobe(&audit_kick_kp))
		pr_warn("load-balancer audit: cannot probe stop_one_cpu_nowait: active column is 0\n");
	else
		audit_kick_registered = true;
	WRITE_ONCE(audit_att_registered, true);
	snprintf(audit_att_state, sizeof(audit_att_state), "active:%s%s", audit_att_funcs[i],
		 audit_kick_registered ? "+stop_one_cpu_nowait" : "");
}

static bool audit_symbol_known(const char *sym)
{
	int i;

	for (i = 0; audit_funcs[i]; i++)
		if (!strcmp(audit_funcs[i], sym))
			return true;
	return false;
}

/**
 * shadow_audit_init() - attach the audit kretprobe
 * @symbol: function to probe (lb_symbol=), or NULL/"" for the first from BTF
 *
 * The audit is optional: every failure leaves it inactive with the reason
 * in `info` and returns 0; only an allocation failure is an error.
 */
int shadow_audit_init(const char *symbol)
{
	int i, err;

	if (symbol && *symbol && !audit_symbol_known(symbol)) {
		snprintf(audit_state, sizeof(audit_state), "inactive:lb_symbol=%.40s-has-no-lb_env-prototype-in-BTF",
			 symbol);
		pr_warn("load-balancer audit off: BTF has no function %s(struct lb_env *) returning struct sched_group *\n",
			symbol);
		return 0;
	}
	if (!audit_funcs[0]) {
		strscpy(audit_state, "inactive:no-busiest-group-function-in-BTF", sizeof(audit_state));
		pr_warn("load-balancer audit off: BTF shows no struct sched_group *f(struct lb_env *)\n");
		return 0;
	}
	audit_rows_init();
	audit_rules_init();
	audit_ranks_init();
	if (audit_ranks_unknown < 0) {
		/* two classes with one value, or one out of range: nothing to compare with */
		snprintf(audit_state, sizeof(audit_state), "inactive:enum-group_type-unmapped");
		pr_warn("load-balancer audit off: BTF's enum group_type cannot be mapped to the model's classes\n");
		return 0;
	}
	err = audit_alloc();
	if (err)
		return err;
	audit_krp.maxactive = 2 * num_possible_cpus();
	for (i = 0; audit_funcs[i]; i++) {
		if (symbol && *symbol && strcmp(audit_funcs[i], symbol))
			continue;
		audit_krp.kp.symbol_name = audit_funcs[i];
		audit_krp.kp.addr = NULL;
		err = register_kretprobe(&audit_krp);
		if (!err) {
			audit_registered = true;
			audit_armed = true;	/* registered probes are armed */
			snprintf(audit_state, sizeof(audit_state), "active:%s", audit_funcs[i]);
			audit_attempt_init();
			/* loaded with enable=0 or lb_audit=0 */
			shadow_audit_arm(static_key_enabled(&shadow_enabled));
			return 0;
		}
	}
	snprintf(audit_state, sizeof(audit_state), "inactive:register_kretprobe-failed:%d", err);
	pr_warn("load-balancer audit off: cannot probe %s (%d)\n",
		audit_krp.kp.symbol_name, err);
	audit_free();
	return 0;
}

/**
 * shadow_audit_arm() - arm or disarm the kretprobe (debugfs `enable`)
 * @on: false: the probe point is left, not even the trampoline runs
 *
 * perf: with enable=0 the return handler returned at once, but
 * every find_busiest_group() call still took the kprobe trap and the
 * return trampoline.  The caller serializes calls (debugfs.c).
 */
static void audit_arm_apply(void);

void shadow_audit_arm(bool on)
{
	mutex_lock(&audit_arm_lock);
	audit_arm_want = on;
	audit_arm_apply();
	mutex_unlock(&audit_arm_lock);
}

/* Arm the probes while both `enable` and lb_audit say so (audit_arm_lock held). */
static void audit_arm_apply(void)
{
	bool on = audit_arm_want && audit_param_on;
	int err;

	if (!audit_registered || on == audit_armed)
		return;
	audit_armed = on;
	err = on ? enable_kretprobe(&audit_krp) : disable_kretprobe(&audit_krp);
	if (err)
		pr_warn("cannot %s the load-balancer audit kretprobe (%d)\n", on ? "arm" : "disarm", err);
	if (audit_att_registered) {
		err = on ? enable_kretprobe(&audit_att_krp) : disable_kretprobe(&audit_att_krp);
		if (err)
			pr_warn("cannot %s the attempt kretprobe (%d)\n", on ? "arm" : "disarm", err);
	}
	if (audit_kick_registered) {
		err = on ? enable_kprobe(&audit_kick_kp) : disable_kprobe(&audit_kick_kp);
		if (err)
			pr_warn("cannot %s the active-balance kprobe (%d)\n", on ? "arm" : "disarm", err);
	}
}

static int audit_param_set(const char *val, const struct kernel_param *kp)
{
	bool v;
	int err = kstrtobool(val, &v);

	if (err)
		return err;
	mutex_lock(&audit_arm_lock);
	audit_param_on = v;
	audit_arm_apply();
	mutex_unlock(&audit_arm_lock);
	return 0;
}

static int audit_param_get(char *buffer, const struct kernel_param *kp)
{
	return scnprintf(buffer, PAGE_SIZE, "%c\n", READ_ONCE(audit_param_on) ? 'Y' : 'N');
}

static const struct kernel_param_ops audit_param_ops = {
	.set = audit_param_set,
	.get = audit_param_get,
};
/*
 * lb_audit=0 (at load or later, /sys/module/sched_shadow/parameters/lb_audit):
 * the audit's probes are disarmed, the rest of the module works on; make
 * bench alternates it to measure what the audit does to newly idle
 * balancing.
 */
module_param_cb(lb_audit, &audit_param_ops, NULL, 0644);
MODULE_PARM_DESC(lb_audit, "arm the load-balancer audit's probes (default 1; 0 disarms them, the module stays)");

/** shadow_audit_exit() - detach (waits for running handlers) and free */
void shadow_audit_exit(void)
{
	int cpu;

	if (audit_kick_registered) {
		unregister_kprobe(&audit_kick_kp);
		audit_kick_registered = false;
	}
	if (audit_att_registered) {
		unregister_kretprobe(&audit_att_krp);
		audit_att_registered = false;
	}
	if (audit_registered) {
		unregister_kretprobe(&audit_krp);
		audit_registered = false;
	}
	if (audit_pcpu)
		for_each_possible_cpu(cpu)
			if (audit_pcpu[cpu])
				irq_work_sync(&audit_pcpu[cpu]->snap_work);
	cancel_work_sync(&audit_snap_work);	/* its copy may still run */
	audit_free();
}

/*
 * Coverage beside every headline: of the idle and newidle attempts, how
 * many were judged and how many void, by void reason; and the scratch
 * sizes chosen at load (a domain past them is not judged).
 */
static void audit_coverage_info(struct seq_file *m, const u64 *voidr, u64 attempts, u64 voids,
				u64 busy)
{
	unsigned int present = 0;
	int cpu, r;

	seq_printf(m, "lb_coverage.attempts %llu\n", attempts);
	seq_printf(m, "lb_coverage.judged %llu\n", attempts - voids);
	seq_printf(m, "lb_coverage.void %llu\n", voids);
	/* searches the pool had no buffer for: not judged, not in attempts */
	seq_printf(m, "lb_coverage.no_scratch %llu\n", busy);
	if (attempts)
		seq_printf(m, "lb_coverage.judged_pct %llu.%llu\n",
			   div64_u64(1000 * (attempts - voids), attempts) / 10,
			   div64_u64(1000 * (attempts - voids), attempts) % 10);
	else
		seq_puts(m, "lb_coverage.judged_pct -\n");
	for (r = 0; r < AUDIT_NR_REASONS; r++)
		if (audit_reason_verdicts[r] & AUDIT_VB(AUDIT_VOID))
			seq_printf(m, "lb_coverage.void.%s %llu\n", audit_reason_name[r],
				   voidr ? voidr[r] : 0);
	if (audit_pcpu)
		for_each_possible_cpu(cpu)
			present += !!READ_ONCE(audit_pcpu[cpu]);
	seq_printf(m, "lb_max_groups %u\n", AUDIT_MAX_GROUPS);
	seq_printf(m, "lb_scratch_cpus %u\n", AUDIT_SCRATCH_CPUS);
	seq_printf(m, "lb_scratch_pool %u\n", audit_pool_size);
	seq_printf(m, "lb_scratch_bytes %zu\n", audit_pool_size * audit_scratch_bytes());
	seq_printf(m, "lb_state_cpus %u\n", present);
	seq_printf(m, "lb_state_bytes_per_cpu %zu\n", audit_pcpu_bytes());
}

/** shadow_audit_info() - the audit's rows of debugfs `info` */
static bool audit_read_counts(int cpu, struct audit_counts *n);

void shadow_audit_info(struct seq_file *m)
{
	u64 bad = 0, local = 0, many = 0, unreadable = 0, cut = 0, skipped = 0, nested = 0;
	u64 orphan = 0, uw = 0, um = 0, unread = 0, no_rq = 0, judged = 0, voids = 0, moved = 0;
	u64 st_in = 0, st_ret = 0, runs = 0, runs_max = 0;
	u64 ns_max[AUDIT_NR_IDLE_TYPES] = { 0 }, ns_sum[AUDIT_NR_IDLE_TYPES] = { 0 };
	u64 ns_n[AUDIT_NR_IDLE_TYPES] = { 0 }, wall[AUDIT_NR_IDLE_TYPES] = { 0 };
	u64 hist[AUDIT_NR_IDLE_TYPES][AUDIT_NS_BUCKETS] = { { 0 } };
	u64 model[ATT_NR_COLS] = { 0 }, known[AUDIT_NR_KNOWN_RULES] = { 0 };
	u64 ev[3][AUDIT_NR_RULES] = { { 0 } }, voidr[AUDIT_NR_REASONS] = { 0 }, scratch_busy = 0;
	struct audit_counts *n;
	bool n_valid;
	int cpu, i, r, k;

	seq_printf(m, "feature.lb_audit %s\n", audit_state);
	/* the probes armed: `enable' 1 and lb_audit=1 */
	seq_printf(m, "lb_audit_armed %d\n", READ_ONCE(audit_armed));
	seq_printf(m, "feature.lb_attempts %s\n", audit_att_state);
	n = audit_registered ? kvmalloc(sizeof(*n), GFP_KERNEL) : NULL;
	n_valid = n;
	if (n) {
		for_each_possible_cpu(cpu) {
			if (!audit_read_counts(cpu, n))
				continue;
			bad += n->bad;
			local += n->picked_local;
			many += n->too_many_groups;
			cut += n->overlap_cut;
			unreadable += n->unreadable;
			skipped += n->att_skipped;
			nested += n->att_nested;
			orphan += n->att_orphan;
			unread += n->entry_unread;
			st_in += n->stale_in;
			st_ret += n->stale_in_ret;
			moved += n->disagree_moved;
			runs += n->explain_runs;
			runs_max = max(runs_max, n->explain_runs_max);
			for (k = 0; k < AUDIT_NR_IDLE_TYPES; k++) {
				ns_max[k] = max(ns_max[k], n->att_ns_max[k]);
				ns_sum[k] += n->att_ns_sum[k];
				ns_n[k] += n->att_ns_n[k];
				wall[k] += n->att_wall_sum[k];
				for (i = 0; i < AUDIT_NS_BUCKETS; i++)
					hist[k][i] += n->att_ns_hist[k][i];
			}
			no_rq += n->no_rq;
			scratch_busy += n->scratch_busy;
			for (k = 0; k < AUDIT_NR_KNOWN_RULES; k++)
				known[k] += n->known[k];
			for (k = 0; k < AUDIT_NR_RULES; k++) {
				ev[0][k] += n->rule_disc[k];
				ev[1][k] += n->rule_in_force[k];
				ev[2][k] += n->rule_flipped[k];
			}
			for (i = 0; i < AUDIT_NR_IDLE_TYPES; i++) {
				uw += n->att[AUDIT_ALL][i][audit_att_row(AUDIT_WRONG,
							AUDIT_R_UNEXPLAINED)][ATT_N];
				um += n->att[AUDIT_ALL][i][audit_att_row(AUDIT_MISSED,
							AUDIT_R_UNEXPLAINED)][ATT_N];
				if (i == AUDIT_CPU_NOT_IDLE)
					continue;
				for (r = 0; r < AUDIT_ATT_ROWS; r++) {
					const u64 *c = n->att[AUDIT_ALL][i][r];

					judged += c[ATT_N];
					if (audit_row_verdict[r] == AUDIT_VOID) {
						voids += c[ATT_N];
						voidr[audit_row_reason[r]] += c[ATT_N];
					}
					for (k = ATT_AGREE; k < ATT_NR_COLS; k++)
						model[k] += c[k];
				}
			}
		}
		kvfree(n);
	}
	/* the headline: wrong and missed attempts the kernel's rules do not explain */
	seq_printf(m, "lb_unexplained_wrong %llu\nlb_unexplained_missed %llu\n", uw, um);
	seq_printf(m, "lb_bad_input %llu\nlb_picked_local %llu\nlb_too_many_groups %llu\n"
		   "lb_overlap_cut %llu\nlb_unreadable_cpu %llu\n", bad, local, many, cut, unreadable);
	seq_printf(m, "lb_attempts_skipped %llu\nlb_attempts_nested %llu\nlb_search_orphan %llu\n",
		   skipped, nested, orphan);
	seq_printf(m, "lb_missed %d\n", audit_registered ? audit_krp.nmissed : 0);
	seq_printf(m, "lb_attempt_missed %d\n", audit_att_registered ? audit_att_krp.nmissed : 0);
	seq_printf(m, "lb_dump_every %lu\n", READ_ONCE(audit_dump_every));
	/* the kernel model against the kernel, over judged attempts (docs: Model and agreement) */
	seq_printf(m, "lb_judged %llu\nlb_void %llu\n", judged, voids);
	audit_coverage_info(m, n_valid ? voidr : NULL, judged, voids, scratch_busy);
	seq_printf(m, "lb_model_agree %llu\nlb_model_disagree %llu\n", model[ATT_AGREE],
		   model[ATT_STALE] + model[ATT_KNOWN] + model[ATT_UNKNOWN]);
	seq_printf(m, "lb_model_disagree_stale %llu\nlb_model_disagree_known %llu\n"
		   "lb_model_disagree_unknown %llu\n", model[ATT_STALE], model[ATT_KNOWN],
		   model[ATT_UNKNOWN]);
	for (k = 1; k < AUDIT_NR_KNOWN_RULES; k++)
		seq_printf(m, "lb_model_known.%s %llu\n", audit_known_name[k], known[k]);
	seq_printf(m, "lb_model_either_picked %llu\nlb_model_either_agree %llu\n",
		   model[ATT_EITHER], model[ATT_EITHER_AGREE]);
	seq_printf(m, "lb_model_entry_unread %llu\nlb_model_no_rq %llu\n", unread, no_rq);
	/*
	 * judged attempts whose inputs moved during the search, those where the
	 * model on the return read agrees, and the disagreements among them
	 * (lb_model_disagree_stale of them are explained by the entry read or
	 * a mix); audit_explain()'s model runs (at most groups + 2 each)
	 */
	seq_printf(m, "lb_model_stale_inputs %llu\nlb_model_stale_inputs_return_agree %llu\n"
		   "lb_model_disagree_moved %llu\n", st_in, st_ret, moved);
	seq_printf(m, "lb_explain_runs %llu\nlb_explain_runs_max %llu\n", runs, runs_max);
	/*
	 * the audit's own time per idle and newly idle attempt (its handlers,
	 * local_clock(); newly idle balancing runs with interrupts off)
	 */
	for (k = 0; k < AUDIT_NR_IDLE_TYPES; k++) {
		if (k == AUDIT_CPU_NOT_IDLE)
			continue;
		seq_printf(m, "lb_audit_ns_max.%s %llu\nlb_audit_ns_mean.%s %llu\n"
			   "lb_audit_attempts_timed.%s %llu\nlb_attempt_ns_mean.%s %llu\n",
			   audit_idle_name[k], ns_max[k],
			   audit_idle_name[k], ns_n[k] ? div64_u64(ns_sum[k], ns_n[k]) : 0,
			   audit_idle_name[k], ns_n[k],
			   audit_idle_name[k], ns_n[k] ? div64_u64(wall[k], ns_n[k]) : 0);
		/* the attempts by the audit's time: < 2^10 ns, < 2^11 ns, ... (the last: the rest) */
		seq_printf(m, "lb_audit_us_hist.%s ", audit_idle_name[k]);
		for (i = 0; i < AUDIT_NS_BUCKETS; i++)
			seq_printf(m, "%s%llu", i ? "," : "", hist[k][i]);
		seq_putc(m, '\n');
	}
	/* CFS bandwidth: which halves of throttled_lb_pair() the work summary follows */
	seq_printf(m, "lb_throttle %s\n", !KS_BANDWIDTH_READABLE ? "unreadable" :
		   KS_TASK_BASED_THROTTLE ? "dst" : "src+dst");
	/* the rule set in force and where each rule came from */
	/* the class ranks the model derived from BTF's enum group_type (-1: absent) */
	seq_puts(m, "lb_group_type ");
	for (k = 0; k < AUDIT_NR_CLASSES; k++)
		seq_printf(m, "%s%s=%d", k ? "," : "", audit_class_name[k], audit_ranks[k]);
	/* enumerators naming a class the model does not know: its groups are misjudged */
	seq_printf(m, "\nlb_group_type_unknown %d\n", audit_ranks_unknown);
	seq_printf(m, "lb_rules 0x%x\n", READ_ONCE(audit_rules));
	for (k = 0; k < AUDIT_NR_RULES; k++)
		seq_printf(m, "lb_rule.%s %s:%s\n", audit_rule_name[k],
			   READ_ONCE(audit_rules) & BIT(k) ? "on" : "off",
			   (audit_rules_on | audit_rules_off) & BIT(k) ? "lb_rules" :
			   audit_rules_learned & BIT(k) ? "learned" : "btf");
	/* the kernel's own outcomes as evidence on each rule: decided:in_force:flipped */
	for (k = 0; k < AUDIT_NR_RULES; k++)
		if (BIT(k) & AUDIT_RULES_FLIPPABLE)
			seq_printf(m, "lb_rule_evidence.%s %llu:%llu:%llu\n", audit_rule_name[k],
				   ev[0][k], ev[1][k], ev[2][k]);
	seq_printf(m, "lb_rules_learn %u\n", audit_learn_n);
	seq_printf(m, "lb_evidence %d\n", READ_ONCE(audit_evidence));
	if (!audit_learn_n)
		seq_puts(m, "lb_calibration off\n");
	else
		seq_printf(m, "lb_calibration %s:%lld/%u\nlb_calibration_agree %lld\n",
			   READ_ONCE(audit_calib_done) ? "done" : "running",
			   (long long)min_t(s64, atomic64_read(&audit_calib_seen), audit_learn_n),
			   audit_learn_n, (long long)atomic64_read(&audit_calib_agree));
	for (k = 0; audit_learn_n && k < AUDIT_NR_RULES; k++)
		if (BIT(k) & AUDIT_RULES_FLIPPABLE)
			seq_printf(m, "lb_rule_calibration.%s %lld:%lld:%lld\n", audit_rule_name[k],
				   (long long)atomic64_read(&audit_calib_ev[0][k]),
				   (long long)atomic64_read(&audit_calib_ev[1][k]),
				   (long long)atomic64_read(&audit_calib_ev[2][k]));
	/* the reason table (core/audit_reasons.h): name and the verdicts that carry it */
	for (i = 0; i < AUDIT_NR_REASONS; i++) {
		int v, sep = 0;

		seq_printf(m, "lb_reason.%s ", audit_reason_name[i]);
		for (v = 0; v < AUDIT_NR_VERDICTS; v++)
			if (audit_reason_verdicts[i] & AUDIT_VB(v))
				seq_printf(m, "%s%s", sep++ ? "," : "", audit_verdict_name[v]);
		seq_putc(m, '\n');
	}
}

/* ---- debugfs ---- */

static bool audit_read_counts(int cpu, struct audit_counts *n)
{
	struct audit_pcpu *a = READ_ONCE(audit_pcpu[cpu]);
	int tries;

	if (!a)
		return false;
	for (tries = 0; tries < 1000; tries++) {
		unsigned int seq = raw_read_seqcount(&a->seq);

		if (seq & 1) {
			cpu_relax();
			continue;
		}
		smp_rmb();
		memcpy(n, &a->n, sizeof(*n));
		if (!read_seqcount_retry(&a->seq, seq)) {
			if (a->gen != (u32)atomic_read(&shadow_reset_gen))
				memset(n, 0, sizeof(*n));
			return true;
		}
	}
	return false;
}

/*
 * Every CPU's counters summed (all of struct audit_counts is u64 counters),
 * for the debugfs readers; NULL when out of memory.  kvfree() the result.
 */
static struct audit_counts *audit_sum_counts(void)
{
	struct audit_counts *sum = kvzalloc(sizeof(*sum), GFP_KERNEL);
	struct audit_counts *one = kvmalloc(sizeof(*one), GFP_KERNEL);
	int cpu;
	size_t k;

	static_assert(sizeof(struct audit_counts) % sizeof(u64) == 0);
	if (!sum || !one) {
		kvfree(sum);
		kvfree(one);
		return NULL;
	}
	for_each_possible_cpu(cpu) {
		u64 *dst = (u64 *)sum, *src = (u64 *)one;

		if (!audit_read_counts(cpu, one))
			continue;
		for (k = 0; k < sizeof(*one) / sizeof(u64); k++)
			dst[k] += src[k];
	}
	kvfree(one);
	return sum;
}

static int audit_lb_show(struct seq_file *m, void *v)
{
	static const int idle_order[] = { AUDIT_CPU_IDLE, AUDIT_CPU_NEWLY_IDLE, AUDIT_CPU_NOT_IDLE };
	struct audit_counts *sum;
	int d, i, r;

	sum = audit_sum_counts();
	if (!sum)
		return -ENOMEM;
	seq_puts(m, "# sched_shadow lb v1\ndomain idle tracker calls right wrong missed none void agree\n");
	for (d = 0; d <= AUDIT_ALL; d++) {
		u64 seen = 0;

		for (i = 0; i < AUDIT_NR_IDLE_TYPES; i++)
			seen |= sum->c[d][i][AUDIT_ROW_ACTUAL][LB_CALLS];
		if (!seen && d != AUDIT_ALL)
			continue;
		for (i = 0; i < ARRAY_SIZE(idle_order); i++) {
			int idle = idle_order[i];

			for (r = 0; r < AUDIT_NR_ROWS; r++) {
				const u64 *c = sum->c[d][idle][r];

				if (idle == AUDIT_CPU_NOT_IDLE && r)
					break;	/* busy calls are counted, not judged */
				seq_printf(m, "%s %s %s %llu", d == AUDIT_ALL ? "all" : audit_domain_names[d],
					   audit_idle_name[idle], r ? audit_tracker_name[r - 1] : "actual",
					   c[LB_CALLS]);
				if (idle == AUDIT_CPU_NOT_IDLE) {
					seq_puts(m, " - - - - - -\n");
					continue;
				}
				seq_printf(m, " %llu %llu %llu %llu %llu", c[LB_RIGHT], c[LB_WRONG],
					   c[LB_MISSED], c[LB_NONE], c[LB_VOID]);
				if (r)
					seq_printf(m, " %llu\n", c[LB_AGREE]);
				else
					seq_puts(m, " -\n");
			}
		}
	}
	kvfree(sum);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(audit_lb);

/*
 * lb_attempts: one row per domain, idle type, verdict and reason seen
 * (the "all" rows always for the judged verdicts), with the attempts'
 * redos, moved tasks and active-balance kicks.
 */
static int audit_attempts_show(struct seq_file *m, void *v)
{
	static const int idle_order[] = { AUDIT_CPU_IDLE, AUDIT_CPU_NEWLY_IDLE, AUDIT_CPU_NOT_IDLE };
	struct audit_counts *sum;
	int d, i, r, k;

	sum = audit_sum_counts();
	if (!sum)
		return -ENOMEM;
	seq_puts(m, "# sched_shadow lb_attempts v1\ndomain idle verdict reason");
	for (i = 0; i < ATT_NR_COLS; i++)
		seq_printf(m, " %s", audit_att_col_name[i]);
	seq_putc(m, '\n');
	for (d = 0; d <= AUDIT_ALL; d++) {
		for (i = 0; i < ARRAY_SIZE(idle_order); i++) {
			int idle = idle_order[i];

			for (r = 0; r < AUDIT_ATT_ROWS; r++) {
				const u64 *c = sum->att[d][idle][r];
				int verdict = audit_row_verdict[r];

				if ((verdict == AUDIT_BUSY) != (idle == AUDIT_CPU_NOT_IDLE))
					continue;
				/* "all" rows of the four judged verdicts' main reasons always show */
				if (!c[ATT_N] && !(d == AUDIT_ALL && (verdict == AUDIT_RIGHT ||
				    verdict == AUDIT_BUSY || verdict == AUDIT_NONE ||
				    audit_row_reason[r] == AUDIT_R_UNEXPLAINED)))
					continue;
				seq_printf(m, "%s %s %s %s",
					   d == AUDIT_ALL ? "all" : audit_domain_names[d],
					   audit_idle_name[idle], audit_verdict_name[verdict],
					   audit_reason_name[audit_row_reason[r]]);
				for (k = 0; k < ATT_NR_COLS; k++) {
					if (verdict == AUDIT_BUSY && k >= ATT_AGREE)
						seq_puts(m, " -");
					else
						seq_printf(m, " %llu", c[k]);
				}
				seq_putc(m, '\n');
			}
		}
	}
	kvfree(sum);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(audit_attempts);

static void audit_snapshot_print(struct seq_file *m, const struct audit_snapshot *sn, char *path)
{
	const struct audit_result *res = &sn->res;
	int g, i, t;

	seq_printf(m, "%llu call time_ms=%llu domain=%s dst_cpu=%d idle=%s verdict=%s reason=%s model=%d trees=%d pick=",
		   sn->nth, sn->time_ns / NSEC_PER_MSEC, audit_domain_names[sn->domain], sn->dst_cpu,
		   audit_idle_name[res->idle_type], audit_verdict_name[res->verdict],
		   audit_reason_name[res->reason], res->model_pick, sn->trees_done);
	seq_printf(m, "%d", res->kernel_pick);
	for (t = 0; t < AUDIT_NR_TRACKERS; t++)
		seq_printf(m, " %s=%d", audit_tracker_name[t], res->pick[t]);
	seq_putc(m, '\n');
	for (g = 0; g < sn->nr_groups; g++) {
		const struct audit_group *gr = &sn->groups[g];
		/* every row the group names lies in the copy (clipped if not) */
		int lo = clamp(gr->first, 0, sn->nr_cpus), hi = clamp(gr->first + gr->nr, lo, sn->nr_cpus);

		seq_printf(m, "%llu group group=%d local=%d cpus=", sn->nth, g, gr->local);
		for (i = lo; i < hi; i++)
			seq_printf(m, "%s%d", i > lo ? "," : "", sn->cpus[i].cpu);
		if (hi == lo)
			seq_putc(m, '-');
		seq_putc(m, '\n');
		for (i = lo; i < hi; i++) {
			const struct audit_cpu *c = &sn->cpus[i];
			u32 k;

			seq_printf(m, "%llu cpu cpu=%d group=%d valid=%d nr_running=%u h_nr_running=%u movable=%u load_avg=%llu runnable_avg=%llu util_avg=%llu weight=%llu capacity=%llu shadow=%llu shadow_avg=%llu\n",
				   sn->nth, c->cpu, g, c->valid, c->nr_running, c->h_nr_running,
				   c->movable, c->load_avg, c->runnable_avg, c->util_avg, c->weight,
				   c->capacity, c->shadow, c->shadow_avg);
			if (i >= AUDIT_SNAP_TREE_CPUS)
				continue;
			for (k = 0; k < sn->nr_nodes[i]; k++) {
				const struct shadow_node *n = &sn->nodes[i][k];
				if (!shadow_cgid_path(n->cgid, path, PATH_MAX))
					strscpy(path, "(removed)", PATH_MAX);
				seq_printf(m, "%llu cfs_rq cpu=%d depth=%u se_weight=%llu cfs_weight=%llu load_avg=%llu shadow=%llu shadow_avg=%llu tasks=%u h_tasks=%u path=",
					   sn->nth, c->cpu, n->depth, n->se_weight, n->cfs_weight,
					   n->load_avg, shadow_fp_round(n->shadow_fp),
					   shadow_fp_round(n->shadow_avg_fp), n->nr_tasks, n->h_tasks);
				seq_escape(m, path, " \t\n\\");
				seq_putc(m, '\n');
			}
		}
	}
}

static int audit_snapshots_show(struct seq_file *m, void *v)
{
	struct audit_snapshot *copy;
	char *path;
	int i, order[AUDIT_NR_SNAPSHOTS], n = 0, j;

	seq_puts(m, "# sched_shadow lb_snapshots v1\nsnap kind fields\n");
	if (!audit_registered)
		return 0;
	copy = kzalloc(sizeof(*copy), GFP_KERNEL);
	path = kmalloc(PATH_MAX, GFP_KERNEL);
	if (copy) {
		copy->cpus = kvcalloc(AUDIT_SCRATCH_CPUS, sizeof(*copy->cpus), GFP_KERNEL);
		copy->groups = kvcalloc(AUDIT_MAX_GROUPS, sizeof(*copy->groups), GFP_KERNEL);
		copy->nr_nodes = kcalloc(AUDIT_SNAP_TREE_CPUS, sizeof(*copy->nr_nodes), GFP_KERNEL);
		copy->nodes = kcalloc(AUDIT_SNAP_TREE_CPUS, sizeof(*copy->nodes), GFP_KERNEL);
	}
	if (!copy || !path || !copy->cpus || !copy->groups || !copy->nr_nodes || !copy->nodes)
		goto out;
	/* oldest first */
	for (i = 0; i < AUDIT_NR_SNAPSHOTS; i++)
		order[n++] = i;
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (audit_snaps[order[j]].nth < audit_snaps[order[i]].nth)
				swap(order[i], order[j]);
	for (i = 0; i < n; i++) {
		struct audit_snapshot *sn = &audit_snaps[order[i]];
		unsigned int seq = raw_read_seqcount(&sn->seq);

		if (seq & 1)
			continue;
		smp_rmb();
		copy->used = sn->used;
		copy->gen = sn->gen;
		copy->nth = sn->nth;
		copy->time_ns = sn->time_ns;
		copy->domain = sn->domain;
		copy->dst_cpu = sn->dst_cpu;
		copy->res = sn->res;
		copy->trees_done = sn->trees_done;
		copy->nr_groups = min_t(int, sn->nr_groups, AUDIT_MAX_GROUPS);
		copy->nr_cpus = min_t(int, sn->nr_cpus, AUDIT_SCRATCH_CPUS);
		memcpy(copy->groups, sn->groups, copy->nr_groups * sizeof(*sn->groups));
		memcpy(copy->cpus, sn->cpus, copy->nr_cpus * sizeof(*sn->cpus));
		memcpy(copy->nr_nodes, sn->nr_nodes, AUDIT_SNAP_TREE_CPUS * sizeof(*sn->nr_nodes));
		memcpy(copy->nodes, sn->nodes, AUDIT_SNAP_TREE_CPUS * sizeof(*sn->nodes));
		if (read_seqcount_retry(&sn->seq, seq) || !copy->used ||
		    copy->gen != READ_ONCE(audit_odd_gen))
			continue;
		audit_snapshot_print(m, copy, path);
	}
out:
	if (copy) {
		kvfree(copy->cpus);
		kvfree(copy->groups);
		kfree(copy->nr_nodes);
		kfree(copy->nodes);
	}
	kfree(copy);
	kfree(path);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(audit_snapshots);

static ssize_t audit_dump_every_read(struct file *file, char __user *ubuf, size_t count,
				     loff_t *ppos)
{
	char buf[24];
	int len = scnprintf(buf, sizeof(buf), "%lu\n", READ_ONCE(audit_dump_every));

	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t audit_dump_every_write(struct file *file, const char __user *ubuf,
				      size_t count, loff_t *ppos)
{
	u64 v;
	int err = shadow_debugfs_write_uint(ubuf, count, AUDIT_DUMP_EVERY_MAX, &v);

	if (err)
		return err;
	WRITE_ONCE(audit_dump_every, v);
	return count;
}

static const struct file_operations audit_dump_every_fops = {
	.owner = THIS_MODULE,
	.read = audit_dump_every_read,
	.write = audit_dump_every_write,
	.llseek = default_llseek,
};

/** shadow_audit_debugfs_init() - lb, lb_snapshots, lb_dump_every (only with an active audit) */
void shadow_audit_debugfs_init(struct dentry *dir)
{
	if (!audit_registered)
		return;
	debugfs_create_file("lb", 0400, dir, NULL, &audit_lb_fops);
	if (audit_att_registered)
		debugfs_create_file("lb_attempts", 0400, dir, NULL, &audit_attempts_fops);
	debugfs_create_file("lb_snapshots", 0400, dir, NULL, &audit_snapshots_fops);
	debugfs_create_file("lb_dump_every", 0600, dir, NULL, &audit_dump_every_fops);
}

/** shadow_audit_reset() - forget snapshots and the wrong/missed count (counters reset by generation) */
void shadow_audit_reset(void)
{
	WRITE_ONCE(audit_odd_gen, READ_ONCE(audit_odd_gen) + 1);
	atomic64_set(&audit_odd, 0);
}
