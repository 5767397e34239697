// SPDX-License-Identifier: GPL-2.0
/*
 * Load-balancer audit: a kretprobe on the balancer's busiest-group search
 * (find_busiest_group(), sched_balance_find_src_group() since 6.10) judges
 * every call, the loadable-module version of Tejun Heo's dbg_odd_cnt /
 * dbg_odd_nth debug patch, without matching task names.
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
#include <linux/slab.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>
#include <linux/cpumask.h>
#include <linux/cgroup.h>
#include <linux/sched/idle.h>
#include <linux/timekeeping.h>

#include "kstruct.h"
#include "shadow.h"
#include "audit.h"
#include "stats.h"
#include "trace.h"
#include "core/audit_core.h"
#include "core/parse.h"

static_assert((int)AUDIT_NR_IDLE_TYPES == (int)CPU_MAX_IDLE_TYPES, "enum cpu_idle_type changed");

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

#define AUDIT_MAX_GROUPS	64
#define AUDIT_NR_SNAPSHOTS	4
#define AUDIT_SNAP_TREE_CPUS	32	/* CPUs whose cfs_rq tree a snapshot keeps */
#define AUDIT_SNAP_TREE_NODES	16	/* cfs_rqs kept per CPU in a snapshot */
#define AUDIT_DUMP_EVERY_MAX	1000000000ULL

/* Domain slots: known names, one for anything else, and the total. */
static const char * const audit_domain_names[] = { "SMT", "CLS", "MC", "PKG", "DIE", "NUMA", "other" };
#define AUDIT_NR_DOMAINS	ARRAY_SIZE(audit_domain_names)
#define AUDIT_ALL		AUDIT_NR_DOMAINS

/* Rows: the kernel's actual pick, then each tracker. */
#define AUDIT_ROW_ACTUAL	0
#define AUDIT_NR_ROWS		(1 + AUDIT_NR_TRACKERS)
enum { LB_CALLS, LB_RIGHT, LB_WRONG, LB_MISSED, LB_NONE, LB_AGREE, LB_NR_COLS };

struct audit_counts {
	u64 c[AUDIT_NR_DOMAINS + 1][AUDIT_NR_IDLE_TYPES][AUDIT_NR_ROWS][LB_NR_COLS];
	u64 bad;		/* inputs audit_judge() flagged as inconsistent */
	u64 picked_local;
	u64 too_many_groups;
	u64 unreadable;		/* a CPU's published state could not be read */
};

struct audit_pcpu {
	seqcount_t seq;
	u32 gen;
	struct audit_counts n;
	/* scratch of the return handler (runs with preemption off, never nested) */
	struct audit_group groups[AUDIT_MAX_GROUPS];
	struct shadow_snap snap;
	int nr_cpus;
	struct audit_cpu cpus[];
};

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
	struct audit_result res;
	int nr_groups;
	int nr_cpus;
	struct audit_group groups[AUDIT_MAX_GROUPS];
	struct audit_cpu *cpus;				/* [nr_cpu_ids] */
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

struct audit_ri_data {
	void *env;
};

static int audit_domain_slot(const struct sched_domain *sd)
{
	const char *name = ks_sd_name(sd);
	int i;

	if (!name)
		return AUDIT_NR_DOMAINS - 1;
	for (i = 0; i < AUDIT_NR_DOMAINS - 1; i++)
		if (!strncmp(name, audit_domain_names[i], 8))
			return i;
	return AUDIT_NR_DOMAINS - 1;
}

/* The first CPU of group @g in the result arrays, or -1: how picks are named. */
static int audit_group_cpu(const struct audit_pcpu *a, int g)
{
	if (g < 0 || !a->groups[g].nr)
		return -1;
	return a->cpus[a->groups[g].first].cpu;
}

