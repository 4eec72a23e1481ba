# SPDX-License-Identifier: GPL-2.0
#
# Build driver for the pKVM hypervisor tracing series.
#
#   make          assemble the tree, build Image + modules + initramfs
#   make run      boot it under QEMU (see "make help")
#   make check    build, then run every host and guest test
#
# The kernel tree under build/linux is the pristine base + the files this repo
# adds (arch/ drivers/ include/ kernel/ tools/ Documentation/) + the patches listed in
# patches/series.  Only files whose content changed are rewritten, so editing
# one added file rebuilds one object.

# The base this series is developed and tested against (Debian linux-source-6.12).
BASE_VERSION	:= 6.12.117
BASE_TARBALL	?= /usr/src/linux-source-6.12.tar.xz

B		:= build
BASE		:= $(B)/base
SRC		:= $(B)/linux
DEBUG		?= 0
NOTRACE		?= 0
NOFTRACE	?= 0
ifeq ($(DEBUG),1)
OBJ		:= $(B)/obj-debug
FRAGMENTS	:= scripts/configs/qemu-pkvm.config scripts/configs/debug.config
else ifeq ($(DEBUG),kcsan)
OBJ		:= $(B)/obj-kcsan
FRAGMENTS	:= scripts/configs/qemu-pkvm.config scripts/configs/kcsan.config
else ifeq ($(NOTRACE),1)
OBJ		:= $(B)/obj-notrace
FRAGMENTS	:= scripts/configs/qemu-pkvm.config scripts/configs/notrace.config
else ifeq ($(NOFTRACE),1)
OBJ		:= $(B)/obj-noftrace
FRAGMENTS	:= scripts/configs/qemu-pkvm.config scripts/configs/noftrace.config
else ifneq ($(LLVM),)
OBJ		:= $(B)/obj-llvm
FRAGMENTS	:= scripts/configs/qemu-pkvm.config scripts/configs/android.config
else
OBJ		:= $(B)/obj
FRAGMENTS	:= scripts/configs/qemu-pkvm.config
endif
IMAGE		:= $(OBJ)/arch/arm64/boot/Image
INITRAMFS	:= $(OBJ)/initramfs.cpio

CROSS_COMPILE	?= aarch64-linux-gnu-
JOBS		?= $(shell nproc)
# LLVM=1: Clang and LLD, Debian's versioned ones (LLVM=-19) unless LLVM names
# a suffix or a directory itself, as kbuild's LLVM= does.
LLVM		?=
unexport LLVM
ifeq ($(LLVM),1)
KLLVM		:= -19
else
KLLVM		:= $(LLVM)
endif
KCC		= $(if $(KLLVM),$(if $(filter -%,$(KLLVM)),clang$(KLLVM),$(KLLVM)clang),$(CROSS_COMPILE)gcc)
export KLLVM
# Looked up when the kernel is built, not when this file is read: on a fresh
# machine "make deps" installs ccache first, and a CC that changes between
# two builds makes kbuild rebuild every object.
CCACHE		= $(shell command -v ccache 2>/dev/null)
KMAKE		= $(MAKE) -C $(SRC) O=$(CURDIR)/$(OBJ) ARCH=arm64 \
		  CROSS_COMPILE=$(CROSS_COMPILE) -j$(JOBS) --no-print-directory \
		  $(if $(KLLVM),LLVM=$(KLLVM)) $(if $(CCACHE),CC="ccache $(KCC)") $(KFLAGS)

# Guest run parameters (see "make help").
MODE		?= protected
SMP		?= 2
MEM		?= 1024
TIMEOUT		?= 600

# ccache: paths relative to the checkout, so another clone hits the same cache.
export CCACHE_BASEDIR := $(CURDIR)

export BASE_VERSION BASE_TARBALL BASE SRC OBJ IMAGE INITRAMFS MODE SMP MEM TIMEOUT DEBUG

