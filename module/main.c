// SPDX-License-Identifier: GPL-2.0
/*
 * sched_shadow: module init/exit, parameters and the load-time checks.
 *
 * Loading refuses (one log line saying why) when the BTF the module was
 * built from does not describe the running kernel: another release, public
 * struct offsets that disagree with this build's headers, or private
 * fields that do not hold what they should on a live CPU.  Nothing is read
 * through an offset before those checks pass.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/ctype.h>
#include <linux/utsname.h>
#include <linux/workqueue.h>
#include <linux/cpu.h>
#include <linux/cgroup.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "kstruct.h"
#include "shadow.h"
#include "audit.h"
#include "stats.h"
#include "cgpath.h"
#include "trace_feed.h"
#include "walk.h"
#include "wasted.h"

#define SHADOW_BUDGET_MIN	16
/*
 * A walk runs in steps of bounded time (walk.h), but its snapshot of the
 * queued tasks is one atomic copy: the ceiling keeps it small.  Memory per
 * present CPU grows with the budget (`info` state_bytes_per_cpu).
 */
#define SHADOW_BUDGET_MAX	1536
static_assert(SHADOW_BUDGET_MAX <= SHADOW_SNAP_MAX);
static_assert(SHADOW_WALK_BUDGET_DEFAULT <= SHADOW_BUDGET_MAX);

static unsigned int walk_budget = SHADOW_WALK_BUDGET_DEFAULT;
module_param(walk_budget, uint, 0444);
MODULE_PARM_DESC(walk_budget, "max entities (tasks and cgroup levels) one walk may visit, 16..1536 (default 1024)");

/* walk the hierarchy on every event instead of per PELT period / 32 events */
module_param_named(exact, shadow_exact, bool, 0444);
MODULE_PARM_DESC(exact, "walk the whole hierarchy on every enqueue/dequeue (0 or 1, default 0: per PELT period or 32 events; see docs/performance.md)");

/* perf: see shadow_probe_pelt_cfs(); 0 walks on every root PELT update */
static unsigned int pelt_refresh_us = 1000;
module_param(pelt_refresh_us, uint, 0444);
MODULE_PARM_DESC(pelt_refresh_us, "walk from a root PELT update only if the last publish is this much older in PELT time, 0..100000 (default 1000)");

static bool enable = true;
module_param(enable, bool, 0444);
MODULE_PARM_DESC(enable, "start with the probes enabled (default 1; see debugfs `enable`)");

static char *lb_symbol;
module_param(lb_symbol, charp, 0444);
MODULE_PARM_DESC(lb_symbol, "function the load-balancer audit probes; must have the prototype struct sched_group *f(struct lb_env *) in BTF (default: the first known one)");

static char *missing_tp;
module_param(missing_tp, charp, 0444);
MODULE_PARM_DESC(missing_tp, "testing: behave as if this tracepoint did not exist; one of pelt_cfs_tp, pelt_se_tp, sched_update_nr_running_tp, sched_switch (anything else refuses the load)");

unsigned int shadow_checks_passed;

/* missing_tp names a tracepoint shadow.c or trace_feed.c attaches to, nothing else. */
static bool shadow_known_hook(const char *s)
{
	const char *name;
	int i;

	if (shadow_trace_feed_knows(s))
		return true;
	for (i = 0; i < shadow_nr_hooks(); i++) {
		shadow_hook_state(i, &name);
		if (!strcmp(s, name))
			return true;
	}
	return false;
}

/* A kernel symbol name: what kallsyms can hold, nothing that could break a log line. */
static bool shadow_valid_symbol(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 64)
		return n == 0;	/* an empty lb_symbol means "the first known one" */
	for (; *s; s++)
		if (!isalnum(*s) && *s != '_' && *s != '.')
			return false;
	return true;
}

#ifdef SHADOW_BTF_CHECK_BUILD
#define KS_STATIC_CHECK(cond, what) \
	static_assert(cond, "the BTF does not match the kernel headers in KDIR: " what);
KS_LAYOUT_CHECKS(KS_STATIC_CHECK)
#endif

/* Runtime copy of the same checks, for a module built with SHADOW_BTF_CHECK=load. */
const char *kstruct_check_layout(void)
{
#define KS_RUNTIME_CHECK(cond, what) \
	if (!(cond))		     \
		return what;	     \
	shadow_checks_passed++;
	KS_LAYOUT_CHECKS(KS_RUNTIME_CHECK)
#undef KS_RUNTIME_CHECK
	return NULL;
}

/*
 * Checked on the loading CPU and on every other online CPU from a kworker
 * running there: the running task's own cfs_rq, rq and task group must
 * look as the offsets say.
 */