static void audit_fill_cpu(struct audit_cpu *c, int cpu, u32 *unreadable)
{
	struct shadow_scalars s;

	memset(c, 0, sizeof(*c));
	c->cpu = cpu;
	c->capacity = SCHED_CAPACITY_SCALE;
	if (!shadow_read_scalars(cpu, &s)) {
		(*unreadable)++;
		return;
	}
	if (!s.valid)
		return;
	c->valid = true;
	c->nr_running = s.nr_running;
	c->h_nr_running = s.h_nr_running;
	c->movable = s.movable;
	c->load_avg = s.load_avg;
	c->runnable_avg = s.runnable_avg;
	c->util_avg = s.util_avg;
	c->weight = s.weight;
	c->shadow = shadow_fp_round(s.shadow_fp);
	c->shadow_avg = shadow_fp_round(s.shadow_avg_fp);
	c->capacity = s.capacity ? s.capacity : SCHED_CAPACITY_SCALE;
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

static void audit_snapshot_record(struct audit_pcpu *a, int dom, int dst, u64 nth,
				  const struct audit_result *res, int ng, int nc)
{
	struct audit_snapshot *sn;
	int i, k;

	sn = &audit_snaps[atomic64_inc_return(&audit_snap_next) % AUDIT_NR_SNAPSHOTS];
	if (atomic_cmpxchg_acquire(&sn->busy, 0, 1))
		return;		/* another CPU is writing this slot: drop this one */
	raw_write_seqcount_begin(&sn->seq);
	sn->used = true;
	sn->gen = READ_ONCE(audit_odd_gen);
	sn->nth = nth;
	sn->time_ns = ktime_get_mono_fast_ns();
	sn->domain = dom;
	sn->dst_cpu = dst;
	sn->res = *res;
	sn->nr_groups = ng;
	sn->nr_cpus = nc;
	memcpy(sn->groups, a->groups, ng * sizeof(a->groups[0]));
	memcpy(sn->cpus, a->cpus, nc * sizeof(a->cpus[0]));
	for (i = 0; i < AUDIT_SNAP_TREE_CPUS; i++)
		sn->nr_nodes[i] = 0;
	for (i = 0; i < nc && i < AUDIT_SNAP_TREE_CPUS; i++) {
		if (!shadow_read_cpu(a->cpus[i].cpu, &a->snap) || !a->snap.s.valid)
			continue;
		k = min_t(u32, a->snap.s.nr_nodes, AUDIT_SNAP_TREE_NODES);
		memcpy(sn->nodes[i], a->snap.nodes, k * sizeof(a->snap.nodes[0]));
		sn->nr_nodes[i] = k;
	}
	raw_write_seqcount_end(&sn->seq);
	atomic_set_release(&sn->busy, 0);
}

static void audit_judge_call(struct audit_pcpu *a, void *env, struct sched_group *picked)
{
	struct sched_domain *sd = ks_lb_env_sd(env);
	struct sched_group *sg, *first;
	const struct cpumask *allowed = ks_lb_env_cpus(env);
	int dst = ks_lb_env_dst_cpu(env), idle = audit_idle_type(ks_lb_env_idle(env));
	int ng = 0, nc = 0, kpick = -1, dom, cpu;
	bool too_many = false, bad = false;
	struct audit_result res;
	u32 unreadable = 0, gen;

	if (!sd || !allowed || (unsigned int)dst >= nr_cpu_ids)
		return;
	dom = audit_domain_slot(sd);

	/* describe the domain from published state only */
	first = ks_sd_groups(sd);
	sg = first;
	do {
		struct audit_group *g;

		if (ng >= AUDIT_MAX_GROUPS) {
			too_many = true;
			break;
		}
		g = &a->groups[ng];
		g->first = nc;
		g->nr = 0;
		g->local = cpumask_test_cpu(dst, ks_sg_span(sg));
		for_each_cpu_and(cpu, ks_sg_span(sg), allowed) {
			if (nc >= a->nr_cpus)
				break;	/* overlapping NUMA groups: keep what fits */
			audit_fill_cpu(&a->cpus[nc++], cpu, &unreadable);
			g->nr++;
		}
		if (sg == picked)
			kpick = ng;
		ng++;
		sg = ks_sg_next(sg);
	} while (sg && sg != first);
	if (picked && kpick < 0)
		kpick = ng;	/* not in the domain: audit_judge() flags it */
	if (!too_many) {
		audit_judge(a->groups, ng, a->cpus, nc, idle, kpick, &res);
		bad = res.flags & AUDIT_F_BAD_MASK;
	}

	gen = atomic_read(&shadow_reset_gen);
	raw_write_seqcount_begin(&a->seq);
	if (a->gen != gen) {
		memset(&a->n, 0, sizeof(a->n));
		a->gen = gen;
	}
	a->n.unreadable += unreadable;
	if (too_many) {
		a->n.too_many_groups++;
	} else if (bad) {
		a->n.bad++;
	} else {
		if (res.flags & AUDIT_F_PICKED_LOCAL)
			a->n.picked_local++;
		audit_count(&a->n, dom, &res);
	}
	raw_write_seqcount_end(&a->seq);
	if (too_many || bad)
		return;

	if (trace_lb_verdict_enabled()) {
		int picks[AUDIT_NR_TRACKERS], t;

		for (t = 0; t < AUDIT_NR_TRACKERS; t++)
			picks[t] = audit_group_cpu(a, res.pick[t]);
		trace_lb_verdict(dst, audit_domain_names[dom], res.idle_type, res.verdict,
				 audit_group_cpu(a, res.kernel_pick), picks);
	}
	if (res.verdict == AUDIT_WRONG || res.verdict == AUDIT_MISSED) {
		unsigned long every = READ_ONCE(audit_dump_every);
		u64 nth = atomic64_inc_return(&audit_odd);

		if (every && !(nth % every))
			audit_snapshot_record(a, dom, dst, nth, &res, ng, nc);
	}
}

static int audit_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct audit_ri_data *d = (struct audit_ri_data *)ri->data;
	u64 t0 = shadow_stat_begin(SS_LB_ENTRY);	/* stats (static key) */

	/* the prototype struct sched_group *f(struct lb_env *) is verified from BTF */
	d->env = (void *)regs_get_kernel_argument(regs, 0);
	shadow_stat_end(SS_LB_ENTRY, t0);
	return 0;
}

