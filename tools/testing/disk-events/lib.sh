# SPDX-License-Identifier: GPL-2.0
#
# Paths shared by the harness scripts; sourced, never run.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
HARNESS=$TOP/tools/testing/disk-events
BUILD=${BUILD:-$TOP/build}
TREE=$BUILD/linux		# git repo: base commit, then our change
STOCK=$BUILD/stock		# worktree of the pristine base commit
OBJ=$BUILD/obj			# one O= directory per variant
BASE_TARBALL=/usr/src/linux-source-6.12.tar.xz
BASE_PACKAGE=linux-source-6.12

# Files we own: everything tracked (or new, not ignored) under these dirs.
OWNED_DIRS="block include drivers Documentation tools"

die() { echo "$(basename "$0"): $*" >&2; exit 1; }
