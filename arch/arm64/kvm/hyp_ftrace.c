// SPDX-License-Identifier: GPL-2.0
/*
 * Host side of function tracing in the nVHE/pKVM hypervisor: the files
 * available_filter_functions, set_ftrace_filter, set_ftrace_notrace and
 * enabled_functions of remotes/hypervisor/, and the patching of the
 * hypervisor's patch sites (see arch/arm64/kvm/hyp/nvhe/ftrace.c) while its
 * func event is on.
 *
 * A function is patched while the func or the func_ret event is on, it is
 * in the filter and it is not in the notrace list. Unlike the kernel's function tracer, an
 * empty filter traces nothing: "echo 1 > events/enable" turns on every
 * event, and must not also trace every function of the hypervisor; that
 * takes "echo '*' > set_ftrace_filter".
 */

#include <linux/bitmap.h>
#include <linux/ctype.h>
#include <linux/glob.h>
#include <linux/init.h>
#include <linux/kallsyms.h>
#include <linux/kvm_host.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/stop_machine.h>
#include <linux/string.h>
#include <linux/trace_seq.h>
#include <linux/trace_remote_event.h>
#include <linux/tracefs.h>
#include <linux/uaccess.h>

#include <asm/kvm_hypftrace.h>
#include <asm/kvm_hyptrace.h>
#include <asm/kvm_mmu.h>
#include <asm/patching.h>
#include <asm/setup.h>

#include "hyp_ftrace.h"

#define HYP_FTRACE_PREFIX	"__kvm_nvhe_"

/* The records: struct remote_event_format_<name>. */
#define HYP_EVENT(__name, __proto, __struct, __assign, __printk)	\
	REMOTE_EVENT_FORMAT(__name, __struct);
#include <asm/kvm_hypevents.h>
#undef HYP_EVENT

DECLARE_KVM_NVHE_SYM(__hyp_ftrace_sites);
DECLARE_KVM_NVHE_SYM(__hyp_ftrace_sites_end);
DECLARE_KVM_NVHE_SYM(__hyp_ftrace_tramps);
DECLARE_KVM_NVHE_SYM(__hyp_ftrace_return);
/* Opaque here: the hypervisor's struct hyp_trace_cpu, with its return stack. */
DECLARE_KVM_NVHE_PER_CPU(u8, hyp_trace_cpu);
/* The direct calls to each site, listed by the build (kvm_hypftrace.h). */
extern const u32 kvm_nvhe_sym(__hyp_ftrace_first_call)[];
extern const s32 kvm_nvhe_sym(__hyp_ftrace_calls)[];

static struct {
	struct mutex	lock;		/* the lists, patched, func_on */
	unsigned int	nr;		/* patch sites */
	unsigned long	*addr;		/* their kernel image addresses */
	const char	**name;		/* their functions, without prefix */
	unsigned long	*filter;	/* set_ftrace_filter */
	unsigned long	*notrace_set;/* set_ftrace_notrace */
	unsigned long	*patched;	/* what the hypervisor runs now */
	bool		func_on;	/* the func event */
	bool		ret_on;		/* the func_ret event */
} hyp_ftrace = {
	.lock = __MUTEX_INITIALIZER(hyp_ftrace.lock),
};

/* Kernel image address of hypervisor address @va. */
static unsigned long hyp_ftrace_kimg(unsigned long va)
{
	unsigned long kimg = (unsigned long)kvm_nvhe_sym(__hyp_ftrace_tramps);

	return va - (unsigned long)kern_hyp_va(lm_alias(kimg)) + kimg;
}

/**
 * hyp_ftrace_ret_addr() - The return address a frame of the hypervisor stands for
 * @pc:		A return address read from this CPU's hypervisor stack, in
 *		nVHE mode.
 * @record:	The hypervisor address of the frame record it was read from.
 * @va_mask:	The bits of a hypervisor address (the others may hold a PAC).
 *
 * For the host's unwinder of a hypervisor panic. The hypervisor's own, in
 * protected mode, has its copy at EL2.
 *
 * Return: the real return address if @pc is that of __hyp_ftrace_return,
 * @pc otherwise.
 */
