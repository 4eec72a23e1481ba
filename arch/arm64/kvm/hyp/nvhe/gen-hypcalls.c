// SPDX-License-Identifier: GPL-2.0-only
/*
 * Moves, at build time, the direct calls the hypervisor makes to the
 * functions its function tracer can trace past their NOP, and lists them.
 *
 * Usage: gen-hypcalls kvm_nvhe.tmp.o > hyp-calls.S
 *        gen-hypcalls kvm_nvhe.tmp.o kvm_nvhe.calls.o
 *
 * A patch site is listed in .hyp.ftrace_sites (an ABS64 relocation to it).
 * A call to its function is a B or BL in .hyp.text that goes to the site or
 * to a BTI C right before it: through a CALL26/JUMP26 relocation, or
 * resolved by the assembler. What the mapping symbols mark as data is not
 * looked at, nor are the replacement instructions of alternatives, which
 * run elsewhere once they apply. A branch to the instruction after a site
 * is a loop to the start of its body, not a call.
 *
 * The first form writes, for each site in .hyp.ftrace_sites order, where
 * its calls are (__hyp_ftrace_calls[], each an offset from its own entry,
 * from __hyp_ftrace_first_call[i] to __hyp_ftrace_first_call[i + 1]); the
 * second a copy of the object in which they go past the site. Both forms
 * find the same calls, in the same order.
 */

#include <elf.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INSN_SIZE	4
#define INSN_BTI_C	0xd503245fU
#define INSN_B_MASK	0x7c000000U
#define INSN_B		0x14000000U	/* B and BL: bit 31 tells them apart */
#define INSN_IMM26	0x03ffffffU

static const char *path;
static uint8_t *elf;
static size_t elf_size;
static bool big_endian;

struct call {
	uint32_t	site;	/* index in .hyp.ftrace_sites */
	uint64_t	off;	/* in .hyp.text */
};

struct site {
	uint64_t	off;	/* in .hyp.text */
	uint32_t	idx;
};

static void fail(const char *msg)
{
	fprintf(stderr, "gen-hypcalls: %s: %s\n", path, msg);
	exit(1);
}

static uint64_t get(const void *p, size_t size)
{
	const uint8_t *b = p;
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < size; i++)
		v |= (uint64_t)b[big_endian ? size - 1 - i : i] << (8 * i);
	return v;
}

static void put(void *p, size_t size, uint64_t v)
{
	uint8_t *b = p;
	size_t i;

	for (i = 0; i < size; i++)
		b[big_endian ? size - 1 - i : i] = v >> (8 * i);
}

#define GET(p)		get((p), sizeof(*(p)))
#define PUT(p, v)	put((p), sizeof(*(p)), (v))

