// SPDX-License-Identifier: GPL-2.0
/*
 * Cgroup id -> path, in two forms.
 *
 * 1. shadow_cgid_path(): at read time (debugfs `groups`, the audit; process
 *    context, may sleep).  The walk records only the cgroup id of each task
 *    group it visits (never a pointer: the group may be gone by the time
 *    debugfs is read).  Reading resolves the id by walking the cpu
 *    controller's hierarchy from its root under RCU and pinning the match
 *    with css_tryget_online(), so a group that is being removed is never
 *    shown.
 *
 *    Why not cgroup_get_from_id(): it is not exported before 5.13-ish
 *    kernels (5.10 lacks it) and it only searches the cgroup v2 hierarchy,
 *    so a v1 "cpu" hierarchy would resolve nothing.
 *    css_next_descendant_pre() is exported on every kernel we support and
 *    walks whichever hierarchy carries "cpu".  Cost: one pass over the cpu
 *    controller's groups per lookup (reads only).
 *
 * 2. shadow_cgpath_lookup(): for the trace events, which format under the
 *    raw rq lock with interrupts off (or under p->pi_lock, see
 *    trace_feed.c).  cgroup_path() takes kernfs_rename_lock, a sleeping
 *    lock on PREEMPT_RT and an invalid wait context under lockdep, so it is
 *    never called there.  Instead a table of (cgroup id, escaped path) is
 *    built in process context (a work item) from one pass over the cpu
 *    controller's hierarchy, and published with RCU; it is never changed
 *    once published, the next refresh replaces it whole.  The probes look
 *    an id up with a bounded linear probe (SHADOW_CGPATH_PROBES slots) and
 *    take no lock.  A miss returns NULL (the event says
 *    SHADOW_CGPATH_UNRESOLVED) and asks for a refresh through an irq_work
 *    (safe under the rq lock: the scheduler queues its own), which queues
 *    the refresh work at most every SHADOW_CGPATH_MIN_MS.  A table is also
 *    built when a trace event gets its first consumer.
 *
 *    Paths are escaped as `groups` escapes them and cut with a marker
 *    (core/escape.h) to the events' SHADOW_PATH_LEN.  What the table does
 *    not see: a cgroup created after the last refresh (until the miss that
 *    refreshes it), a cgroup v1 rename (until the next refresh: v2 has no
 *    rename); more than SHADOW_CGPATH_MAX_ENTRIES groups (the rest miss).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/hash.h>
#include <linux/irq_work.h>
#include <linux/workqueue.h>
#include <linux/jiffies.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/log2.h>
#include <linux/mutex.h>

#include "shadow.h"
#include "cgpath.h"
#include "core/escape.h"

static struct cgroup_subsys_state *shadow_cgpath_root(void);

bool shadow_cgid_path(u64 cgid, char *buf, size_t len)
{
	struct cgroup_subsys_state *root, *pos, *found = NULL;
	bool ok;

	if (!cgid) {
		/* CONFIG_SCHED_AUTOGROUP: a task group without a cgroup. */
		strscpy(buf, "(autogroup)", len);
		return true;
	}
	rcu_read_lock();
	root = task_css(current, cpu_cgrp_id);
	while (root->parent)
		root = root->parent;
	css_for_each_descendant_pre(pos, root) {
		if (cgroup_id(pos->cgroup) != cgid)
			continue;
		if (css_tryget_online(pos))
			found = pos;
		break;
	}
	rcu_read_unlock();
	if (!found)
		return false;
	ok = cgroup_path(found->cgroup, buf, len) > 0;
	css_put(found);
	return ok;
}

/* ---- one id -> path map per read ---- */

/*
 * A reader that needs the paths of many cgroup ids (`groups`: up to
 * SHADOW_MAX_NODES per CPU) marks them wanted, then resolves them all in
 * one pass over the cpu controller's hierarchy: the cost of a read is
 * linear in the cgroups plus the rows, not their product.  Only groups
 * online during the pass resolve (css_tryget_online()), so a group removed
 * before the read began is never named.  Process context; the pass
 * reschedules between groups.
 */