unsigned long hyp_ftrace_ret_addr(unsigned long pc, unsigned long record,
				  unsigned long va_mask)
{
	unsigned long hook = (unsigned long)kvm_nvhe_sym(__hyp_ftrace_return);
	u8 *tc = this_cpu_ptr_nvhe_sym(hyp_trace_cpu);

	if (!tc)
		return pc;
	hook = (unsigned long)kern_hyp_va(lm_alias(hook));
	return hyp_ftrace_unwind_ret((void *)(tc + HYP_FTRACE_TC_RET), hook, pc, record,
				     va_mask);
}

/*
 * Print @addr as its hypervisor function's name, with the offset if any and
 * @off, as %pS does, or without, as %ps: a patch site is the function's
 * first instruction, or its second after a BTI landing pad.
 */
static void hyp_ftrace_print_sym(struct trace_seq *s, unsigned long addr, bool off)
{
	char name[KSYM_NAME_LEN];
	unsigned long size, offset;

	if (!kallsyms_lookup(addr, &size, &offset, NULL, name)) {
		trace_seq_printf(s, "0x%lx", addr);
		return;
	}
	trace_seq_puts(s, str_has_prefix(name, HYP_FTRACE_PREFIX) ?
		       name + strlen(HYP_FTRACE_PREFIX) : name);
	if (off && offset)
		trace_seq_printf(s, "+0x%lx", offset);
}

/**
 * hyp_ftrace_print_func() - Print a func event of the hypervisor
 * @rec:	The record, a struct remote_event_format_func.
 * @s:		Where to print.
 *
 * Prints "function <- caller+offset" with the hypervisor's own names.
 */
void hyp_ftrace_print_func(void *rec, struct trace_seq *s)
{
	struct remote_event_format_func *e = rec;

	hyp_ftrace_print_sym(s, e->ip, false);
	trace_seq_puts(s, " <- ");
	hyp_ftrace_print_sym(s, e->parent_ip, true);
}

/**
 * hyp_ftrace_print_func_ret() - Print a func_ret event of the hypervisor
 * @rec:	The record, a struct remote_event_format_func_ret.
 * @s:		Where to print.
 *
 * Prints "function depth=N (duration us)" with the hypervisor's own names.
 */
void hyp_ftrace_print_func_ret(void *rec, struct trace_seq *s)
{
	struct remote_event_format_func_ret *e = rec;
	u64 ns = e->rettime - e->calltime;

	hyp_ftrace_print_sym(s, e->ip, false);
	trace_seq_printf(s, " depth=%u (%llu.%03llu us)", e->depth, div_u64(ns, 1000),
			 ns % 1000);
}

/*
 * nVHE: make the direct calls to function @i go to its site (@on) or past
 * it, as the hypervisor does in protected mode (hyp_ftrace_patch_calls()
 * there). Whatever fails, the calls run the site's instruction as they did.
 */
static void hyp_ftrace_patch_calls(unsigned int i, bool on)
{
	const u32 *first = kvm_nvhe_sym(__hyp_ftrace_first_call);
	u32 c;
	int ret = 0;

	for (c = first[i]; c < first[i + 1]; c++) {
		unsigned long pc = hyp_ftrace_call_pc(kvm_nvhe_sym(__hyp_ftrace_calls), c);
		u32 cur, new;

		if (aarch64_insn_read((void *)pc, &cur) ||
		    !hyp_ftrace_retarget(cur, pc, hyp_ftrace.addr[i], on, &new))
			ret = -EINVAL;
		else if (cur != new)
			ret = aarch64_insn_patch_text_nosync((void *)pc, new) ?: ret;
	}
	if (ret)
		pr_warn_once("hypervisor function tracing: cannot move the calls to %s (%d)\n",
			     hyp_ftrace.name[i], ret);
}

static int hyp_ftrace_patch(unsigned int i, bool on)
{
	unsigned long tramp;
	u32 insn, cur;
	int ret;

	if (is_protected_kvm_enabled())
		return kvm_call_hyp_nvhe(__tracing_ftrace_patch, i, on);

	/* nVHE: the hypervisor's text is the kernel's; check it as EL2 would. */
	tramp = (unsigned long)kvm_nvhe_sym(__hyp_ftrace_tramps) + i * HYP_FTRACE_TRAMP_SIZE;
	insn = aarch64_insn_gen_branch_imm(hyp_ftrace.addr[i], tramp,
					   AARCH64_INSN_BRANCH_NOLINK);
	ret = aarch64_insn_read((void *)hyp_ftrace.addr[i], &cur);
	if (ret)
		return ret;
	if (cur != insn && cur != aarch64_insn_gen_nop())
		return -EINVAL;
	if (!on)
		hyp_ftrace_patch_calls(i, false);
	ret = aarch64_insn_patch_text_nosync((void *)hyp_ftrace.addr[i],
					     on ? insn : aarch64_insn_gen_nop());
	if (on && !ret)
		hyp_ftrace_patch_calls(i, true);
	return ret;
}

