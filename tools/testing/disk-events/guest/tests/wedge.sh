# SPDX-License-Identifier: GPL-2.0
#
# The harness's self-test (selftest.py), not a test of the kernel: one
# result, then the host stops QEMU and asks it something, which never
# answers.  The host must end the run with a verdict, not hang.

tap 0 "wedge: the guest is up"
host wedge
tap 1 "wedge: the host answered a wedged QEMU"