static const char *shadow_check_here(void)
{
	struct task_struct *p = current;
	const char *bad = NULL;
	struct cfs_rq *cfs;
	struct rq *rq;

	preempt_disable();
	rcu_read_lock();
	cfs = p->se.cfs_rq;
	rq = ks_cfs_rq_rq(cfs);
	if (!rq || ks_rq_cpu(rq) != smp_processor_id())
		bad = "cfs_rq.rq / rq.cpu";
	else if (ks_rq_curr(rq) != p)
		bad = "rq.curr";
	else if (ks_cfs_rq_rq(ks_rq_cfs(rq)) != rq)
		bad = "rq.cfs";
	else if (ks_cfs_rq_curr(cfs) != &p->se)
		bad = "cfs_rq.curr";
	else if (ks_rq_nr_running(rq) < 1 || ks_cfs_rq_h_nr_running(ks_rq_cfs(rq)) < 1)
		bad = "rq.nr_running / cfs_rq.h_nr_running";
	else if (!ks_cfs_rq_tg(cfs) || ks_tg_css(ks_cfs_rq_tg(cfs)) != task_css(p, cpu_cgrp_id))
		bad = "cfs_rq.tg / task_group.css";
	else if (!ks_rq_cpu_capacity(rq) || ks_rq_cpu_capacity(rq) > SCHED_CAPACITY_SCALE)
		bad = "rq.cpu_capacity";
	else if (shadow_weight_down(ks_cfs_rq_load(ks_rq_cfs(rq))->weight) < 2)
		bad = "cfs_rq.load";
	rcu_read_unlock();
	preempt_enable();
	return bad;
}

/* The per-CPU checks: one work item per CPU, results read after the wait. */
struct shadow_check_work {
	struct work_struct work;
	int cpu;
	int ran;		/* -1 not yet, 0 passed, 1 failed */
	const char *bad;
};

static struct shadow_check_work *shadow_checks;

static void shadow_check_fn(struct work_struct *work)
{
	struct shadow_check_work *c = container_of(work, struct shadow_check_work, work);

	c->bad = shadow_check_here();
	c->cpu = raw_smp_processor_id();
	/* the waiter reads ran with acquire: bad and cpu are visible with it */
	smp_store_release(&c->ran, c->bad ? 1 : 0);
}

static struct work_struct *shadow_check_item(int cpu)
{
	return &shadow_checks[cpu].work;
}

/*
 * Run the checks on every online CPU without waiting on any one for long:
 * the loading CPU checks itself; the others get a work item and the wait
 * for them is bounded (shadow_wait_cpus()), so a CPU held by a real-time
 * task does not hang the load.  A CPU that did not answer is logged and
 * its check is skipped: the offsets are the kernel's, not the CPU's, and
 * at least the loading CPU has checked them.  Items still queued are
 * cancelled before the load returns.
 */
static int shadow_check_cpus(void)
{
	cpumask_var_t pending;
	const char *bad;
	int cpu, self, err = 0;

	shadow_checks = kcalloc(nr_cpu_ids, sizeof(*shadow_checks), GFP_KERNEL);
	if (!shadow_checks || !zalloc_cpumask_var(&pending, GFP_KERNEL)) {
		kfree(shadow_checks);
		pr_err("not loading: out of memory for the load-time checks\n");
		return -ENOMEM;
	}
	cpus_read_lock();
	self = get_cpu();	/* this CPU checks itself: no kworker round trip */
	bad = shadow_check_here();
	for_each_online_cpu(cpu) {
		if (cpu == self)
			continue;
		INIT_WORK(&shadow_checks[cpu].work, shadow_check_fn);
		shadow_checks[cpu].ran = -1;
		schedule_work_on(cpu, &shadow_checks[cpu].work);
		cpumask_set_cpu(cpu, pending);
	}
	put_cpu();
	cpus_read_unlock();
	if (bad) {
		pr_err("not loading: %s does not match the running kernel on CPU %d (BTF from %s)\n",
		       bad, self, KS_BTF_SOURCE);
		err = -EINVAL;
	} else {
		shadow_checks_passed++;
	}
	shadow_wait_cpus(pending, shadow_check_item, "load-time checks");
	for_each_possible_cpu(cpu) {
		struct shadow_check_work *c = &shadow_checks[cpu];

		if (!c->work.func)
			continue;
		cancel_work_sync(&c->work);	/* a CPU that never answered: not run */
		if (smp_load_acquire(&c->ran) == 1 && !err) {
			pr_err("not loading: %s does not match the running kernel on CPU %d (BTF from %s)\n",
			       c->bad, c->cpu, KS_BTF_SOURCE);
			err = -EINVAL;
		} else if (c->ran == 0) {
			shadow_checks_passed++;
		}
	}
	free_cpumask_var(pending);
	kfree(shadow_checks);
	shadow_checks = NULL;
	return err;
}