static bool hyp_ftrace_wanted(unsigned int i)
{
	return (hyp_ftrace.func_on || hyp_ftrace.ret_on) && test_bit(i, hyp_ftrace.filter) &&
	       !test_bit(i, hyp_ftrace.notrace_set);
}

/* Runs alone (stop_machine); *@failed: the first site it could not patch. */
static int hyp_ftrace_update_cb(void *failed)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < hyp_ftrace.nr; i++) {
		bool on = hyp_ftrace_wanted(i);
		int err;

		if (on == test_bit(i, hyp_ftrace.patched))
			continue;
		err = hyp_ftrace_patch(i, on);
		if (err) {
			if (!ret) {
				*(unsigned int *)failed = i;
				ret = err;
			}
			continue;
		}
		assign_bit(i, hyp_ftrace.patched, on);
	}
	return ret;
}

/*
 * Patch what should be and only that, with the other CPUs out of the
 * hypervisor. Called with the lock held.
 */
static int hyp_ftrace_update(void)
{
	unsigned int i, failed;
	int ret;

	lockdep_assert_held(&hyp_ftrace.lock);
	for (i = 0; i < hyp_ftrace.nr; i++)
		if (hyp_ftrace_wanted(i) != test_bit(i, hyp_ftrace.patched))
			break;
	if (i == hyp_ftrace.nr)
		return 0;
	failed = i;
	ret = stop_machine(hyp_ftrace_update_cb, &failed, NULL);
	if (ret)
		pr_warn_ratelimited("hypervisor function tracing: cannot patch %s (%d)\n",
				    hyp_ftrace.name[failed], ret);
	return ret;
}

/**
 * hyp_ftrace_nr_sites() - How many functions of the hypervisor can be traced
 *
 * Return: the number of patch sites, 0 without function tracing.
 */
unsigned int hyp_ftrace_nr_sites(void)
{
	return hyp_ftrace.nr;
}

/**
 * hyp_ftrace_lookup() - Find the patch site of a hypervisor function
 * @name:	Its name, as in available_filter_functions.
 *
 * Return: the index of its site (the first, if the name is not unique), or
 * -ENOENT.
 */
int hyp_ftrace_lookup(const char *name)
{
	unsigned int i;

	for (i = 0; i < hyp_ftrace.nr; i++) {
		if (!strcmp(hyp_ftrace.name[i], name))
			return i;
	}
	return -ENOENT;
}

/**
 * hyp_ftrace_enable_event() - Follow the switch of a hypervisor event
 * @id:		The event.
 * @enable:	Its new state, which the hypervisor has taken.
 *
 * Patches or unpatches the functions to trace when @id is the func or the
 * func_ret event: they are patched while either is on.
 *
 * Return: 0, or the error of the first patch that failed.
 */
int hyp_ftrace_enable_event(unsigned short id, bool enable)
{
	int ret;

	if ((id != hyp_event_id_func && id != hyp_event_id_func_ret) || !hyp_ftrace.nr)
		return 0;
	mutex_lock(&hyp_ftrace.lock);
	if (id == hyp_event_id_func)
		hyp_ftrace.func_on = enable;
	else
		hyp_ftrace.ret_on = enable;
	ret = hyp_ftrace_update();
	mutex_unlock(&hyp_ftrace.lock);
	return ret;
}

enum hyp_ftrace_list { HYP_FTRACE_AVAILABLE, HYP_FTRACE_FILTER, HYP_FTRACE_NOTRACE,
		       HYP_FTRACE_ENABLED };

static unsigned long *hyp_ftrace_list(enum hyp_ftrace_list list)
{
	switch (list) {
	case HYP_FTRACE_FILTER:
		return hyp_ftrace.filter;
	case HYP_FTRACE_NOTRACE:
		return hyp_ftrace.notrace_set;
	case HYP_FTRACE_ENABLED:
		return hyp_ftrace.patched;
	default:
		return NULL;
	}
}