/* Instructions are little-endian, whatever the data. */
static uint32_t insn_at(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void set_insn(uint8_t *p, uint32_t insn)
{
	p[0] = insn;
	p[1] = insn >> 8;
	p[2] = insn >> 16;
	p[3] = insn >> 24;
}

static void *at(uint64_t off, uint64_t size)
{
	if (off > elf_size || size > elf_size - off)
		fail("truncated");
	return elf + off;
}

static Elf64_Shdr *shdr(unsigned int i)
{
	const Elf64_Ehdr *eh = (Elf64_Ehdr *)elf;

	if (i >= GET(&eh->e_shnum))
		fail("bad section index");
	return at(GET(&eh->e_shoff) + (uint64_t)i * sizeof(Elf64_Shdr), sizeof(Elf64_Shdr));
}

static void *sdata(unsigned int i)
{
	Elf64_Shdr *sh = shdr(i);

	return at(GET(&sh->sh_offset), GET(&sh->sh_size));
}

static unsigned int section(const char *name)
{
	const Elf64_Ehdr *eh = (Elf64_Ehdr *)elf;
	Elf64_Shdr *strs = shdr(GET(&eh->e_shstrndx));
	const char *names = sdata(GET(&eh->e_shstrndx));
	unsigned int i;

	for (i = 1; i < GET(&eh->e_shnum); i++) {
		uint64_t n = GET(&shdr(i)->sh_name);

		if (n < GET(&strs->sh_size) && !strcmp(names + n, name))
			return i;
	}
	return 0;
}

/* The RELA section that applies to section @target, or 0. */
static unsigned int rela_of(unsigned int target)
{
	const Elf64_Ehdr *eh = (Elf64_Ehdr *)elf;
	unsigned int i;

	for (i = 1; i < GET(&eh->e_shnum); i++) {
		if (GET(&shdr(i)->sh_type) == SHT_RELA && GET(&shdr(i)->sh_info) == target)
			return i;
	}
	return 0;
}

static unsigned int symtab, text;
static uint64_t text_size;
static bool *is_data;		/* per word of .hyp.text */
static Elf64_Rela **rela_at;	/* per word of .hyp.text: its branch relocation */
static struct site *sites;	/* sorted by offset */
static uint32_t nr_sites;
static struct call *calls;
static uint64_t nr_calls;

static Elf64_Sym *sym(uint64_t i)
{
	Elf64_Shdr *sh = shdr(symtab);

	if (i >= GET(&sh->sh_size) / sizeof(Elf64_Sym))
		fail("bad symbol index");
	return (Elf64_Sym *)sdata(symtab) + i;
}

/* Where relocation @r points to in .hyp.text, or false if elsewhere. */
static bool rela_target(const Elf64_Rela *r, uint64_t *to)
{
	const Elf64_Sym *s = sym(ELF64_R_SYM(GET(&r->r_info)));

	if (GET(&s->st_shndx) != text)
		return false;
	*to = GET(&s->st_value) + GET(&r->r_addend);
	return true;
}

static int site_cmp(const void *a, const void *b)
{
	const struct site *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

static int call_cmp(const void *a, const void *b)
{
	const struct call *x = a, *y = b;

	if (x->site != y->site)
		return x->site < y->site ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static void read_sites(void)
{
	unsigned int sec = section(".hyp.ftrace_sites"), rela = sec ? rela_of(sec) : 0;
	Elf64_Rela *r;
	bool *seen;
	uint32_t i;

	if (!rela)
		fail("no relocated .hyp.ftrace_sites");
	r = sdata(rela);
	nr_sites = GET(&shdr(rela)->sh_size) / sizeof(*r);
	/* The hypervisor reads one list entry per site, and one more. */
	if (GET(&shdr(sec)->sh_size) != nr_sites * 8)
		fail("a site without a relocation in .hyp.ftrace_sites");
	sites = calloc(nr_sites ?: 1, sizeof(*sites));
	seen = calloc(nr_sites ?: 1, sizeof(*seen));
	if (!sites || !seen)
		fail(strerror(ENOMEM));
	for (i = 0; i < nr_sites; i++) {
		uint64_t idx = GET(&r[i].r_offset) / 8;

		if (ELF64_R_TYPE(GET(&r[i].r_info)) != R_AARCH64_ABS64 ||
		    GET(&r[i].r_offset) % 8 || idx >= nr_sites || seen[idx])
			fail("unexpected relocation in .hyp.ftrace_sites");
		seen[idx] = true;
		sites[i].idx = idx;
		/* A site outside .hyp.text is never patched: it has no calls. */
		if (!rela_target(&r[i], &sites[i].off) || sites[i].off % INSN_SIZE)
			sites[i].off = UINT64_MAX;
	}
	free(seen);
	qsort(sites, nr_sites, sizeof(*sites), site_cmp);
}

/* The words of .hyp.text that are data, from its mapping symbols. */
static void read_mapping_symbols(void)
{
	const char *names = sdata(GET(&shdr(symtab)->sh_link));
	uint64_t names_size = GET(&shdr(GET(&shdr(symtab)->sh_link))->sh_size);
	uint64_t nr = GET(&shdr(symtab)->sh_size) / sizeof(Elf64_Sym), i, off;
	uint64_t words = text_size / INSN_SIZE;
	signed char *kind = calloc(words + 1, 1);	/* 1 data, -1 code, 0 no symbol */
	bool data = false;

	is_data = calloc(words + 1, sizeof(*is_data));
	if (!kind || !is_data)
		fail(strerror(ENOMEM));
	for (i = 0; i < nr; i++) {
		const Elf64_Sym *s = sym(i);
		const char *n;

		if (GET(&s->st_name) + 3 > names_size)
			continue;
		n = names + GET(&s->st_name);
		/* $d, $x, or with a suffix: $d.1 */
		if (GET(&s->st_shndx) != text || n[0] != '$' || (n[1] != 'd' && n[1] != 'x') ||
		    (n[2] && n[2] != '.'))
			continue;
		off = GET(&s->st_value) / INSN_SIZE;
		if (off < words)
			kind[off] = n[1] == 'd' ? 1 : -1;
	}
	for (off = 0; off < words; off++) {
		if (kind[off])
			data = kind[off] > 0;
		is_data[off] = data;
	}
	free(kind);
}

/*
 * The replacement instructions of alternatives (struct alt_instr: the
 * offsets of the original and of the replacement, a u16 capability, their
 * lengths in two bytes) are skipped as data: a call there runs elsewhere.
 */
static void skip_alternatives(void)
{
	unsigned int sec = section(".altinstructions"), rela = sec ? rela_of(sec) : 0;
	uint64_t nr = rela ? GET(&shdr(rela)->sh_size) / sizeof(Elf64_Rela) : 0, i, to, at, end;
	uint64_t size = sec ? GET(&shdr(sec)->sh_size) : 0;
	Elf64_Rela *r = rela ? sdata(rela) : NULL;
	const uint8_t *alt = sec ? sdata(sec) : NULL;

	for (i = 0; i < nr; i++) {
		at = GET(&r[i].r_offset);
		if (at % 12 != 4 || at + 8 > size || !rela_target(&r[i], &to))
			continue;
		for (end = to + alt[at + 7]; to < end && to < text_size; to += INSN_SIZE)
			is_data[to / INSN_SIZE] = true;
	}
}

static void read_branch_relocations(void)
{
	unsigned int rela = rela_of(text);
	uint64_t nr = rela ? GET(&shdr(rela)->sh_size) / sizeof(Elf64_Rela) : 0, i;
	Elf64_Rela *r = rela ? sdata(rela) : NULL;

	rela_at = calloc(text_size / INSN_SIZE + 1, sizeof(*rela_at));
	if (!rela_at)
		fail(strerror(ENOMEM));
	for (i = 0; i < nr; i++) {
		uint64_t type = ELF64_R_TYPE(GET(&r[i].r_info)), off = GET(&r[i].r_offset);

		if ((type == R_AARCH64_CALL26 || type == R_AARCH64_JUMP26) &&
		    off < text_size && !(off % INSN_SIZE))
			rela_at[off / INSN_SIZE] = &r[i];
	}
}

/* The index in sites[] of the function @to is the entry of, or -1. */
static long site_called(const uint8_t *code, uint64_t to)
{
	long lo = 0, hi = nr_sites;

	if (to >= text_size)
		return -1;
	while (lo < hi) {
		long mid = lo + (hi - lo) / 2;

		if (sites[mid].off < to)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < nr_sites && sites[lo].off == to)
		return lo;
	if (lo < nr_sites && sites[lo].off == to + INSN_SIZE &&
	    !(to % INSN_SIZE) && insn_at(code + to) == INSN_BTI_C)
		return lo;
	return -1;
}

/* Find the calls and make them go past their site's NOP in the copy. */
static void move_calls(void)
{
	uint8_t *code = sdata(text);
	uint64_t off;

	calls = calloc(text_size / INSN_SIZE + 1, sizeof(*calls));
	if (!calls)
		fail(strerror(ENOMEM));
	for (off = 0; off + INSN_SIZE <= text_size; off += INSN_SIZE) {
		Elf64_Rela *r = rela_at[off / INSN_SIZE];
		uint32_t insn = insn_at(code + off);
		uint64_t to, past;
		int64_t imm;
		long s;

		if (is_data[off / INSN_SIZE] || (insn & INSN_B_MASK) != INSN_B)
			continue;
		if (r && !rela_target(r, &to))
			continue;
		if (!r) {
			imm = (int64_t)((uint64_t)(insn & INSN_IMM26) << 38) >> 36;
			to = off + imm;
		}
		s = site_called(code, to);
		if (s < 0)
			continue;
		past = sites[s].off + INSN_SIZE;
		if (r) {
			PUT(&r->r_addend, GET(&r->r_addend) + (past - to));
		} else {
			imm = (int64_t)(past - off);
			if (imm < -(1 << 27) || imm >= (1 << 27))
				fail("a call cannot reach past its site");
			set_insn(code + off, (insn & ~INSN_IMM26) | ((imm >> 2) & INSN_IMM26));
		}
		calls[nr_calls].site = sites[s].idx;
		calls[nr_calls++].off = off;
	}
	qsort(calls, nr_calls, sizeof(*calls), call_cmp);
}

static void print_calls(void)
{
	uint64_t c = 0;
	uint32_t i;

	printf("/* Generated by gen-hypcalls: the direct calls to each patch site. */\n"
	       "\t.pushsection .hyp.rodata, \"a\"\n"
	       "\t.balign 4\n"
	       "\t.globl __hyp_ftrace_first_call\n"
	       "__hyp_ftrace_first_call:\n");
	for (i = 0; i <= nr_sites; i++) {
		while (c < nr_calls && calls[c].site < i)
			c++;
		printf("\t.long %llu\n", (unsigned long long)c);
	}
	printf("\t.globl __hyp_ftrace_calls\n"
	       "__hyp_ftrace_calls:\n");
	for (c = 0; c < nr_calls; c++)
		printf("\t.long __hyp_section_.hyp.text + 0x%llx - .\n",
		       (unsigned long long)calls[c].off);
	printf("\t.popsection\n");
}

static void read_elf(void)
{
	FILE *f = fopen(path, "rb");
	const Elf64_Ehdr *eh;
	long size;

	if (!f || fseek(f, 0, SEEK_END))
		fail(strerror(errno));
	size = ftell(f);
	if (size < 0 || fseek(f, 0, SEEK_SET))
		fail(strerror(errno));
	elf_size = size;
	elf = malloc(elf_size ?: 1);
	if (!elf || fread(elf, 1, elf_size, f) != elf_size)
		fail("cannot read");
	fclose(f);
	eh = at(0, sizeof(*eh));
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64)
		fail("not a 64-bit ELF object");
	big_endian = eh->e_ident[EI_DATA] == ELFDATA2MSB;
	if (GET(&eh->e_type) != ET_REL || GET(&eh->e_machine) != EM_AARCH64)
		fail("not an arm64 relocatable object");
}

int main(int argc, char **argv)
{
	FILE *out;
	unsigned int i;

	if (argc != 2 && argc != 3) {
		fprintf(stderr, "Usage: %s <kvm_nvhe.tmp.o> [<output object>]\n", argv[0]);
		return 1;
	}
	path = argv[1];
	read_elf();
	text = section(".hyp.text");
	for (i = 1; !symtab && i < GET(&((Elf64_Ehdr *)elf)->e_shnum); i++)
		if (GET(&shdr(i)->sh_type) == SHT_SYMTAB)
			symtab = i;
	if (!text || !symtab)
		fail("no .hyp.text or no symbol table");
	text_size = GET(&shdr(text)->sh_size);
	read_sites();
	read_mapping_symbols();
	skip_alternatives();
	read_branch_relocations();
	move_calls();

	if (argc == 2) {
		print_calls();
		return 0;
	}
	out = fopen(argv[2], "wb");
	if (!out || fwrite(elf, 1, elf_size, out) != elf_size || fclose(out))
		fail("cannot write the output");
	return 0;
}
