// SPDX-License-Identifier: GPL-2.0
/*
 * btfgen: resolve the kernel structure fields listed in a manifest
 * (module/kstruct.fields) against a kernel's BTF and write a C header of
 * offsets, sizes and HAS_* feature macros for the sched_shadow module.
 *
 * The module never hard-codes an offset of a private scheduler structure:
 * everything it reads comes from this header, generated from the BTF of the
 * kernel it is built for (/sys/kernel/btf/vmlinux, or a vmlinux ELF / raw BTF
 * file given with --btf).  A required field the BTF does not describe stops
 * the build here, with a message naming the field.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <bpf/btf.h>

#define SYSFS_BTF "/sys/kernel/btf/vmlinux"
#define MAX_WORDS 32

struct field_hit {
	long long bit_off;
	long long size;
	int bitfield;
	int ptrs;		/* pointer levels of the field's type (struct x ** = 2) */
};

static const char *prog = "btfgen";

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* Find member @name in composite type @id, looking through anonymous members. */
static int find_member(const struct btf *btf, __u32 id, const char *name,
		       long long base_bits, struct field_hit *hit, __u32 *member_type)
{
	const struct btf_type *t = btf__type_by_id(btf, btf__resolve_type(btf, id));
	const struct btf_member *m;
	int i, n;

	if (!t || !btf_is_composite(t))
		return 0;
	m = btf_members(t);
	n = btf_vlen(t);
	for (i = 0; i < n; i++, m++) {
		const char *mname = btf__name_by_offset(btf, m->name_off);
		long long off = base_bits + btf_member_bit_offset(t, i);

		if (mname && *mname) {
			if (strcmp(mname, name))
				continue;
			hit->bit_off = off;
			hit->bitfield = btf_member_bitfield_size(t, i) != 0;
			hit->size = btf__resolve_size(btf, m->type);
			*member_type = m->type;
			return 1;
		}
		/* anonymous struct/union: search inside */
		if (find_member(btf, m->type, name, off, hit, member_type))
			return 1;
	}
	return 0;
}

/* Resolve a dotted path ("avg.load_avg") inside struct @sid. */
static int resolve_path(const struct btf *btf, __u32 sid, const char *path,
			struct field_hit *hit)
{
	char buf[256], *save = NULL, *tok;
	__u32 type = sid;
	long long base = 0;

	snprintf(buf, sizeof(buf), "%s", path);
	for (tok = strtok_r(buf, ".", &save); tok; tok = strtok_r(NULL, ".", &save)) {
		__u32 mtype;

		if (!find_member(btf, type, tok, base, hit, &mtype))
			return 0;
		base = hit->bit_off;
		type = mtype;
	}
	/* how many pointer levels the field's type has (qualifiers and typedefs skipped) */
	hit->ptrs = 0;
	for (;;) {
		const struct btf_type *t = btf__type_by_id(btf, type);

		if (!t)
			break;
		if (btf_is_ptr(t))
			hit->ptrs++;
		else if (!btf_is_mod(t) && !btf_is_typedef(t) && !btf_is_type_tag(t))
			break;
		type = t->type;
	}
	return 1;
}

static void macro_name(char *out, size_t len, const char *sname, const char *path)
{
	size_t o = snprintf(out, len, "%s__", sname);
	const char *p;

	for (p = path; *p && o + 2 < len; p++) {
		if (*p == '.') {
			out[o++] = '_';
			out[o++] = '_';
		} else {
			out[o++] = *p;
		}
	}
	out[o] = '\0';
}