/* An open file: a list being written, and a word cut by the end of a write. */
struct hyp_ftrace_file {
	enum hyp_ftrace_list	list;
	unsigned long		*set;
	size_t			len;
	char			word[KSYM_NAME_LEN + 1];
};

static void *hyp_ftrace_seq_start(struct seq_file *m, loff_t *pos)
{
	mutex_lock(&hyp_ftrace.lock);
	return *pos < hyp_ftrace.nr ? pos : NULL;
}

static void *hyp_ftrace_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return *pos < hyp_ftrace.nr ? pos : NULL;
}

static void hyp_ftrace_seq_stop(struct seq_file *m, void *v)
{
	mutex_unlock(&hyp_ftrace.lock);
}

static int hyp_ftrace_seq_show(struct seq_file *m, void *v)
{
	struct hyp_ftrace_file *hf = m->private;
	unsigned long *list = hyp_ftrace_list(hf->list);
	loff_t i = *(loff_t *)v;

	if (!list || test_bit(i, list))
		seq_printf(m, "%s\n", hyp_ftrace.name[i]);
	return 0;
}

static const struct seq_operations hyp_ftrace_seq_ops = {
	.start	= hyp_ftrace_seq_start,
	.next	= hyp_ftrace_seq_next,
	.stop	= hyp_ftrace_seq_stop,
	.show	= hyp_ftrace_seq_show,
};

static struct hyp_ftrace_file *hyp_ftrace_file(struct file *file)
{
	if (file->f_mode & FMODE_READ)
		return ((struct seq_file *)file->private_data)->private;
	return file->private_data;
}

static int hyp_ftrace_open(struct inode *inode, struct file *file)
{
	enum hyp_ftrace_list list = (uintptr_t)inode->i_private;
	struct hyp_ftrace_file *hf;
	int ret;

	ret = security_locked_down(LOCKDOWN_TRACEFS);
	if (ret)
		return ret;

	hf = kzalloc(sizeof(*hf), GFP_KERNEL);
	if (!hf)
		return -ENOMEM;
	hf->list = list;
	if (file->f_mode & FMODE_WRITE) {
		ret = -EACCES;
		if (!hyp_ftrace_list(list) || list == HYP_FTRACE_ENABLED)
			goto free;
		ret = -ENOMEM;
		hf->set = bitmap_zalloc(hyp_ftrace.nr, GFP_KERNEL);
		if (!hf->set)
			goto free;
		/* As for the kernel's: ">" starts an empty list, ">>" adds. */
		if (!(file->f_flags & O_TRUNC)) {
			mutex_lock(&hyp_ftrace.lock);
			bitmap_copy(hf->set, hyp_ftrace_list(list), hyp_ftrace.nr);
			mutex_unlock(&hyp_ftrace.lock);
		}
	}
	if (file->f_mode & FMODE_READ) {
		ret = seq_open(file, &hyp_ftrace_seq_ops);
		if (ret)
			goto free;
		((struct seq_file *)file->private_data)->private = hf;
	} else {
		file->private_data = hf;
	}
	return 0;

free:
	bitmap_free(hf->set);
	kfree(hf);
	return ret;
}

/*
 * Add the functions matching the glob @word to @set, or remove them with a
 * leading "!". -EINVAL if no function matches.
 */
static int hyp_ftrace_apply(unsigned long *set, const char *word)
{
	bool remove = word[0] == '!';
	bool found = false;
	unsigned int i;

	if (remove)
		word++;
	for (i = 0; i < hyp_ftrace.nr; i++) {
		if (!glob_match(word, hyp_ftrace.name[i]))
			continue;
		assign_bit(i, set, !remove);
		found = true;
	}
	return found ? 0 : -EINVAL;
}

static ssize_t hyp_ftrace_list_write(struct file *file, const char __user *ubuf,
				     size_t cnt, loff_t *ppos)
{
	struct hyp_ftrace_file *hf = hyp_ftrace_file(file);
	size_t done;
	int ret;

	if (!hf->set)
		return -EBADF;
	for (done = 0; done < cnt; done++) {
		char c;

		if (get_user(c, ubuf + done))
			return -EFAULT;
		if (!isspace(c) && c) {
			if (hf->len >= KSYM_NAME_LEN) {
				hf->len = 0;
				return -EINVAL;
			}
			hf->word[hf->len++] = c;
			continue;
		}
		if (!hf->len)
			continue;
		hf->word[hf->len] = 0;
		hf->len = 0;
		ret = hyp_ftrace_apply(hf->set, hf->word);
		if (ret)
			return ret;
	}
	*ppos += cnt;
	return cnt;
}