.PHONY: all deps base assemble config kernel tracing-objs initramfs run check stress \
	bench series series-check refresh help clean distclean FORCE

all: kernel initramfs

deps:
	@scripts/deps.sh

base: deps
	@scripts/extract-base.sh $(BASE_TARBALL) $(BASE)

assemble: base
	@scripts/assemble.sh

$(OBJ)/.config: $(FRAGMENTS) scripts/mkconfig.sh | assemble
	@scripts/mkconfig.sh $(OBJ) $(FRAGMENTS)

config: assemble $(OBJ)/.config

kernel: config
	@echo "  KERNEL  $(OBJ)"
	@$(KMAKE) Image modules
	@rm -rf $(OBJ)/modroot.tmp
	@$(KMAKE) -s INSTALL_MOD_PATH=$(CURDIR)/$(OBJ)/modroot.tmp modules_install
	@scripts/sync-tree.sh $(OBJ)/modroot.tmp $(OBJ)/modroot

# Only the directories the series changes: their objects and the linked
# hypervisor object (with NOTRACE=1, a quick check of that variant).
tracing-objs: config
	@echo "  OBJS    $(OBJ) arch/arm64/kvm kernel/trace"
	@$(KMAKE) arch/arm64/kvm/ kernel/trace/

initramfs: kernel
	@scripts/build-guest-bins.sh
	@scripts/mkinitramfs.sh

# CMD may be large and hold any shell text: write it to a file from make itself
# (no exec, no expansion) and keep it out of the environment and MAKEFLAGS.
MAKEOVERRIDES :=
unexport CMD
run: all
	$(if $(value CMD),$(file >$(B)/run-cmd.sh,$(value CMD)))
	@scripts/run-qemu.sh $(if $(value CMD),$(B)/run-cmd.sh,$(SCRIPT))

# make check also builds the debug kernel (build/obj-debug) for a short
# stress run under KASAN, lockdep and kmemleak (DEBUG_STRESS=0: neither),
# and the kernel as Android does (build/obj-llvm, see LLVM=1) to run the
# remote and hypervisor tests on it (LLVM_CHECK=0: not). scripts/check.sh
# builds both in the background while the tests of the first kernel run.
DEBUG_STRESS	?= 1
export DEBUG_STRESS
LLVM_CHECK	?= 1
export LLVM_CHECK
check: all
	@scripts/check.sh

# Everything at once on both remotes, DURATION seconds per remote and mode.
DURATION	?= 60
stress: all
	@STRESS=1 DURATION=$(DURATION) scripts/check.sh

LLVM_BENCH	?= 1
export LLVM_BENCH
bench: all
	@$(MAKE) --no-print-directory NOTRACE=1 all
	@$(MAKE) --no-print-directory NOFTRACE=1 all
ifeq ($(LLVM_BENCH),1)
	@$(MAKE) --no-print-directory LLVM=1 all
endif
	@scripts/bench.sh

series: assemble
	@scripts/mkseries.sh

# The maintainer's gates: checkpatch per mail, each mail built in turn, W=1
# and sparse (slow on a first run; not part of check).
series-check: all
	@scripts/series-check.sh

# Regenerate patches/P from the edited files in build/linux.
refresh: base
	@scripts/refresh-patch.sh $(P) $(FILES)