static int audit_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct audit_ri_data *d = (struct audit_ri_data *)ri->data;
	struct audit_pcpu *a;
	u64 t0;

	if (!static_branch_likely(&shadow_enabled) || !d->env)
		return 0;
	t0 = shadow_stat_begin(SS_LB_RETURN);	/* stats (static key) */
	a = audit_pcpu[smp_processor_id()];
	rcu_read_lock();
	audit_judge_call(a, d->env, (struct sched_group *)regs_return_value(regs));
	rcu_read_unlock();
	shadow_stat_end(SS_LB_RETURN, t0);
	return 0;
}

static struct kretprobe audit_krp = {
	.entry_handler = audit_entry,
	.handler = audit_return,
	.data_size = sizeof(struct audit_ri_data),
};

static const char * const audit_funcs[] = { KS_FUNCS_lb_find_src NULL };

static void audit_free(void)
{
	int i;

	for (i = 0; i < AUDIT_NR_SNAPSHOTS; i++) {
		kfree(audit_snaps[i].cpus);
		kfree(audit_snaps[i].nr_nodes);
		kfree(audit_snaps[i].nodes);
		audit_snaps[i].cpus = NULL;
		audit_snaps[i].nr_nodes = NULL;
		audit_snaps[i].nodes = NULL;
	}
	if (audit_pcpu) {
		for_each_possible_cpu(i)
			kfree(audit_pcpu[i]);
		kfree(audit_pcpu);
		audit_pcpu = NULL;
	}
}