static int hyp_ftrace_release(struct inode *inode, struct file *file)
{
	struct hyp_ftrace_file *hf = hyp_ftrace_file(file);

	if (hf->set) {
		/* What the writes left unterminated, then the new list. */
		if (hf->len) {
			hf->word[hf->len] = 0;
			hyp_ftrace_apply(hf->set, hf->word);
		}
		mutex_lock(&hyp_ftrace.lock);
		bitmap_copy(hyp_ftrace_list(hf->list), hf->set, hyp_ftrace.nr);
		hyp_ftrace_update();
		mutex_unlock(&hyp_ftrace.lock);
		bitmap_free(hf->set);
	}
	if (file->f_mode & FMODE_READ)
		seq_release(inode, file);
	kfree(hf);
	return 0;
}

static const struct file_operations hyp_ftrace_fops = {
	.owner		= THIS_MODULE,
	.open		= hyp_ftrace_open,
	.read		= seq_read,
	.write		= hyp_ftrace_list_write,
	.llseek		= seq_lseek,
	.release	= hyp_ftrace_release,
};

/**
 * hyp_ftrace_init_files() - Add the function tracing files to a directory
 * @d:	The directory of the hypervisor remote.
 *
 * Return: 0, or -ENOMEM. Nothing is added without patch sites.
 */
int hyp_ftrace_init_files(struct dentry *d)
{
	static const struct {
		const char		*name;
		umode_t			mode;
		enum hyp_ftrace_list	list;
	} files[] = {
		{ "available_filter_functions",	0444, HYP_FTRACE_AVAILABLE },
		{ "set_ftrace_filter",		0644, HYP_FTRACE_FILTER },
		{ "set_ftrace_notrace",		0644, HYP_FTRACE_NOTRACE },
		{ "enabled_functions",		0444, HYP_FTRACE_ENABLED },
	};
	int i;

	if (!hyp_ftrace.nr)
		return 0;
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		if (!tracefs_create_file(files[i].name, files[i].mode, d,
					 (void *)(uintptr_t)files[i].list, &hyp_ftrace_fops))
			return -ENOMEM;
	}
	return 0;
}

/*
 * hyp_ftrace_filter= and hyp_ftrace_notrace=: comma-separated globs, as
 * written to set_ftrace_filter and set_ftrace_notrace, applied before the
 * hypervisor registers its remote, so before trace_remote= or hyp_event=
 * can turn on func or func_ret. Repeated, the lists add up.
 */
static char hyp_ftrace_boot_filter[COMMAND_LINE_SIZE] __initdata;
static char hyp_ftrace_boot_notrace[COMMAND_LINE_SIZE] __initdata;

static int __init hyp_ftrace_boot_add(char *buf, const char *arg)
{
	if (*buf)
		strlcat(buf, ",", COMMAND_LINE_SIZE);
	strlcat(buf, arg, COMMAND_LINE_SIZE);
	return 1;
}

static int __init hyp_ftrace_filter_setup(char *arg)
{
	return hyp_ftrace_boot_add(hyp_ftrace_boot_filter, arg);
}
__setup("hyp_ftrace_filter=", hyp_ftrace_filter_setup);

static int __init hyp_ftrace_notrace_setup(char *arg)
{
	return hyp_ftrace_boot_add(hyp_ftrace_boot_notrace, arg);
}
__setup("hyp_ftrace_notrace=", hyp_ftrace_notrace_setup);

static void __init hyp_ftrace_boot_list(char *list, unsigned long *set, const char *param)
{
	char *word;

	while ((word = strsep(&list, ","))) {
		if (*word && hyp_ftrace_apply(set, word))
			pr_warn("hypervisor function tracing: %s: no function matches %s\n",
				param, word);
	}
}

/*
 * Before the hypervisor is protected (device_initcall_sync), while its list
 * of sites can still be read and its memory written: their addresses and
 * names, and the hypervisor's offset to the kernel image.
 */