/* The release a vmlinux ELF was built as: its "Linux version X " banner. */
static int release_from_elf(const char *path, char *out, size_t len)
{
	static const char tag[] = "Linux version ";
	FILE *f = fopen(path, "rb");
	char *data;
	long sz;
	size_t got;
	int found = 0;

	if (!f)
		return 0;
	if (fseek(f, 0, SEEK_END) || (sz = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return 0;
	}
	data = malloc(sz);
	got = data ? fread(data, 1, sz, f) : 0;
	fclose(f);
	if (got >= 4 && !memcmp(data, "\177ELF", 4)) {
		char *p = data, *end = data + got;

		while ((p = memmem(p, end - p, tag, sizeof(tag) - 1))) {
			char *r = p + sizeof(tag) - 1;
			size_t n = 0;

			/* a real banner: release, a space, then "(" */
			while (r + n < end && n + 1 < len && (isalnum((unsigned char)r[n]) ||
			       strchr(".-_+~", r[n])))
				n++;
			if (n && r + n + 1 < end && r[n] == ' ' && r[n + 1] == '(') {
				memcpy(out, r, n);
				out[n] = '\0';
				found = 1;
				break;
			}
			p = r;
		}
	}
	free(data);
	return found;
}


/* Is @id a pointer to a struct named @sname (through typedefs/modifiers)? */
static int is_ptr_to_struct(const struct btf *btf, __u32 id, const char *sname)
{
	const struct btf_type *t = btf__type_by_id(btf, btf__resolve_type(btf, id));

	if (!t || !btf_is_ptr(t))
		return 0;
	t = btf__type_by_id(btf, btf__resolve_type(btf, t->type));
	return t && btf_is_struct(t) && !strcmp(btf__name_by_offset(btf, t->name_off), sname);
}

/*
 * "@macro ret_struct arg_struct [preferred names...]": every function in
 * BTF with exactly the prototype "struct ret_struct *f(struct arg_struct *)",
 * preferred names first.  BTF only describes functions whose prototype the
 * compiler kept, so a name listed here is safe to probe with that ABI.
 */
/*
 * The rest of a KS_FUNCS_ line: the functions found, preferred names
 * (@w[3..@nw-1]) first in their order, then any other match (a rename we
 * do not know yet).  Clears @found as it goes.
 */
static void emit_found(FILE *out, const char **found, int nfound, char **w, int nw)
{
	int i, k;

	for (k = 3; k <= nw; k++) {
		for (i = 0; i < nfound; i++) {
			if (!found[i] || (k < nw && strcmp(found[i], w[k])))
				continue;
			fprintf(out, " \\\n\t\"%s\",", found[i]);
			found[i] = NULL;
		}
	}
	fprintf(out, "\n\n");
}

static void emit_funcs(FILE *out, const struct btf *btf, char **w, int nw)
{
	const char *found[64];
	int nfound = 0, id, n = btf__type_cnt(btf);

	for (id = 1; id < n && nfound < 64; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id), *proto;
		const struct btf_param *prm;

		if (!btf_is_func(t))
			continue;
		proto = btf__type_by_id(btf, t->type);
		if (!proto || !btf_is_func_proto(proto) || btf_vlen(proto) != 1)
			continue;
		prm = btf_params(proto);
		if (!is_ptr_to_struct(btf, proto->type, w[1]) ||
		    !is_ptr_to_struct(btf, prm->type, w[2]))
			continue;
		found[nfound++] = btf__name_by_offset(btf, t->name_off);
	}
	fprintf(out, "/* functions: struct %s *f(struct %s *) */\n#define KS_FUNCS_%s",
		w[1], w[2], w[0] + 1);
	emit_found(out, found, nfound, w, nw);
}

/* Does BTF type @id match one token of a "^" prototype (int, enum, *int, *STRUCT)? */
static int type_matches(const struct btf *btf, __u32 id, const char *tok)
{
	const struct btf_type *t = btf__type_by_id(btf, btf__resolve_type(btf, id));

	if (!t)
		return 0;
	if (tok[0] == '*') {
		if (!btf_is_ptr(t))
			return 0;
		if (strcmp(tok + 1, "int"))
			return is_ptr_to_struct(btf, id, tok + 1);
		t = btf__type_by_id(btf, btf__resolve_type(btf, t->type));
	}
	if (!strcmp(tok, "enum"))
		return btf_is_enum(t) || btf_is_enum64(t);
	if (!strcmp(tok + (tok[0] == '*'), "int"))
		return t && btf_is_int(t) && !strcmp(btf__name_by_offset(btf, t->name_off), "int");
	return 0;
}

/*
 * "^macro ret params [preferred names...]": every function in BTF whose
 * prototype is exactly ret f(params), params a comma-separated list of
 * int, enum, *int or *STRUCT (e.g. load_balance()'s
 * "int int,*rq,*sched_domain,enum,*int").  Emitted like "@".
 */
