// SPDX-License-Identifier: GPL-2.0
/*
 * Self-accounting (see stats.h and docs/debugfs.md, "stats"): the
 * out-of-line halves of the hot-path helpers, the `stats` module
 * parameter (a static key, off by default), the debugfs `stats` file and
 * its reset.  A reset does not touch the per-CPU counters (the hot path
 * stays free of generation checks): it records their current sums as a
 * baseline that reads subtract.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/mutex.h>
#include <linux/cpumask.h>
#include <linux/sysfs.h>

#include "stats.h"
#include "core/parse.h"

DEFINE_PER_CPU(struct shadow_stat_pcpu, shadow_stat_pcpu);
DEFINE_STATIC_KEY_FALSE(shadow_stats_on);
DEFINE_STATIC_KEY_FALSE(shadow_stats_every);

static const char * const shadow_stat_names[SS_NR_HOOKS] = {
	[SS_PELT_CFS] = "pelt_cfs_tp",
	[SS_PELT_SE] = "pelt_se_tp",
	[SS_TRACE_CFS] = "pelt_cfs_tp.trace",
	[SS_NR_RUNNING] = "sched_update_nr_running_tp",
	[SS_SWITCH] = "sched_switch",
	[SS_WAKEUP] = "wasted_wakeup",
	[SS_LB_ENTRY] = "lb_entry",
	[SS_LB_RETURN] = "lb_return",
	[SS_LB_ATTEMPT] = "lb_attempt",
	[SS_WASTED_CMT] = "wasted_cmt",
};

static DEFINE_MUTEX(shadow_stats_lock);
static struct shadow_stat_pcpu shadow_stat_base;	/* sums at the last reset */
static unsigned int shadow_stats_param;	/* 0 off, 1 sampled, 2 every call timed */
static bool shadow_stats_ready;	/* module init done: the key may be flipped */

static __always_inline int shadow_stat_bucket(u64 v)
{
	int b = fls64(v);

	return b > SS_HIST - 1 ? SS_HIST - 1 : b;
}

/* A timed call ended: hist bucket i>0 holds [2^(i+6), 2^(i+7)) ns, 0 below 128 ns. */
void __shadow_stat_end(int hook, u64 t0)
{
	u64 d = local_clock() - t0;
	int b = fls64(d) - 7;

	if (b < 0)
		b = 0;
	else if (b > SS_HIST - 1)
		b = SS_HIST - 1;
	this_cpu_inc(shadow_stat_pcpu.hook[hook].sampled);
	this_cpu_add(shadow_stat_pcpu.hook[hook].sum, d);
	this_cpu_inc(shadow_stat_pcpu.hook[hook].hist[b]);
	if (d > __this_cpu_read(shadow_stat_pcpu.hook[hook].max))
		__this_cpu_write(shadow_stat_pcpu.hook[hook].max, d);
}

/* Every walk: bucket i>0 holds [2^(i-1), 2^i) entities, 0 an empty walk. */
void __shadow_stat_walk(unsigned int visited)
{
	int b = shadow_stat_bucket(visited);

	this_cpu_inc(shadow_stat_pcpu.walk.calls);
	this_cpu_inc(shadow_stat_pcpu.walk.sampled);
	this_cpu_add(shadow_stat_pcpu.walk.sum, visited);
	this_cpu_inc(shadow_stat_pcpu.walk.hist[b]);
	if (visited > __this_cpu_read(shadow_stat_pcpu.walk.max))
		__this_cpu_write(shadow_stat_pcpu.walk.max, visited);
}

static void shadow_stat_row_add(struct shadow_stat_row *dst, const struct shadow_stat_row *src)
{
	int i;

	dst->calls += READ_ONCE(src->calls);
	dst->sampled += READ_ONCE(src->sampled);
	dst->sum += READ_ONCE(src->sum);
	dst->max = max(dst->max, READ_ONCE(src->max));
	for (i = 0; i < SS_HIST; i++)
		dst->hist[i] += READ_ONCE(src->hist[i]);
}

static void shadow_stat_sum(struct shadow_stat_pcpu *sum)
{
	int cpu, h;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		const struct shadow_stat_pcpu *p = per_cpu_ptr(&shadow_stat_pcpu, cpu);

		for (h = 0; h < SS_NR_HOOKS; h++)
			shadow_stat_row_add(&sum->hook[h], &p->hook[h]);
		shadow_stat_row_add(&sum->walk, &p->walk);
		sum->pelt_skipped += READ_ONCE(p->pelt_skipped);
		sum->steps += READ_ONCE(p->steps);
	}
}

/*
 * The maxima cannot be subtracted like the counters: a reset clears them
 * on every CPU (a hook call racing the reset may keep its value).
 */