static int __init hyp_ftrace_init(void)
{
	const unsigned long *sites = (const unsigned long *)kvm_nvhe_sym(__hyp_ftrace_sites);
	unsigned int i, nr = (const unsigned long *)kvm_nvhe_sym(__hyp_ftrace_sites_end) - sites;
	char name[KSYM_NAME_LEN];

	if (is_kernel_in_hyp_mode() || !nr)
		return 0;
	hyp_ftrace.addr = kcalloc(nr, sizeof(*hyp_ftrace.addr), GFP_KERNEL);
	hyp_ftrace.name = kcalloc(nr, sizeof(*hyp_ftrace.name), GFP_KERNEL);
	hyp_ftrace.filter = bitmap_zalloc(nr, GFP_KERNEL);
	hyp_ftrace.notrace_set = bitmap_zalloc(nr, GFP_KERNEL);
	hyp_ftrace.patched = bitmap_zalloc(nr, GFP_KERNEL);
	if (!hyp_ftrace.addr || !hyp_ftrace.name || !hyp_ftrace.filter ||
	    !hyp_ftrace.notrace_set || !hyp_ftrace.patched)
		goto fail;
	for (i = 0; i < nr; i++) {
		const char *n = name;

		hyp_ftrace.addr[i] = hyp_ftrace_kimg(sites[i]);
		if (lookup_symbol_name(hyp_ftrace.addr[i], name))
			snprintf(name, sizeof(name), "0x%lx", hyp_ftrace.addr[i]);
		if (str_has_prefix(n, HYP_FTRACE_PREFIX))
			n += strlen(HYP_FTRACE_PREFIX);
		hyp_ftrace.name[i] = kstrdup(n, GFP_KERNEL);
		if (!hyp_ftrace.name[i])
			goto fail;
	}
	hyp_ftrace.nr = nr;
	kvm_nvhe_sym(hyp_ftrace_kimg_off) = hyp_ftrace_kimg(0);
	hyp_ftrace_boot_list(hyp_ftrace_boot_filter, hyp_ftrace.filter, "hyp_ftrace_filter");
	hyp_ftrace_boot_list(hyp_ftrace_boot_notrace, hyp_ftrace.notrace_set,
			     "hyp_ftrace_notrace");
	return 0;

fail:
	for (i = 0; hyp_ftrace.name && i < nr; i++)
		kfree(hyp_ftrace.name[i]);
	kfree(hyp_ftrace.name);
	kfree(hyp_ftrace.addr);
	bitmap_free(hyp_ftrace.filter);
	bitmap_free(hyp_ftrace.notrace_set);
	bitmap_free(hyp_ftrace.patched);
	pr_warn("hypervisor function tracing: out of memory\n");
	return -ENOMEM;
}
device_initcall(hyp_ftrace_init);

#ifdef CONFIG_NVHE_EL2_TRACING_TEST
/**
 * hyp_ftrace_count_calls() - Where the direct calls to the hypervisor's functions go
 * @past:	Set to how many go past the NOP of a function not patched.
 * @to_site:	Set to how many go to the site of a function patched.
 *
 * For the tests, in nVHE mode, where the host reads the hypervisor's text.
 *
 * Return: how many calls there are, -EOPNOTSUPP in protected mode.
 */
int hyp_ftrace_count_calls(unsigned int *past, unsigned int *to_site)
{
	const u32 *first = kvm_nvhe_sym(__hyp_ftrace_first_call);
	unsigned int i, c;

	if (is_protected_kvm_enabled())
		return -EOPNOTSUPP;
	*past = *to_site = 0;
	mutex_lock(&hyp_ftrace.lock);
	for (i = 0; i < hyp_ftrace.nr; i++) {
		unsigned long site = hyp_ftrace.addr[i];
		bool on = test_bit(i, hyp_ftrace.patched);

		for (c = first[i]; c < first[i + 1]; c++) {
			unsigned long pc, to;
			u32 insn;

			pc = hyp_ftrace_call_pc(kvm_nvhe_sym(__hyp_ftrace_calls), c);
			if (aarch64_insn_read((void *)pc, &insn))
				continue;
			to = hyp_ftrace_call_target(insn, pc);
			if (!on && to == site + HYP_FTRACE_INSN_SIZE)
				(*past)++;
			else if (on && to == site)
				(*to_site)++;
		}
	}
	mutex_unlock(&hyp_ftrace.lock);
	return first[hyp_ftrace.nr];
}
#endif