help:
	@echo 'Targets:'
	@echo '  make               assemble build/linux, build Image, modules and the initramfs'
	@echo '  make run           boot under QEMU (virt, virtualization=on, GICv3, -cpu max)'
	@echo '                     interactive shell when stdin is a terminal'
	@echo '  make check         build, run the host tests and the guest tests in protected,'
	@echo '                     pnvhe and nvhe mode, then a short stress run in protected'
	@echo '                     and nvhe mode in the debug kernel (built too); ends with'
	@echo '                     "N passed, M failed"'
	@echo '  make stress        DURATION=60 (default): writers, consumers, resets, hotplug,'
	@echo '                     rmmod attempts at once on each remote, in each mode; every'
	@echo '                     event accounted for (see scripts/guest/stress.sh)'
	@echo '  make bench         print the writer benchmark (host ns/event; guest ratio'
	@echo '                     against the kernel ring buffer) and the hypervisor tracing'
	@echo '                     overhead (hypercall and guest-exit loops: compiled out,'
	@echo '                     disabled, enabled; function tracing: one traced function,'
	@echo '                     every function; builds build/obj-notrace and'
	@echo '                     build/obj-noftrace). Guest'
	@echo '                     figures count instructions (QEMU -icount), the same on'
	@echo '                     every run; WALLCLOCK=1 gives TCG wall-clock ns instead'
	@echo '  make tracing-objs  build only arch/arm64/kvm/ and kernel/trace/ (with NOTRACE=1:'
	@echo '                     the compiled-out variant; make check does)'
	@echo '  make series        write the upstream-form series to build/series/'
	@echo '  make series-check  checkpatch --strict per mail, build after each mail'
	@echo '                     (build/sc/), W=1 and sparse on our files'
	@echo '  make refresh P=NAME.patch [FILES="a.c b.h"]'
	@echo '                     regenerate patches/NAME.patch from build/linux'
	@echo '  make deps          check (and, as root, install) the host packages'
	@echo '  make clean         remove objects and the initramfs (keeps the base and ccache)'
	@echo '  make distclean     remove build/ entirely'
	@echo 'Variables:'
	@echo '  MODE=protected|pnvhe|nvhe|vhe  KVM mode for run (default protected, as hVHE;'
	@echo '                     pnvhe: protected as classic nVHE; vhe: no hypervisor remote)'
	@echo '  CMD="..."          shell text run in the guest; its output is printed and'
	@echo '                     make exits with its status'
	@echo '  SCRIPT=file        same, with the script read from a file'
	@echo '  SMP=N MEM=MiB      guest CPUs (default 2) and memory (default 1024)'
	@echo '  TIMEOUT=secs       guest run time limit (default 600)'
	@echo '  APPEND="..."       extra kernel command line'
	@echo '  DEBUG=1            build with scripts/configs/debug.config (KASAN, lockdep,'
	@echo '                     kmemleak) into build/obj-debug; make DEBUG=1 check runs'
	@echo '                     every guest test there'
	@echo '  DEBUG=kcsan        the same with scripts/configs/kcsan.config (KCSAN,'
	@echo '                     lockdep) into build/obj-kcsan: make DEBUG=kcsan stress'
	@echo '                     fails on a data race that involves our code'
	@echo '  DEBUG_STRESS=0     make check without the debug kernel and its stress run'
	@echo '  LLVM=1             build with Clang 19 and LLD 19 and Android'"'"'s hardening'
	@echo '                     (scripts/configs/android.config: kCFI, shadow call stack,'
	@echo '                     PAC, BTI, ThinLTO, KASLR) into build/obj-llvm'
	@echo '  LLVM_CHECK=0       make check without the LLVM=1 kernel and its tests'
	@echo '  LLVM_BENCH=0       make bench without the LLVM=1 kernel'"'"'s rows'
	@echo '  NOTRACE=1          build with hypervisor tracing compiled out into'
	@echo '                     build/obj-notrace (make bench does it)'
	@echo '  NOFTRACE=1         build without hypervisor function tracing into'
	@echo '                     build/obj-noftrace (make bench does it)'
	@echo '  TESTS="pattern"    make check: run only host/guest tests whose name matches'
	@echo '  JOBS=N             parallel build jobs (default: nproc)'

clean:
	rm -rf $(B)/obj $(B)/obj-debug $(B)/obj-kcsan $(B)/obj-notrace $(B)/obj-noftrace $(B)/obj-llvm \
		$(B)/stage $(B)/series $(B)/sc

distclean:
	rm -rf $(B)