struct shadow_cgmap_slot {
	u64 cgid;		/* 0: empty (autogroup's 0 is answered without a slot) */
	char *path;		/* NULL until resolved */
};

struct shadow_cgmap {
	u32 mask;
	u32 nr;
	u32 cap;
	struct shadow_cgmap_slot slot[];
};

/**
 * shadow_cgmap_alloc() - a map for up to @want wanted ids
 * Return: the map, or NULL without memory.
 */
struct shadow_cgmap *shadow_cgmap_alloc(unsigned int want)
{
	u32 slots = roundup_pow_of_two(2 * max(want, 1u));
	struct shadow_cgmap *m = kvzalloc(struct_size(m, slot, slots), GFP_KERNEL);

	if (m) {
		m->mask = slots - 1;
		m->cap = want;
	}
	return m;
}

static struct shadow_cgmap_slot *shadow_cgmap_slot(struct shadow_cgmap *m, u64 cgid, bool add)
{
	u32 i = hash_64(cgid, 32) & m->mask, n;

	for (n = 0; n <= m->mask; n++, i = (i + 1) & m->mask) {
		if (m->slot[i].cgid == cgid)
			return &m->slot[i];
		if (!m->slot[i].cgid) {
			if (!add || m->nr >= m->cap)
				return NULL;
			m->slot[i].cgid = cgid;
			m->nr++;
			return &m->slot[i];
		}
	}
	return NULL;
}

/** shadow_cgmap_want() - mark @cgid to be resolved (false: the map is full) */
bool shadow_cgmap_want(struct shadow_cgmap *m, u64 cgid)
{
	return !cgid || shadow_cgmap_slot(m, cgid, true);
}

/**
 * shadow_cgmap_resolve() - one pass over the hierarchy: the wanted ids' paths
 * Return: 0, or -ENOMEM (the ids not resolved read as gone).
 */
int shadow_cgmap_resolve(struct shadow_cgmap *m)
{
	struct cgroup_subsys_state *root, *pos, *next;
	u32 left = m->nr;
	char *buf;

	if (!left)
		return 0;
	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	rcu_read_lock();
	root = shadow_cgpath_root();
	for (pos = css_next_descendant_pre(NULL, root); pos && left; pos = next) {
		struct shadow_cgmap_slot *sl = shadow_cgmap_slot(m, cgroup_id(pos->cgroup), false);

		if (!sl || sl->path || !css_tryget_online(pos)) {
			next = css_next_descendant_pre(pos, root);
			continue;
		}
		rcu_read_unlock();
		if (cgroup_path(pos->cgroup, buf, PATH_MAX) > 0)
			sl->path = kstrdup(buf, GFP_KERNEL);
		left--;
		cond_resched();
		rcu_read_lock();
		next = css_next_descendant_pre(pos, root);
		css_put(pos);
	}
	rcu_read_unlock();
	kfree(buf);
	return 0;
}

/** shadow_cgmap_path() - the path of a resolved id, "(autogroup)" for 0, NULL if gone */
const char *shadow_cgmap_path(struct shadow_cgmap *m, u64 cgid)
{
	struct shadow_cgmap_slot *sl;

	if (!cgid)
		return "(autogroup)";
	sl = shadow_cgmap_slot(m, cgid, false);
	return sl ? sl->path : NULL;
}

/** shadow_cgmap_free() - free the map and its paths (NULL is fine) */
void shadow_cgmap_free(struct shadow_cgmap *m)
{
	u32 i;

	if (!m)
		return;
	for (i = 0; i <= m->mask; i++)
		kfree(m->slot[i].path);
	kvfree(m);
}

/* ---- the trace events' cache ---- */