static void emit_proto_funcs(FILE *out, const struct btf *btf, char **w, int nw)
{
	const char *found[64], *tok[16];
	char params[256], *save = NULL, *p;
	int nfound = 0, ntok = 0, id, n = btf__type_cnt(btf);

	snprintf(params, sizeof(params), "%s", w[2]);
	for (p = strtok_r(params, ",", &save); p && ntok < 16; p = strtok_r(NULL, ",", &save))
		tok[ntok++] = p;
	for (id = 1; id < n && nfound < 64; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id), *proto;
		const struct btf_param *prm;
		int i;

		if (!btf_is_func(t))
			continue;
		proto = btf__type_by_id(btf, t->type);
		if (!proto || !btf_is_func_proto(proto) || btf_vlen(proto) != ntok ||
		    !type_matches(btf, proto->type, w[1]))
			continue;
		prm = btf_params(proto);
		for (i = 0; i < ntok; i++)
			if (!type_matches(btf, prm[i].type, tok[i]))
				break;
		if (i == ntok)
			found[nfound++] = btf__name_by_offset(btf, t->name_off);
	}
	fprintf(out, "/* functions: %s f(%s) */\n#define KS_FUNCS_%s", w[1], w[2], w[0] + 1);
	emit_found(out, found, nfound, w, nw);
}

/*
 * "~* names...": the value of each enumerator wherever it is declared (the
 * kernel's SD_* flags live in anonymous enums) as KS_ENUMV__<name> (-1 and
 * HAS_KS_ENUMV__<name> 0 when absent).
 * "~enum names...": the value of each enumerator of enum <enum> as
 * KS_ENUM_<enum>__<name> (-1 and HAS_KS_ENUM_..._0 when absent), so the
 * module follows the kernel's order instead of assuming one.
 */
static void emit_enum(FILE *out, const struct btf *btf, char **w, int nw)
{
	if (!strcmp(w[0], "~*")) {	/* any enum, anonymous ones included */
		int n = btf__type_cnt(btf), k, i, id;

		fprintf(out, "/* enumerators of any enum */\n");
		for (k = 1; k < nw; k++) {
			long long v = -1;

			for (id = 1; id < n && v < 0; id++) {
				const struct btf_type *t = btf__type_by_id(btf, id);

				if (!btf_is_enum(t))
					continue;
				for (i = 0; i < btf_vlen(t); i++)
					if (!strcmp(btf__name_by_offset(btf, btf_enum(t)[i].name_off), w[k]))
						v = btf_enum(t)[i].val;
			}
			fprintf(out, "#define HAS_KS_ENUMV__%s %d\n#define KS_ENUMV__%s %lld\n",
				w[k], v >= 0, w[k], v);
		}
		fprintf(out, "\n");
		return;
	}
	{
	int id = btf__find_by_name_kind(btf, w[0] + 1, BTF_KIND_ENUM), k, i;
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, id) : NULL;

	fprintf(out, "/* enum %s */\n", w[0] + 1);
	for (k = 1; k < nw; k++) {
		long long v = -1;

		for (i = 0; t && i < btf_vlen(t); i++)
			if (!strcmp(btf__name_by_offset(btf, btf_enum(t)[i].name_off), w[k]))
				v = btf_enum(t)[i].val;
		fprintf(out, "#define HAS_KS_ENUM_%s__%s %d\n#define KS_ENUM_%s__%s %lld\n",
			w[0] + 1, w[k], v >= 0, w[0] + 1, w[k], v);
	}
	/* the whole enum as BTF has it, listed ones or not: KS_ENUMS_<enum>(X) X(name, value) */
	fprintf(out, "#define KS_ENUM_COUNT_%s %d\n#define KS_ENUMS_%s(X)", w[0] + 1,
		t ? (int)btf_vlen(t) : 0, w[0] + 1);
	for (i = 0; t && i < btf_vlen(t); i++)
		fprintf(out, " X(\"%s\", %lld)", btf__name_by_offset(btf, btf_enum(t)[i].name_off),
			(long long)btf_enum(t)[i].val);
	fprintf(out, "\n\n");
	}
}