static int audit_alloc(void)
{
	int cpu, i;

	audit_pcpu = kcalloc(nr_cpu_ids, sizeof(*audit_pcpu), GFP_KERNEL);
	if (!audit_pcpu)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct audit_pcpu *a = kzalloc_node(struct_size(a, cpus, nr_cpu_ids), GFP_KERNEL,
						    cpu_to_node(cpu));

		if (!a)
			goto out_free;
		seqcount_init(&a->seq);
		a->nr_cpus = nr_cpu_ids;
		a->gen = atomic_read(&shadow_reset_gen);
		audit_pcpu[cpu] = a;
	}
	for (i = 0; i < AUDIT_NR_SNAPSHOTS; i++) {
		struct audit_snapshot *sn = &audit_snaps[i];

		seqcount_init(&sn->seq);
		sn->cpus = kcalloc(nr_cpu_ids, sizeof(*sn->cpus), GFP_KERNEL);
		sn->nr_nodes = kcalloc(AUDIT_SNAP_TREE_CPUS, sizeof(*sn->nr_nodes), GFP_KERNEL);
		sn->nodes = kcalloc(AUDIT_SNAP_TREE_CPUS, sizeof(*sn->nodes), GFP_KERNEL);
		if (!sn->cpus || !sn->nr_nodes || !sn->nodes)
			goto out_free;
	}
	return 0;

out_free:
	audit_free();
	return -ENOMEM;
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
			if (!static_key_enabled(&shadow_enabled))
				shadow_audit_arm(false);	/* loaded with enable=0 */
			snprintf(audit_state, sizeof(audit_state), "active:%s", audit_funcs[i]);
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
 * perf (issue 6): with enable=0 the return handler returned at once, but
 * every find_busiest_group() call still took the kprobe trap and the
 * return trampoline.  The caller serializes calls (debugfs.c).
 */
void shadow_audit_arm(bool on)
{
	int err;

	if (!audit_registered)
		return;
	err = on ? enable_kretprobe(&audit_krp) : disable_kretprobe(&audit_krp);
	if (err)
		pr_warn("cannot %s the load-balancer audit kretprobe (%d)\n", on ? "arm" : "disarm", err);
}

/** shadow_audit_exit() - detach (waits for running handlers) and free */
void shadow_audit_exit(void)
{
	if (audit_registered) {
		unregister_kretprobe(&audit_krp);
		audit_registered = false;
	}
	audit_free();
}

/** shadow_audit_info() - the audit's rows of debugfs `info` */
static bool audit_read_counts(int cpu, struct audit_counts *n);

void shadow_audit_info(struct seq_file *m)
{
	u64 bad = 0, local = 0, many = 0, unreadable = 0;
	struct audit_counts *n;
	int cpu;

	seq_printf(m, "feature.lb_audit %s\n", audit_state);
	n = audit_registered ? kmalloc(sizeof(*n), GFP_KERNEL) : NULL;
	if (n) {
		for_each_possible_cpu(cpu) {
			if (!audit_read_counts(cpu, n))
				continue;
			bad += n->bad;
			local += n->picked_local;
			many += n->too_many_groups;
			unreadable += n->unreadable;
		}
		kfree(n);
	}
	seq_printf(m, "lb_bad_input %llu\nlb_picked_local %llu\nlb_too_many_groups %llu\n"
		   "lb_unreadable_cpu %llu\n", bad, local, many, unreadable);
	seq_printf(m, "lb_missed %d\n", audit_registered ? audit_krp.nmissed : 0);
	seq_printf(m, "lb_dump_every %lu\n", READ_ONCE(audit_dump_every));
}

/* ---- debugfs ---- */

static bool audit_read_counts(int cpu, struct audit_counts *n)
{
	struct audit_pcpu *a = audit_pcpu[cpu];
	int tries;

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

static int audit_lb_show(struct seq_file *m, void *v)
{
	static const int idle_order[] = { AUDIT_CPU_IDLE, AUDIT_CPU_NEWLY_IDLE, AUDIT_CPU_NOT_IDLE };
	struct audit_counts *sum, *one;
	int cpu, d, i, r, k;

	sum = kzalloc(sizeof(*sum), GFP_KERNEL);
	one = kmalloc(sizeof(*one), GFP_KERNEL);
	if (!sum || !one) {
		kfree(sum);
		kfree(one);
		return -ENOMEM;
	}
	for_each_possible_cpu(cpu) {
		u64 *dst = &sum->c[0][0][0][0], *src = &one->c[0][0][0][0];

		if (!audit_read_counts(cpu, one))
			continue;
		for (k = 0; k < sizeof(one->c) / sizeof(u64); k++)
			dst[k] += src[k];
	}
	seq_puts(m, "# sched_shadow lb v1\ndomain idle tracker calls right wrong missed none agree\n");
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
					seq_puts(m, " - - - - -\n");
					continue;
				}
				seq_printf(m, " %llu %llu %llu %llu", c[LB_RIGHT], c[LB_WRONG],
					   c[LB_MISSED], c[LB_NONE]);
				if (r)
					seq_printf(m, " %llu\n", c[LB_AGREE]);
				else
					seq_puts(m, " -\n");
			}
		}
	}
	kfree(one);
	kfree(sum);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(audit_lb);