#define SHADOW_CGPATH_PROBES		8	/* slots a lookup looks at, at most */
#define SHADOW_CGPATH_MAX_ENTRIES	16384	/* groups in one table, at most */
#define SHADOW_CGPATH_MIN_MS		20	/* between two refreshes, at least */
#define SHADOW_CGPATH_MAX_GAP_MS	10000	/* the back-off after dropping refreshes, at most */

struct shadow_cgpath_ent {
	u64 cgid;			/* 0: empty slot */
	char path[SHADOW_PATH_LEN];	/* escaped, maybe cut (core/escape.h) */
};

struct shadow_cgpath_table {
	u32 mask;			/* slots - 1 */
	u32 nr;				/* entries */
	u32 dropped;			/* groups that found no slot */
	unsigned long kicked;		/* bit 0: a miss asked for a refresh */
	struct shadow_cgpath_ent ent[];
};

static struct shadow_cgpath_table __rcu *shadow_cgpath_tab;
static DEFINE_PER_CPU(unsigned long, shadow_cgpath_misses);
static unsigned long shadow_cgpath_refreshes;
static unsigned long shadow_cgpath_last;	/* jiffies of the last refresh */
/* between two refreshes: SHADOW_CGPATH_MIN_MS, doubling while tables drop groups */
static u32 shadow_cgpath_gap_ms = SHADOW_CGPATH_MIN_MS;
static bool shadow_cgpath_ready;		/* between start and stop */

static void shadow_cgpath_refresh(struct work_struct *work);
static DECLARE_DELAYED_WORK(shadow_cgpath_work, shadow_cgpath_refresh);

/* Queue a refresh unless stopped (any context: the irq_work runs it in hard IRQ). */
static void shadow_cgpath_queue(void)
{
	unsigned long next = READ_ONCE(shadow_cgpath_last) +
			     msecs_to_jiffies(READ_ONCE(shadow_cgpath_gap_ms));
	unsigned long delay = time_after(next, jiffies) ? next - jiffies : 0;

	if (READ_ONCE(shadow_cgpath_ready))
		schedule_delayed_work(&shadow_cgpath_work, delay);
}

/*
 * Orders shadow_cgpath_want() against shadow_cgpath_stop(): a want either
 * queues before `ready` is cleared (and stop cancels it) or sees it
 * cleared.  The irq_work needs no lock: stop runs after the probes are
 * gone and waits for it (irq_work_sync) before it cancels the work.
 */
static DEFINE_MUTEX(shadow_cgpath_lock);

static void shadow_cgpath_kick_fn(struct irq_work *iw)
{
	shadow_cgpath_queue();
}
static struct irq_work shadow_cgpath_kick;

static inline u32 shadow_cgpath_slot(u64 cgid, u32 mask)
{
	return hash_64(cgid, 32) & mask;
}

/**
 * shadow_cgpath_lookup() - the escaped path of a cgroup id, lock-free
 * @cgid: a cgroup id (not 0)
 *
 * For the probes (preemption disabled, any lock held): takes no lock, looks
 * at SHADOW_CGPATH_PROBES slots at most.  A miss queues a refresh (an
 * irq_work, once per table) and returns NULL: the caller prints
 * SHADOW_CGPATH_UNRESOLVED.
 * Return: the path, valid until the caller enables preemption, or NULL.
 */
const char *shadow_cgpath_lookup(u64 cgid)
{
	struct shadow_cgpath_table *t = rcu_dereference_sched(shadow_cgpath_tab);
	u32 i, n;

	if (likely(t)) {
		for (n = 0, i = shadow_cgpath_slot(cgid, t->mask); n < SHADOW_CGPATH_PROBES;
		     n++, i = (i + 1) & t->mask) {
			u64 c = READ_ONCE(t->ent[i].cgid);

			if (c == cgid)
				return t->ent[i].path;
			if (!c)
				break;
		}
	}
	this_cpu_inc(shadow_cgpath_misses);
	if (!t || !test_and_set_bit(0, &t->kicked))
		irq_work_queue(&shadow_cgpath_kick);
	return NULL;
}

