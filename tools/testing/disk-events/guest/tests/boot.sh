# SPDX-License-Identifier: GPL-2.0
# The guest boots and its user space runs.
check "boot: init runs" -- test -d /sys/block
