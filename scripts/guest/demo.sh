#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What "make run" shows before the shell: the KVM mode and the tracing state.
echo "== $(uname -r) on $(nproc) CPUs"
dmesg | grep -i 'kvm.*mode initialized' || echo "KVM did not initialize"
if [ -d /sys/kernel/tracing/remotes ]; then
	echo "== remotes: $(ls /sys/kernel/tracing/remotes)"
else
	echo "== tracefs mounted at /sys/kernel/tracing (no remotes in this build)"
fi
