// SPDX-License-Identifier: GPL-2.0
/*
 * Function tracing in the hypervisor.
 *
 * The build gives each function of the hypervisor a NOP as first instruction
 * (-fpatchable-function-entry=1), except in the objects that must never be
 * traced (this one, the trace buffer writer, the clock, the world switch),
 * and lists those NOPs, the patch sites, in __hyp_ftrace_sites[]. Function
 * i is traced while its NOP is a branch to trampoline i (ftrace_tramp.S),
 * which calls hyp_ftrace_entry() and goes on after the NOP. A NOP and a B
 * may be exchanged while other CPUs execute them, so no CPU is stopped.
 *
 * The host names a site by its index only. In protected mode the hypervisor
 * takes the address from its own list, checks that the instruction there is
 * the one it expects and writes it through a mapping only it has. In nVHE mode the
 * host owns the hypervisor and patches it itself (arch/arm64/kvm/hyp_ftrace.c).
 */

#include <asm/kvm_hypftrace.h>
#include <asm/kvm_mmu.h>
#include <asm/sections.h>

#include <nvhe/ftrace.h>
#include <nvhe/memory.h>
#include <nvhe/mm.h>
#include <nvhe/spinlock.h>
#include <nvhe/trace.h>

#define HYP_FTRACE_NOP		0xd503201fU
#define HYP_FTRACE_B		0x14000000U
#define HYP_FTRACE_INSN_SIZE	4

static DEFINE_HYP_SPINLOCK(ftrace_lock);

/* Kernel image address minus hypervisor address, once known. */
static unsigned long hyp_ftrace_kimg;

/*
 * Called by trampoline @tramp_end - HYP_FTRACE_TRAMP_SIZE, that is for
 * function idx, with *@parent its return address. Events carry kernel image
 * addresses, which the host and trace-cmd can name.
 */
unsigned long hyp_ftrace_entry(unsigned long tramp_end, unsigned long *parent)
{
	unsigned long idx, ip, off = READ_ONCE(hyp_ftrace_kimg);

	idx = (tramp_end - (unsigned long)__hyp_ftrace_tramps) / HYP_FTRACE_TRAMP_SIZE - 1;
	ip = __hyp_ftrace_sites[idx];
	if (unlikely(!off)) {
		off = __hyp_ftrace_kimg_offset();
		WRITE_ONCE(hyp_ftrace_kimg, off);
	}
	trace_func(ip + off, *parent + off);
	return ip + HYP_FTRACE_INSN_SIZE;
}

/*
 * The hypervisor's text, writable, at this address: mapped once, at the first
 * patch, in the hypervisor's private range that the host cannot reach. A
 * mapping of its own rather than the fixmap: a patch then needs no TLB
 * maintenance, only the cache maintenance of the instruction it writes.
 */
static void *hyp_ftrace_text_rw;

static int hyp_ftrace_map_text(void)
{
	unsigned long va;
	int ret;

	if (hyp_ftrace_text_rw)
		return 0;
	ret = __pkvm_create_private_mapping(__hyp_pa(__hyp_text_start),
					    __hyp_text_end - __hyp_text_start, PAGE_HYP, &va);
	if (!ret)
		hyp_ftrace_text_rw = (void *)va;
	return ret;
}

/* Replace @old at @site with @new, or find @new there already. */
int hyp_ftrace_write(unsigned long site, u32 old, u32 new)
{
	unsigned long rw = (unsigned long)hyp_ftrace_text_rw + site -
			   (unsigned long)__hyp_text_start;
	u32 cur = le32_to_cpu(READ_ONCE(*(__le32 *)site));

	if (cur == new)
		return 0;
	/* The alias must show what the text shows. */
	if (cur != old || le32_to_cpu(READ_ONCE(*(__le32 *)rw)) != cur)
		return -EINVAL;
	WRITE_ONCE(*(__le32 *)rw, cpu_to_le32(new));
	dcache_clean_inval_poc(rw, rw + HYP_FTRACE_INSN_SIZE);
	icache_inval_pou(site, site + HYP_FTRACE_INSN_SIZE);
	return 0;
}

/*
 * Trace function @idx (@enable 1) or stop (0). -EINVAL for an index out of
 * the list or a site whose instruction is neither the NOP nor the branch;
 * -EOPNOTSUPP in nVHE mode, where the host patches.
 */
int __tracing_ftrace_patch(u64 idx, u64 enable)
{
	unsigned long site, tramp;
	u32 branch, old, new;
	int ret;

	if (!is_protected_kvm_enabled())
		return -EOPNOTSUPP;
	if (idx >= __hyp_ftrace_sites_end - __hyp_ftrace_sites || enable > 1)
		return -EINVAL;

	site = __hyp_ftrace_sites[idx];
	if (!IS_ALIGNED(site, HYP_FTRACE_INSN_SIZE) ||
	    site < (unsigned long)__hyp_text_start ||
	    site >= (unsigned long)__hyp_text_end)
		return -EINVAL;
	tramp = (unsigned long)__hyp_ftrace_tramps + idx * HYP_FTRACE_TRAMP_SIZE;
	branch = HYP_FTRACE_B | (((tramp - site) >> 2) & GENMASK(25, 0));
	old = enable ? HYP_FTRACE_NOP : branch;
	new = enable ? branch : HYP_FTRACE_NOP;

	hyp_spin_lock(&ftrace_lock);
	/* Before any function is traced: what it calls may be traced later. */
	ret = hyp_ftrace_map_text();
	if (!ret)
		ret = hyp_ftrace_write(site, old, new);
	hyp_spin_unlock(&ftrace_lock);
	return ret;
}