static void shadow_stat_clear_max(void)
{
	int cpu, h;

	for_each_possible_cpu(cpu) {
		struct shadow_stat_pcpu *p = per_cpu_ptr(&shadow_stat_pcpu, cpu);

		for (h = 0; h < SS_NR_HOOKS; h++)
			WRITE_ONCE(p->hook[h].max, 0);
		WRITE_ONCE(p->walk.max, 0);
	}
}

/** shadow_stats_reset() - counters read as zero from now on (debugfs `reset`) */
void shadow_stats_reset(void)
{
	mutex_lock(&shadow_stats_lock);
	shadow_stat_clear_max();
	shadow_stat_sum(&shadow_stat_base);
	mutex_unlock(&shadow_stats_lock);
}

/* One row; a counter below its baseline (a racing reader) reads as 0. */
static void shadow_stat_print(struct seq_file *m, const char *name, const struct shadow_stat_row *r,
			      const struct shadow_stat_row *base, bool time)
{
#define SS_SUB(a, b) ((a) > (b) ? (a) - (b) : 0)
	u64 calls = SS_SUB(r->calls, base->calls);
	u64 sampled = SS_SUB(r->sampled, base->sampled);
	u64 sum = SS_SUB(r->sum, base->sum);
	int i;

	seq_printf(m, "%s %llu %llu", name, calls, sampled);
	if (sampled) {
		u64 mean = div64_u64(sum, sampled);
		/* hooks: estimated total us = mean ns * calls / 1000; walk: entities */
		u64 total = time ? div64_u64(mean * calls, 1000) : sum;

		seq_printf(m, " %llu %llu %llu", mean, total, r->max);
	} else {
		seq_puts(m, " - - -");
	}
	for (i = 0; i < SS_HIST; i++)
		seq_printf(m, " %llu", SS_SUB(r->hist[i], base->hist[i]));
	seq_putc(m, '\n');
#undef SS_SUB
}

/*
 * The floor under every timed call: what two local_clock() calls and the
 * bookkeeping cost on this machine, timed now (64 pairs, interrupts off).
 */
static void shadow_stat_clock_row(struct seq_file *m)
{
	u64 hist[SS_HIST] = { 0 }, sum = 0, t0, d;
	unsigned long flags;
	int i, b;

	local_irq_save(flags);
	for (i = 0; i < 64; i++) {
		t0 = local_clock();
		d = local_clock() - t0;
		sum += d;
		b = fls64(d) - 7;
		hist[b < 0 ? 0 : b > SS_HIST - 1 ? SS_HIST - 1 : b]++;
	}
	local_irq_restore(flags);
	seq_printf(m, "clock_pair 64 64 %llu %llu -", sum / 64, sum / 1000);
	for (i = 0; i < SS_HIST; i++)
		seq_printf(m, " %llu", hist[i]);
	seq_putc(m, '\n');
}

static int shadow_stats_show(struct seq_file *m, void *v)
{
	struct shadow_stat_pcpu *sum;
	int h, i;

	sum = kmalloc(sizeof(*sum), GFP_KERNEL);
	if (!sum)
		return -ENOMEM;
	shadow_stat_sum(sum);
	seq_puts(m, "# sched_shadow stats v2\nname calls sampled mean total max");
	for (i = 0; i < SS_HIST; i++)
		seq_printf(m, " h%d", i);
	seq_putc(m, '\n');
	mutex_lock(&shadow_stats_lock);
	for (h = 0; h < SS_NR_HOOKS; h++)
		shadow_stat_print(m, shadow_stat_names[h], &sum->hook[h], &shadow_stat_base.hook[h],
				  true);
	shadow_stat_print(m, "walk", &sum->walk, &shadow_stat_base.walk, false);
	seq_printf(m, "pelt_skipped %llu 0 - - -", sum->pelt_skipped > shadow_stat_base.pelt_skipped ?
		   sum->pelt_skipped - shadow_stat_base.pelt_skipped : 0);
	for (i = 0; i < SS_HIST; i++)
		seq_puts(m, " 0");
	seq_putc(m, '\n');
	seq_printf(m, "walk_steps %llu 0 - - -", sum->steps > shadow_stat_base.steps ?
		   sum->steps - shadow_stat_base.steps : 0);
	for (i = 0; i < SS_HIST; i++)
		seq_puts(m, " 0");
	seq_putc(m, '\n');
	mutex_unlock(&shadow_stats_lock);
	shadow_stat_clock_row(m);
	kfree(sum);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(shadow_stats);

/** shadow_stats_debugfs_init() - the `stats` file */
void shadow_stats_debugfs_init(struct dentry *dir)
{
	debugfs_create_file("stats", 0400, dir, NULL, &shadow_stats_fops);
}

static void shadow_stats_apply(void)
{
	if (shadow_stats_param == 2)
		static_branch_enable(&shadow_stats_every);
	else
		static_branch_disable(&shadow_stats_every);
	if (shadow_stats_param)
		static_branch_enable(&shadow_stats_on);
	else
		static_branch_disable(&shadow_stats_on);
}

/*
 * The `stats` switch: a load-time parameter (`stats=1`) and the file
 * /sys/module/sched_shadow/parameters/stats (root, 0600).  The file is not
 * the parameter's own: a parameter's set() gets a NUL-terminated string
 * without the write's length, so "1\0" followed by any garbage (a 1 MiB
 * write: sysfs hands over its first page) would read as "1".  The
 * parameter has no file (perm 0); the module adds its own attribute to the
 * "parameters" group, whose store() parses the whole write by its length.
 * Accepted: "0" or "1", optionally followed by one newline; anything else
 * is -EINVAL and changes nothing.
 */
static void shadow_stats_set(unsigned int on)
{
	mutex_lock(&shadow_stats_lock);
	shadow_stats_param = on;
	if (shadow_stats_ready)
		shadow_stats_apply();
	mutex_unlock(&shadow_stats_lock);
}

static int shadow_stats_param_set(const char *val, const struct kernel_param *kp)
{
	u64 v;

	if (!val || !shadow_parse_uint(val, strlen(val), 2, &v))
		return -EINVAL;
	shadow_stats_set(v);
	return 0;
}

static const struct kernel_param_ops shadow_stats_param_ops = {
	.set = shadow_stats_param_set,
};
module_param_cb(stats, &shadow_stats_param_ops, NULL, 0);
MODULE_PARM_DESC(stats, "self-accounting of the hooks in debugfs `stats`: 0 off, 1 one call in 64 timed, 2 every call timed (default 0; writable at /sys/module/sched_shadow/parameters/stats)");

static ssize_t shadow_stats_attr_show(char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(shadow_stats_param));
}