static bool shadow_cgpath_insert(struct shadow_cgpath_table *t, u64 cgid, const char *path)
{
	u32 i, n;

	for (n = 0, i = shadow_cgpath_slot(cgid, t->mask); n < SHADOW_CGPATH_PROBES;
	     n++, i = (i + 1) & t->mask) {
		if (t->ent[i].cgid == cgid)
			return true;
		if (!t->ent[i].cgid) {
			shadow_escape_path(t->ent[i].path, SHADOW_PATH_LEN, path);
			t->ent[i].cgid = cgid;
			t->nr++;
			return true;
		}
	}
	return false;
}

static struct cgroup_subsys_state *shadow_cgpath_root(void)
{
	struct cgroup_subsys_state *root = task_css(current, cpu_cgrp_id);

	while (root->parent)
		root = root->parent;
	return root;
}

/*
 * Build a new table from one pass over the cpu controller's hierarchy and
 * publish it.  The iteration may leave RCU while it holds a reference on
 * the current group (css_next_descendant_pre() allows that), so
 * cgroup_path() runs where it may sleep.
 */
/*
 * One table of at most @cap groups in @slots slots.  Return: the table
 * (NULL without memory); its dropped counts the groups past @cap, *probe
 * those that found no slot within SHADOW_CGPATH_PROBES.
 */
static struct shadow_cgpath_table *shadow_cgpath_build(u32 cap, u32 slots, char *buf, u32 *probe)
{
	struct cgroup_subsys_state *root, *pos, *next;
	struct shadow_cgpath_table *t = kvzalloc(struct_size(t, ent, slots), GFP_KERNEL);

	*probe = 0;
	if (!t)
		return NULL;
	t->mask = slots - 1;
	rcu_read_lock();
	root = shadow_cgpath_root();
	for (pos = css_next_descendant_pre(NULL, root); pos; pos = next) {
		if (t->nr >= cap || !css_tryget(pos)) {
			if (t->nr >= cap)
				t->dropped++;
			next = css_next_descendant_pre(pos, root);
			continue;
		}
		rcu_read_unlock();
		if (cgroup_path(pos->cgroup, buf, PATH_MAX) > 0 &&
		    !shadow_cgpath_insert(t, cgroup_id(pos->cgroup), buf))
			(*probe)++;
		cond_resched();
		rcu_read_lock();
		next = css_next_descendant_pre(pos, root);
		css_put(pos);
	}
	rcu_read_unlock();
	return t;
}

/*
 * Build a new table from one pass over the cpu controller's hierarchy and
 * publish it.  The iteration may leave RCU while it holds a reference on
 * the current group (css_next_descendant_pre() allows that), so
 * cgroup_path() runs where it may sleep.  A table that dropped groups
 * (more than it was sized for, or no free slot near their hash: then the
 * build is repeated with twice the slots, twice at most) keeps asking for
 * refreshes on misses, further and further apart (the gap doubles up to
 * SHADOW_CGPATH_MAX_GAP_MS); only groups past SHADOW_CGPATH_MAX_ENTRIES
 * stop asking.
 */