static int shadow_check_kernel(void)
{
	const char *bad;

	if (strcmp(init_utsname()->release, KS_BTF_RELEASE)) {
		pr_err("not loading: built from the BTF of kernel %s (%s) but running %s; rebuild with this kernel's BTF\n",
		       KS_BTF_RELEASE, KS_BTF_SOURCE, init_utsname()->release);
		return -EINVAL;
	}
	shadow_checks_passed++;
	bad = kstruct_check_layout();
	if (bad) {
		pr_err("not loading: %s in the BTF (%s) differs from this build's kernel headers\n",
		       bad, KS_BTF_SOURCE);
		return -EINVAL;
	}
	return shadow_check_cpus();
}

static int __init shadow_init(void)
{
	int err;

	if (walk_budget < SHADOW_BUDGET_MIN || walk_budget > SHADOW_BUDGET_MAX) {
		pr_err("not loading: walk_budget=%u is outside %u..%u\n", walk_budget,
		       SHADOW_BUDGET_MIN, SHADOW_BUDGET_MAX);
		return -EINVAL;
	}
	shadow_walk_budget = walk_budget;
	if (missing_tp && *missing_tp) {
		if (!shadow_valid_symbol(missing_tp) || !shadow_known_hook(missing_tp)) {
			pr_err("not loading: missing_tp must be one of pelt_cfs_tp, pelt_se_tp, sched_update_nr_running_tp, sched_switch\n");
			return -EINVAL;
		}
		shadow_missing_tp = missing_tp;
	}
	if (lb_symbol && !shadow_valid_symbol(lb_symbol)) {
		pr_err("not loading: lb_symbol must be a function name (letters, digits, '_', '.', at most 64)\n");
		return -EINVAL;
	}
	if (pelt_refresh_us > 100000) {
		pr_err("not loading: pelt_refresh_us=%u is above 100000\n", pelt_refresh_us);
		return -EINVAL;
	}
	shadow_pelt_refresh_ns = (u64)pelt_refresh_us * NSEC_PER_USEC;

	err = shadow_check_kernel();
	if (err)
		return err;
	err = shadow_state_alloc();
	if (err) {
		pr_err("not loading: out of memory for per-CPU state\n");
		return err;
	}
	if (!enable)
		static_branch_disable(&shadow_enabled);
	err = shadow_stats_init();	/* applies the `stats` parameter (stats.c) */
	if (err) {
		pr_err("not loading: cannot create parameters/stats (%d)\n", err);
		goto out_free_state;
	}
	err = shadow_wasted_init();	/* before the audit, which reports attempts to it */
	if (err) {
		if (err == -ENOMEM)
			pr_err("not loading: out of memory for wasted-core time\n");
		goto out_stats_exit;
	}
	err = shadow_audit_init(lb_symbol);
	if (err) {
		pr_err("not loading: out of memory for the load-balancer audit\n");
		goto out_wasted_exit;
	}
	err = shadow_debugfs_init();
	if (err) {
		pr_err("not loading: cannot create debugfs directory (%d)\n", err);
		goto out_audit_exit;
	}
	shadow_cgpath_start();	/* the trace events' path cache, before the probes */
	err = shadow_probes_register();
	if (err)
		goto out_stop_cgpath;
	err = shadow_trace_feed_start();	/* after shadow.c's probes: see trace_feed.c */
	if (err)
		goto out_unregister;
	if (enable)
		shadow_refresh_all();	/* every online CPU publishes before the first read */
	pr_info("loaded: %u checks passed, BTF of %s\n", shadow_checks_passed, KS_BTF_RELEASE);
	return 0;

out_unregister:
	shadow_probes_unregister();
out_stop_cgpath:
	shadow_cgpath_stop();
	shadow_debugfs_exit();
out_audit_exit:
	shadow_audit_exit();
out_wasted_exit:
	shadow_wasted_exit();
out_stats_exit:
	shadow_stats_exit();
out_free_state:
	shadow_state_free();
	return err;
}

static void __exit shadow_exit(void)
{
	shadow_trace_feed_stop();
	shadow_probes_unregister();
	shadow_cgpath_stop();
	shadow_debugfs_exit();
	shadow_audit_exit();
	shadow_wasted_exit();
	shadow_stats_exit();
	shadow_state_free();
}

module_init(shadow_init);
module_exit(shadow_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Shadow hierarchical runnable load and load-balancer audit for CFS");
MODULE_VERSION(SHADOW_VERSION);