/*
 * "%btf_trace_<tp>": the number of parameters of tracepoint <tp>'s probe
 * prototype (void *data first), so a probe can be declared with exactly the
 * arguments the kernel passes.  The evidence is the btf_trace_<tp> typedef
 * BTF keeps for every tracepoint on 5.12+ kernels, or else the
 * __traceiter_<tp> function (5.10+; 5.10's BTF has no typedef for bare
 * tracepoints such as pelt_cfs_tp).  Returns that number, 0 if the BTF shows
 * no such tracepoint.
 */
static int tp_nargs(const struct btf *btf, const char *name)
{
	const char *tp = strncmp(name, "btf_trace_", 10) ? name : name + 10;
	int id = btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF);
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	char iter[160];

	if (t)
		t = btf__type_by_id(btf, t->type);
	if (t && btf_is_ptr(t))
		t = btf__type_by_id(btf, t->type);
	if (!t || !btf_is_func_proto(t)) {
		snprintf(iter, sizeof(iter), "__traceiter_%s", tp);
		id = btf__find_by_name_kind(btf, iter, BTF_KIND_FUNC);
		t = id > 0 ? btf__type_by_id(btf, btf__type_by_id(btf, id)->type) : NULL;
	}
	return t && btf_is_func_proto(t) ? btf_vlen(t) : 0;
}

static int emit_nargs(FILE *out, const struct btf *btf, const char *name)
{
	int n = tp_nargs(btf, name);

	fprintf(out, "#define KS_NARGS_%s %d\n\n", name, n);
	return n;
}

static void usage(int code)
{
	fprintf(code ? stderr : stdout,
		"usage: %s --manifest FILE [--btf PATH] [--release REL] -o OUT.h\n"
		"  --btf PATH      BTF source: raw BTF or vmlinux ELF (default %s)\n"
		"  --release REL   kernel release the BTF describes (default: the\n"
		"                  vmlinux banner, or uname -r for %s)\n",
		prog, SYSFS_BTF, SYSFS_BTF);
	exit(code);
}