static void shadow_cgpath_refresh(struct work_struct *work)
{
	struct cgroup_subsys_state *root, *pos;
	struct shadow_cgpath_table *t, *old;
	u32 n = 0, cap, slots, probe, tries;
	char *buf;

	rcu_read_lock();
	root = shadow_cgpath_root();
	css_for_each_descendant_pre(pos, root)
		n++;
	rcu_read_unlock();
	cap = min_t(u32, n + 16 + n / 8, SHADOW_CGPATH_MAX_ENTRIES);	/* room for new ones */
	slots = roundup_pow_of_two(2 * cap);				/* half full at most */
	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!buf)
		goto out_nomem;
	for (tries = 0;; tries++) {
		t = shadow_cgpath_build(cap, slots, buf, &probe);
		if (!t)
			goto out_nomem;
		if (!probe || tries == 2)
			break;
		kvfree(t);
		slots *= 2;
	}
	t->dropped += probe;
	/* past the hard cap nothing better can be built: those misses stop asking */
	if (t->dropped && cap == SHADOW_CGPATH_MAX_ENTRIES && n > cap)
		set_bit(0, &t->kicked);
	WRITE_ONCE(shadow_cgpath_gap_ms, t->dropped ?
		   min_t(u32, 2 * READ_ONCE(shadow_cgpath_gap_ms), SHADOW_CGPATH_MAX_GAP_MS) :
		   SHADOW_CGPATH_MIN_MS);

	old = rcu_replace_pointer(shadow_cgpath_tab, t, true);	/* the work is never concurrent with itself */
	WRITE_ONCE(shadow_cgpath_last, jiffies);
	WRITE_ONCE(shadow_cgpath_refreshes, shadow_cgpath_refreshes + 1);
	if (old) {
		synchronize_rcu();	/* the probes read with preemption disabled */
		kvfree(old);
	}
	kfree(buf);
	return;

out_nomem:
	kfree(buf);
	pr_warn_ratelimited("no memory for the trace events' path cache: paths stay %s\n",
			    SHADOW_CGPATH_UNRESOLVED);
}

/**
 * shadow_cgpath_want() - a trace event got a consumer: build a table soon
 *
 * Called from the events' reg callbacks (trace.h; tracepoint mutex held,
 * process context), also before shadow_cgpath_start() or after
 * shadow_cgpath_stop(), where it does nothing.
 */
void shadow_cgpath_want(void)
{
	mutex_lock(&shadow_cgpath_lock);
	shadow_cgpath_queue();
	mutex_unlock(&shadow_cgpath_lock);
}

/** shadow_cgpath_start() - allow refreshes (module init, before the probes) */
void shadow_cgpath_start(void)
{
	init_irq_work(&shadow_cgpath_kick, shadow_cgpath_kick_fn);
	mutex_lock(&shadow_cgpath_lock);
	WRITE_ONCE(shadow_cgpath_ready, true);
	mutex_unlock(&shadow_cgpath_lock);
}

/** shadow_cgpath_stop() - stop refreshing and free the table (the probes are gone) */
void shadow_cgpath_stop(void)
{
	mutex_lock(&shadow_cgpath_lock);
	WRITE_ONCE(shadow_cgpath_ready, false);
	mutex_unlock(&shadow_cgpath_lock);
	irq_work_sync(&shadow_cgpath_kick);
	cancel_delayed_work_sync(&shadow_cgpath_work);
	synchronize_rcu();
	kvfree(rcu_replace_pointer(shadow_cgpath_tab, NULL, true));
}

/** shadow_cgpath_info() - the cache's state for debugfs `info` */
void shadow_cgpath_info(struct seq_file *m)
{
	struct shadow_cgpath_table *t;
	unsigned long misses = 0;
	u32 nr = 0, slots = 0, dropped = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		misses += per_cpu(shadow_cgpath_misses, cpu);
	rcu_read_lock();
	t = rcu_dereference(shadow_cgpath_tab);
	if (t) {
		nr = t->nr;
		slots = t->mask + 1;
		dropped = t->dropped;
	}
	rcu_read_unlock();
	seq_printf(m, "trace.path_cache.entries %u\n", nr);
	seq_printf(m, "trace.path_cache.slots %u\n", slots);
	seq_printf(m, "trace.path_cache.dropped %u\n", dropped);
	seq_printf(m, "trace.path_cache.gap_ms %u\n", READ_ONCE(shadow_cgpath_gap_ms));
	seq_printf(m, "trace.path_cache.refreshes %lu\n", READ_ONCE(shadow_cgpath_refreshes));
	seq_printf(m, "trace.path_cache.misses %lu\n", misses);
}
