// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs interface: /sys/kernel/debug/sched_shadow/{info,cpus,groups,stats,
 * reset,enable}.  Formats are specified in docs/debugfs.md: a version line,
 * one header row, whitespace-separated rows, no kernel addresses.  Files
 * are root-only; writes accept documented input only, anything else gets
 * -EINVAL and changes nothing.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/utsname.h>
#include <linux/cgroup.h>
#include <linux/cpumask.h>
#include <linux/mutex.h>

#include "kstruct.h"
#include "shadow.h"
#include "core/parse.h"
#include "dbgfs_input.h"
#include "audit.h"
#include "stats.h"
#include "cgpath.h"
#include "walk.h"
#include "trace_feed.h"
#include "waiters.h"
#include "wasted.h"

static struct dentry *shadow_dir;

/* Fresh CPUs whose last walk found more queued cfs_rqs than `groups` holds. */
static unsigned int shadow_groups_truncated(void)
{
	struct shadow_scalars s;
	unsigned int n = 0;
	int cpu;

	for_each_online_cpu(cpu)
		if (shadow_read_scalars(cpu, &s) && s.valid && s.void_reason == SHADOW_FRESH &&
		    s.truncated)
			n++;
	return n;
}

static int shadow_info_show(struct seq_file *m, void *v)
{
	const char *name, *state;
	int i;

	seq_puts(m, "# sched_shadow info v1\nkey value\n");
	seq_printf(m, "version %s\n", SHADOW_VERSION);
	seq_printf(m, "kernel %s\n", init_utsname()->release);
	seq_printf(m, "btf_release %s\n", KS_BTF_RELEASE);
	seq_puts(m, "btf_source ");
	seq_escape(m, KS_BTF_SOURCE, " \t\n\\");
	seq_putc(m, '\n');
	seq_printf(m, "checks passed:%u\n", shadow_checks_passed);
	seq_printf(m, "walk_budget %u\n", READ_ONCE(shadow_walk_budget));
	seq_printf(m, "exact %d\n", READ_ONCE(shadow_exact) ? 1 : 0);
	seq_printf(m, "max_groups %u\n", SHADOW_MAX_NODES);
	/* the per-event waiter summary's limits (waiters.c, core/work.h) */
	seq_printf(m, "waiters.scan_cap %u\n", SHADOW_SCAN_CAP);
	seq_printf(m, "waiters.masks %u\n", SHADOW_WORK_RESTRICTED);
	seq_printf(m, "waiters.mask_cpus %u\n", SHADOW_WORK_MASK_BITS);
	seq_printf(m, "groups_truncated %u\n", shadow_groups_truncated());
	seq_printf(m, "enabled %d\n", static_key_enabled(&shadow_enabled) ? 1 : 0);
	for (i = 0; i < shadow_nr_hooks(); i++) {
		state = shadow_hook_state(i, &name);
		seq_printf(m, "hook.%s %s\n", name, state);
	}
	shadow_trace_feed_info(m);
	seq_printf(m, "feature.shadow %s\n",
		   READ_ONCE(shadow_layout_bad) ? "inactive:layout-not-understood" : "active");
	seq_puts(m, "feature.trace_events active\n");
	shadow_cgpath_info(m);
	/* what differs between kernels, as the BTF described it at build time */
	seq_printf(m, "btf.cfs_rq.h_nr_running %s\n", KS_cfs_rq__h_nr_running_NAME);
	seq_printf(m, "btf.sched_entity.sched_delayed %s\n",
		   HAS_KS_sched_entity__sched_delayed ? "present" : "absent");
	seq_printf(m, "btf.sched_switch.args %d\n", KS_NARGS_btf_trace_sched_switch);
	seq_printf(m, "btf.cfs_rq.h_curr %s\n", KS_FLAT_RUNQUEUE ? "present" : "absent");
	seq_printf(m, "layout %s%s\n", shadow_walk_layout(),
		   READ_ONCE(shadow_layout_bad) ? ":not-understood" : "");
	seq_puts(m, "walk snapshot:climb-parents\n");
	seq_printf(m, "walk_step_ns %u\n", SHADOW_STEP_NS);
	seq_printf(m, "walk_max_cfs_rqs %u\n", READ_ONCE(shadow_walk_budget) / 2 + 1);
	shadow_state_info(m);
	shadow_audit_info(m);
	shadow_wasted_info(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(shadow_info);

static void shadow_print_u64_or_dash(struct seq_file *m, bool ok, u64 v)
{
	if (ok)
		seq_printf(m, " %llu", v);
	else
		seq_puts(m, " -");
}

/*
 * The CPUs a recorded waiter could go to: "all" with a waiter every online
 * CPU may take, "-" with none, else the union of the recorded masks as a
 * CPU list.  Waiters past the recorded ones are the `unknown` column.
 * @u: a bitmap of nr_cpu_ids bits, scratch.
 */
static void shadow_print_work_cpus(struct seq_file *m, bool ok, const struct shadow_work *w,
				   unsigned long *u)
{
	unsigned int i, k, n = min_t(unsigned int, w->nr_restricted, SHADOW_WORK_RESTRICTED), used = 0;

	for (i = 0; i < n; i++)
		used += !!w->rcount[i];
	if (!ok || (!w->any && !used)) {
		seq_puts(m, " -");
		return;
	}
	if (w->any) {
		seq_puts(m, " all");
		return;
	}
	bitmap_zero(u, nr_cpu_ids);
	for (i = 0; i < n; i++)
		for (k = 0; w->rcount[i] && k < SHADOW_WORK_MASK_WORDS; k++) {
			u64 word = w->restricted[i][k];
			unsigned int cpu0 = (w->base[i] + k) * 64;

			while (word) {
				unsigned int b = __ffs64(word);

				if (cpu0 + b < nr_cpu_ids)
					__set_bit(cpu0 + b, u);
				word &= word - 1;
			}
		}
	seq_printf(m, " %*pbl", nr_cpu_ids, u);
}

/*
 * debugfs readers run in process context and may wait: a CPU whose writer
 * is in the middle of a publication (a vCPU descheduled by the host under
 * emulation can stay there for milliseconds) is retried for up to ~10 ms
 * before the row says it could not be read.  The hot path's own readers
 * stay bounded by the shadow_read_* functions' retry limit.
 */
#define SHADOW_DEBUGFS_READ_ROUNDS	100

static bool shadow_read_stats_wait(int cpu, struct shadow_scalars *s, struct shadow_stats *st)
{
	int i;

	for (i = 0; i < SHADOW_DEBUGFS_READ_ROUNDS; i++) {
		if (shadow_read_stats(cpu, s, st))
			return true;
		usleep_range(50, 100);
	}
	return false;
}

static bool shadow_read_cpu_wait(int cpu, struct shadow_snap *snap)
{
	int i;

	for (i = 0; i < SHADOW_DEBUGFS_READ_ROUNDS; i++) {
		if (shadow_read_cpu(cpu, snap))
			return true;
		usleep_range(50, 100);
	}
	return false;
}

static int shadow_cpus_show(struct seq_file *m, void *v)
{
	struct shadow_stats *st;
	unsigned long *u;
	struct shadow_scalars s;
	int cpu;

	st = kmalloc(sizeof(*st), GFP_KERNEL);
	u = bitmap_zalloc(nr_cpu_ids, GFP_KERNEL);
	if (!st || !u) {
		kfree(st);
		bitmap_free(u);
		return -ENOMEM;
	}
	seq_puts(m, "# sched_shadow cpus v1\n"
		 "cpu online nr_running h_nr_running movable load_avg runnable_avg util_avg "
		 "weight capacity shadow shadow_avg shadow_fresh h_load samples div_mean div_max "
		 "shadow_mean real_mean fresh_mean h_load_mean published discarded over_budget "
		 "deferred pinned unknown work_cpus void\n");
	for_each_possible_cpu(cpu) {
		struct shadow_divmeans dm;
		bool online = cpu_online(cpu);
		bool ok = shadow_read_stats_wait(cpu, &s, st);
		bool live = ok && online && s.valid;

		cond_resched();		/* one row per possible CPU: thousands on big machines */
		if (!ok)
			memset(st, 0, sizeof(*st));

		seq_printf(m, "%d %d", cpu, online ? 1 : 0);
		shadow_print_u64_or_dash(m, live, s.nr_running);
		shadow_print_u64_or_dash(m, live, s.h_nr_running);
		shadow_print_u64_or_dash(m, live, s.movable);
		shadow_print_u64_or_dash(m, live, s.load_avg);
		shadow_print_u64_or_dash(m, live, s.runnable_avg);
		shadow_print_u64_or_dash(m, live, s.util_avg);
		shadow_print_u64_or_dash(m, live, s.weight);
		shadow_print_u64_or_dash(m, live, s.capacity);
		shadow_print_u64_or_dash(m, live, shadow_fp_round(s.shadow_fp));
		shadow_print_u64_or_dash(m, live, shadow_fp_round(s.shadow_avg_fp));
		shadow_print_u64_or_dash(m, live, shadow_fp_round(s.shadow_fresh_fp));
		shadow_print_u64_or_dash(m, live, s.h_load);
		shadow_divstat_means(&st->div, &dm);
		ok = ok && st->div.samples;
		shadow_print_u64_or_dash(m, true, ok ? st->div.samples : 0);
		shadow_print_u64_or_dash(m, ok, dm.absdiff);
		shadow_print_u64_or_dash(m, ok, st->div.max_absdiff);
		shadow_print_u64_or_dash(m, ok, dm.shadow);
		shadow_print_u64_or_dash(m, ok, dm.real);
		shadow_print_u64_or_dash(m, ok, dm.fresh);
		shadow_print_u64_or_dash(m, ok, dm.h_load);
		seq_printf(m, " %llu %llu %llu %llu", st->published, st->discarded,
			   st->over_budget, st->deferred);
		shadow_print_u64_or_dash(m, live, s.work.pinned);
		shadow_print_u64_or_dash(m, live, s.work.unknown);
		shadow_print_work_cpus(m, live, &s.work, u);
		seq_printf(m, " %s\n", shadow_void_name(online ? s.void_reason : SHADOW_VOID_HOTPLUG));
	}
	bitmap_free(u);
	kfree(st);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(shadow_cpus);

/*
 * `groups`: one read session (open to release) resolves the cgroup paths
 * it needs in one pass over the hierarchy (cgpath.c, shadow_cgmap), then
 * prints one CPU per seq_file record, so a big output that overflows the
 * seq_file buffer repeats one CPU's rows, not the whole file.
 */
struct shadow_groups_iter {
	struct shadow_cgmap *map;
	struct shadow_snap *snap;	/* [nr_cpu_ids]: each online CPU's, read once at open */
	unsigned long *fresh;		/* CPUs whose snap is fresh */
};

/*
 * Only a CPU whose state is fresh (cpus `void` is `fresh`): after a failed
 * walk, enable 0, reset or hotplug the last walk's rows are older than the
 * CPU, and no row beats a silently stale one.  cpus says why.
 */
static bool shadow_groups_read(int cpu, struct shadow_snap *snap)
{
	return shadow_read_cpu_wait(cpu, snap) && snap->s.valid &&
	       snap->s.void_reason == SHADOW_FRESH;
}

/*
 * Positions: 0 is the header, cpu + 1 a CPU's rows.  The record pointer is
 * cpu + 2: SEQ_START_TOKEN is (void *)1.
 */
#define SHADOW_GROUPS_REC(cpu)	((void *)(long)((cpu) + 2))
#define SHADOW_GROUPS_CPU(v)	((int)((long)(v) - 2))

static void *shadow_groups_start(struct seq_file *m, loff_t *pos)
{
	int cpu;

	if (*pos == 0)
		return SEQ_START_TOKEN;
	cpu = cpumask_next(*pos - 2, cpu_online_mask);
	if (cpu >= nr_cpu_ids)
		return NULL;
	*pos = cpu + 1;
	return SHADOW_GROUPS_REC(cpu);
}

static void *shadow_groups_next(struct seq_file *m, void *v, loff_t *pos)
{
	int cpu = cpumask_next(*pos - 1, cpu_online_mask);

	if (cpu >= nr_cpu_ids) {
		*pos = nr_cpu_ids + 1;
		return NULL;
	}
	*pos = cpu + 1;
	return SHADOW_GROUPS_REC(cpu);
}

static void shadow_groups_stop(struct seq_file *m, void *v)
{
}

static int shadow_groups_show(struct seq_file *m, void *v)
{
	struct shadow_groups_iter *it = m->private;
	int cpu;
	u32 i;

	if (v == SEQ_START_TOKEN) {
		seq_puts(m, "# sched_shadow groups v1\n"
			 "cpu cgid depth se_weight cfs_weight load_avg runnable_avg util_avg "
			 "task_load nr_tasks h_tasks shadow shadow_avg shadow_fresh h_load path\n");
		return 0;
	}
	cpu = SHADOW_GROUPS_CPU(v);
	if (!test_bit(cpu, it->fresh))
		return 0;
	for (i = 0; i < it->snap[cpu].s.nr_nodes; i++) {
		const struct shadow_node *n = &it->snap[cpu].nodes[i];
		const char *path = shadow_cgmap_path(it->map, n->cgid);

		if (!path)	/* gone before the open resolved it */
			continue;
		seq_printf(m, "%d %llu %u ", cpu, n->cgid, n->depth);
		if (n->depth)
			seq_printf(m, "%llu", n->se_weight);
		else
			seq_putc(m, '-');
		seq_printf(m, " %llu %llu %llu %llu %llu %u %u %llu %llu %llu %llu ",
			   n->cfs_weight, n->load_avg, n->runnable_avg, n->util_avg,
			   n->task_load, n->nr_tasks, n->h_tasks,
			   shadow_fp_round(n->shadow_fp), shadow_fp_round(n->shadow_avg_fp),
			   shadow_fp_round(n->shadow_fresh_fp), n->h_load);
		seq_escape(m, path, " \t\n\\");
		seq_putc(m, '\n');
	}
	return 0;
}

static const struct seq_operations shadow_groups_sops = {
	.start = shadow_groups_start,
	.next = shadow_groups_next,
	.stop = shadow_groups_stop,
	.show = shadow_groups_show,
};

static void shadow_groups_free(struct shadow_groups_iter *it)
{
	shadow_cgmap_free(it->map);
	kvfree(it->snap);
	bitmap_free(it->fresh);
}

/*
 * One read session: every online CPU's published state is copied once,
 * here (so the rows of all CPUs are from one short moment, close to a
 * `cpus` read made just before), the paths of their groups resolved in
 * one pass, and the records print from the copies.
 */
static int shadow_groups_open(struct inode *inode, struct file *file)
{
	struct shadow_groups_iter *it;
	int cpu, err = -ENOMEM;
	u32 i;

	it = __seq_open_private(file, &shadow_groups_sops, sizeof(*it));
	if (!it)
		return -ENOMEM;
	it->map = shadow_cgmap_alloc(num_online_cpus() * SHADOW_MAX_NODES);
	it->snap = kvmalloc_array(nr_cpu_ids, sizeof(*it->snap), GFP_KERNEL);
	it->fresh = bitmap_zalloc(nr_cpu_ids, GFP_KERNEL);
	if (!it->map || !it->snap || !it->fresh)
		goto out;
	for_each_online_cpu(cpu) {
		if (!shadow_groups_read(cpu, &it->snap[cpu]))
			continue;
		__set_bit(cpu, it->fresh);
		for (i = 0; i < it->snap[cpu].s.nr_nodes; i++)
			shadow_cgmap_want(it->map, it->snap[cpu].nodes[i].cgid);
		cond_resched();
	}
	err = shadow_cgmap_resolve(it->map);
	if (!err)
		return 0;
out:
	shadow_groups_free(it);
	seq_release_private(inode, file);
	return err;
}

static int shadow_groups_release(struct inode *inode, struct file *file)
{
	shadow_groups_free(((struct seq_file *)file->private_data)->private);
	return seq_release_private(inode, file);
}

static const struct file_operations shadow_groups_fops = {
	.owner = THIS_MODULE,
	.open = shadow_groups_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = shadow_groups_release,
};

static ssize_t shadow_reset_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	u64 v;
	int err = shadow_debugfs_write_uint(ubuf, count, 1, &v);

	if (err)
		return err;
	if (v != 1)
		return -EINVAL;
	shadow_reset();
	shadow_audit_reset();
	shadow_stats_reset();	/* stats: baseline, see stats.c */
	if (static_key_enabled(&shadow_enabled))
		shadow_refresh_all();	/* idle CPUs publish now, not at their next event */
	return count;
}

static const struct file_operations shadow_reset_fops = {
	.owner = THIS_MODULE,
	.write = shadow_reset_write,
	.llseek = noop_llseek,
};

static ssize_t shadow_enable_read(struct file *file, char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	char buf[3] = { static_key_enabled(&shadow_enabled) ? '1' : '0', '\n', 0 };

	return simple_read_from_buffer(ubuf, count, ppos, buf, 2);
}

static ssize_t shadow_enable_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	static DEFINE_MUTEX(lock);	/* key and kretprobe change together */
	u64 v;
	int err = shadow_debugfs_write_uint(ubuf, count, 1, &v);

	if (err)
		return err;
	mutex_lock(&lock);
	if (v) {
		shadow_enable_changed();	/* void until each CPU's next walk */
		shadow_audit_arm(true);
		static_branch_enable(&shadow_enabled);
		shadow_refresh_all();	/* idle CPUs publish now, not at their next event */
	} else {
		static_branch_disable(&shadow_enabled);
		shadow_audit_arm(false);	/* perf: no trap, no trampoline */
		shadow_enable_changed();
	}
	mutex_unlock(&lock);
	return count;
}

static const struct file_operations shadow_enable_fops = {
	.owner = THIS_MODULE,
	.read = shadow_enable_read,
	.write = shadow_enable_write,
	.llseek = default_llseek,
};

/** shadow_debugfs_init() - create the directory and files (return values ignored by design) */
int shadow_debugfs_init(void)
{
	shadow_dir = debugfs_create_dir("sched_shadow", NULL);
	if (IS_ERR(shadow_dir))
		return PTR_ERR(shadow_dir);
	debugfs_create_file("info", 0400, shadow_dir, NULL, &shadow_info_fops);
	debugfs_create_file("cpus", 0400, shadow_dir, NULL, &shadow_cpus_fops);
	debugfs_create_file("groups", 0400, shadow_dir, NULL, &shadow_groups_fops);
	debugfs_create_file("reset", 0200, shadow_dir, NULL, &shadow_reset_fops);
	debugfs_create_file("enable", 0600, shadow_dir, NULL, &shadow_enable_fops);
	shadow_stats_debugfs_init(shadow_dir);
	shadow_audit_debugfs_init(shadow_dir);
	shadow_wasted_debugfs_init(shadow_dir);
	return 0;
}

/** shadow_debugfs_exit() - remove everything; waits for readers in progress */
void shadow_debugfs_exit(void)
{
	debugfs_remove(shadow_dir);
	shadow_dir = NULL;
}