int main(int argc, char **argv)
{
	const char *btf_path = SYSFS_BTF, *manifest = NULL, *outp = NULL, *release = NULL;
	char relbuf[128], line[512];
	struct btf *btf;
	FILE *mf, *out;
	int i, lineno = 0, nfields = 0, errors = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--btf") && i + 1 < argc)
			btf_path = argv[++i];
		else if (!strcmp(argv[i], "--manifest") && i + 1 < argc)
			manifest = argv[++i];
		else if (!strcmp(argv[i], "--release") && i + 1 < argc)
			release = argv[++i];
		else if (!strcmp(argv[i], "-o") && i + 1 < argc)
			outp = argv[++i];
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			usage(0);
		else
			usage(2);
	}
	if (!manifest || !outp)
		usage(2);

	btf = btf__parse(btf_path, NULL);
	if (!btf)
		die("cannot read BTF from %s: %s (the kernel needs CONFIG_DEBUG_INFO_BTF=y; "
		    "pass BTF=path to a vmlinux with a .BTF section)", btf_path, strerror(errno));

	if (!release) {
		if (release_from_elf(btf_path, relbuf, sizeof(relbuf))) {
			release = relbuf;
		} else if (!strcmp(btf_path, SYSFS_BTF)) {
			struct utsname u;

			uname(&u);
			snprintf(relbuf, sizeof(relbuf), "%s", u.release);
			release = relbuf;
		} else {
			die("cannot tell which kernel release %s describes; pass --release "
			    "(make BTF_RELEASE=...)", btf_path);
		}
	}

	mf = fopen(manifest, "r");
	if (!mf)
		die("cannot open manifest %s: %s", manifest, strerror(errno));
	out = fopen(outp, "w");
	if (!out)
		die("cannot write %s: %s", outp, strerror(errno));

	fprintf(out, "/* SPDX-License-Identifier: GPL-2.0 */\n"
		"/* Generated by userspace/btfgen from %s: do not edit. */\n"
		"#ifndef SHADOW_KSTRUCT_GEN_H\n#define SHADOW_KSTRUCT_GEN_H\n\n"
		"#define KS_BTF_SOURCE \"%s\"\n#define KS_BTF_RELEASE \"%s\"\n\n",
		manifest, btf_path, release);

	while (fgets(line, sizeof(line), mf)) {
		char *w[MAX_WORDS], *save = NULL, *tok, *sname;
		int nw = 0, optional = 0, pub = 0, sid, k, found = -1;
		struct field_hit hit = { 0 };
		char mname[160];

		lineno++;
		line[strcspn(line, "#\n")] = '\0';
		for (tok = strtok_r(line, " \t", &save); tok && nw < MAX_WORDS;
		     tok = strtok_r(NULL, " \t", &save))
			w[nw++] = tok;
		if (!nw)
			continue;
		if (w[0][0] == '%') {
			/* "%!typedef why..." : a tracepoint the module cannot do without */
			int required = w[0][1] == '!';
			const char *td = w[0] + 1 + required;

			if (!emit_nargs(out, btf, td) && required) {
				const char *tp = strncmp(td, "btf_trace_", 10) ? td : td + 10;

				fprintf(stderr, "%s: BTF %s (%s) lacks tracepoint %s (neither "
					"btf_trace_%s nor __traceiter_%s):", prog, btf_path,
					release, tp, tp, tp);
				for (k = 1; k < nw; k++)
					fprintf(stderr, " %s", w[k]);
				fprintf(stderr, " (%s:%d)\n", manifest, lineno);
				errors++;
			}
			continue;
		}
		if (nw < 2)
			die("%s:%d: expected 'struct field [alternatives]'", manifest, lineno);
		if (w[0][0] == '^') {
			if (nw < 3)
				die("%s:%d: expected '^macro ret params [names]'", manifest, lineno);
			emit_proto_funcs(out, btf, w, nw);
			continue;
		}
		if (w[0][0] == '~') {
			emit_enum(out, btf, w, nw);
			continue;
		}
		if (w[0][0] == '@') {
			if (nw < 3)
				die("%s:%d: expected '@macro ret_struct arg_struct [names]'", manifest, lineno);
			emit_funcs(out, btf, w, nw);
			continue;
		}
		sname = w[0];
		for (; *sname == '?' || *sname == '='; sname++) {
			optional |= *sname == '?';
			pub |= *sname == '=';
		}
		macro_name(mname, sizeof(mname), sname, w[1]);

		sid = btf__find_by_name_kind(btf, sname, BTF_KIND_STRUCT);
		if (sid > 0) {
			for (k = 1; k < nw; k++) {
				if (resolve_path(btf, sid, w[k], &hit)) {
					found = k;
					break;
				}
			}
		}
		if (found < 0) {
			if (optional) {
				fprintf(out, "#define HAS_KS_%s 0\n\n", mname);
				continue;
			}
			fprintf(stderr, "%s: BTF %s (%s) lacks %s %s", prog, btf_path, release,
				sid > 0 ? "field" : "struct", sname);
			if (sid > 0) {
				fprintf(stderr, ".%s (tried:", w[1]);
				for (k = 1; k < nw; k++)
					fprintf(stderr, " %s", w[k]);
				fprintf(stderr, ")");
			}
			fprintf(stderr, ", which sched_shadow needs (%s:%d)\n", manifest, lineno);
			errors++;
			continue;
		}
		if (hit.bitfield || hit.bit_off % 8)
			die("%s.%s is a bitfield in %s: not supported", sname, w[found], btf_path);
		fprintf(out, "/* %s %s.%s%s */\n#define HAS_KS_%s 1\n#define KS_%s_OFF %lld\n"
			"#define KS_%s_SIZE %lld\n#define KS_%s_PTRS %d\n#define KS_%s_NAME \"%s\"\n\n",
			pub ? "public" : "private", sname,
			w[found], found > 1 ? " (renamed)" : "", mname, mname, hit.bit_off / 8,
			mname, hit.size, mname, hit.ptrs, mname, w[found]);
		nfields++;
	}
	fclose(mf);
	fprintf(out, "#define KS_NR_FIELDS %d\n\n#endif\n", nfields);
	if (fclose(out))
		die("cannot write %s: %s", outp, strerror(errno));
	btf__free(btf);
	if (errors) {
		remove(outp);
		die("%d required field(s) or tracepoint(s) missing: this kernel is not supported", errors);
	}
	return 0;
}