static void audit_snapshot_print(struct seq_file *m, const struct audit_snapshot *sn, char *path)
{
	const struct audit_result *res = &sn->res;
	int g, i, t;

	seq_printf(m, "%llu call time_ms=%llu domain=%s dst_cpu=%d idle=%s verdict=%s pick=",
		   sn->nth, sn->time_ns / NSEC_PER_MSEC, audit_domain_names[sn->domain], sn->dst_cpu,
		   audit_idle_name[res->idle_type], audit_verdict_name[res->verdict]);
	seq_printf(m, "%d", res->kernel_pick);
	for (t = 0; t < AUDIT_NR_TRACKERS; t++)
		seq_printf(m, " %s=%d", audit_tracker_name[t], res->pick[t]);
	seq_putc(m, '\n');
	for (g = 0; g < sn->nr_groups; g++) {
		const struct audit_group *gr = &sn->groups[g];

		seq_printf(m, "%llu group group=%d local=%d cpus=", sn->nth, g, gr->local);
		for (i = 0; i < gr->nr; i++)
			seq_printf(m, "%s%d", i ? "," : "", sn->cpus[gr->first + i].cpu);
		if (!gr->nr)
			seq_putc(m, '-');
		seq_putc(m, '\n');
		for (i = gr->first; i < gr->first + gr->nr; i++) {
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
		copy->cpus = kcalloc(nr_cpu_ids, sizeof(*copy->cpus), GFP_KERNEL);
		copy->nr_nodes = kcalloc(AUDIT_SNAP_TREE_CPUS, sizeof(*copy->nr_nodes), GFP_KERNEL);
		copy->nodes = kcalloc(AUDIT_SNAP_TREE_CPUS, sizeof(*copy->nodes), GFP_KERNEL);
	}
	if (!copy || !path || !copy->cpus || !copy->nr_nodes || !copy->nodes)
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
		copy->nr_groups = min(sn->nr_groups, AUDIT_MAX_GROUPS);
		copy->nr_cpus = min_t(int, sn->nr_cpus, nr_cpu_ids);
		memcpy(copy->groups, sn->groups, sizeof(sn->groups));
		memcpy(copy->cpus, sn->cpus, nr_cpu_ids * sizeof(*sn->cpus));
		memcpy(copy->nr_nodes, sn->nr_nodes, AUDIT_SNAP_TREE_CPUS * sizeof(*sn->nr_nodes));
		memcpy(copy->nodes, sn->nodes, AUDIT_SNAP_TREE_CPUS * sizeof(*sn->nodes));
		if (read_seqcount_retry(&sn->seq, seq) || !copy->used ||
		    copy->gen != READ_ONCE(audit_odd_gen))
			continue;
		audit_snapshot_print(m, copy, path);
	}
out:
	if (copy) {
		kfree(copy->cpus);
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
	debugfs_create_file("lb_snapshots", 0400, dir, NULL, &audit_snapshots_fops);
	debugfs_create_file("lb_dump_every", 0600, dir, NULL, &audit_dump_every_fops);
}

/** shadow_audit_reset() - forget snapshots and the wrong/missed count (counters reset by generation) */
void shadow_audit_reset(void)
{
	WRITE_ONCE(audit_odd_gen, READ_ONCE(audit_odd_gen) + 1);
	atomic64_set(&audit_odd, 0);
}