static ssize_t shadow_stats_attr_store(const char *buf, size_t count)
{
	u64 v;

	if (!shadow_parse_uint(buf, count, 2, &v))
		return -EINVAL;
	shadow_stats_set(v);
	return count;
}

/*
 * struct module_attribute's callbacks take a const first argument since
 * 6.14: both forms are here, the compiler picks the one the kernel's
 * struct declares (no version check).
 */
static ssize_t __maybe_unused shadow_stats_show_nc(struct module_attribute *a,
						   struct module_kobject *mk, char *buf)
{
	return shadow_stats_attr_show(buf);
}

static ssize_t __maybe_unused shadow_stats_show_c(const struct module_attribute *a,
						  struct module_kobject *mk, char *buf)
{
	return shadow_stats_attr_show(buf);
}

static ssize_t __maybe_unused shadow_stats_store_nc(struct module_attribute *a,
						    struct module_kobject *mk,
						    const char *buf, size_t count)
{
	return shadow_stats_attr_store(buf, count);
}

static ssize_t __maybe_unused shadow_stats_store_c(const struct module_attribute *a,
						   struct module_kobject *mk,
						   const char *buf, size_t count)
{
	return shadow_stats_attr_store(buf, count);
}

#define SHADOW_MATTR_CB(field, nc, c)							\
	__builtin_choose_expr(__builtin_types_compatible_p(				\
		typeof(((struct module_attribute *)NULL)->field), typeof(&(nc))), &(nc), &(c))

static struct module_attribute shadow_stats_mattr = {
	.attr = { .name = "stats", .mode = 0600 },
	.show = SHADOW_MATTR_CB(show, shadow_stats_show_nc, shadow_stats_show_c),
	.store = SHADOW_MATTR_CB(store, shadow_stats_store_nc, shadow_stats_store_c),
};

static struct attribute *shadow_stats_attrs[] = { &shadow_stats_mattr.attr, NULL };

static const struct attribute_group shadow_stats_group = {
	.name = "parameters",
	.attrs = shadow_stats_attrs,
};

/**
 * shadow_stats_init() - apply the load-time `stats` parameter, add its file
 *
 * Return: 0 or the error of adding parameters/stats (the load is refused).
 */
int shadow_stats_init(void)
{
	int err = sysfs_merge_group(&THIS_MODULE->mkobj.kobj, &shadow_stats_group);

	if (err)
		return err;
	mutex_lock(&shadow_stats_lock);
	shadow_stats_ready = true;
	shadow_stats_apply();
	mutex_unlock(&shadow_stats_lock);
	return 0;
}

/** shadow_stats_exit() - remove parameters/stats (the reverse of shadow_stats_init()) */
void shadow_stats_exit(void)
{
	sysfs_unmerge_group(&THIS_MODULE->mkobj.kobj, &shadow_stats_group);
}
