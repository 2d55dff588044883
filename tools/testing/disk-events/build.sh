#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build.sh TREE KIND: build a guest kernel into $OBJ/TREE-KIND.
#   TREE: ours (the assembled tree) or stock (the pristine base)
#   KIND: lean (make run, bench), debug (make check: lockdep, KASAN, ...)
#         or preempt (debug with full preemption at HZ=1000, for KUnit,
#         built with a default poll interval of 2000 ms for the scenarios
#         that poll without a udev rule; the base has no such option)
# The config is x86_64 tinyconfig with our fragments merged the kernel's
# way; it is replaced only when it changes, so a rebuild after an edit
# compiles just what the edit touched (ccache does the rest).

set -euo pipefail
. "$(dirname "$0")/lib.sh"

tree=$1 kind=$2
case $tree in ours) src=$TREE ;; stock) src=$STOCK ;; *) die "tree: ours|stock" ;; esac
case $kind in
lean)	frags="base.config" ;;
debug)	frags="base.config debug.config kunit.config" ;;
preempt) frags="base.config debug.config kunit.config preempt.config"
	[ "$tree" = stock ] || frags="$frags dflpoll.config" ;;
*)	die "kind: lean|debug|preempt" ;;
esac
obj=$OBJ/$tree-$kind
mkdir -p "$obj" "$obj.kconfig"

export CCACHE_BASEDIR=$BUILD CCACHE_NOHASHDIR=1
kmake() { make -s -C "$src" ARCH=x86_64 CC="ccache gcc" "$@"; }

# Make the config in a scratch O= dir, then check every fragment line.
cfg=$obj.kconfig
kmake O="$cfg" tinyconfig >/dev/null
(cd "$HARNESS/configs" && "$src/scripts/kconfig/merge_config.sh" -m -O "$cfg" \
	"$cfg/.config" $frags >/dev/null)
kmake O="$cfg" olddefconfig >/dev/null
for f in $frags; do
	grep -E '^(CONFIG_|# CONFIG_.* is not set)' "$HARNESS/configs/$f" |
	while read -r line; do
		grep -qxF -- "$line" "$cfg/.config" ||
			die "$f: '$line' did not survive olddefconfig"
	done
done
cmp -s "$cfg/.config" "$obj/.config" || cp "$cfg/.config" "$obj/.config"

echo "build: $tree-$kind ($(make -s -C "$src" kernelversion))"
kmake O="$obj" -j"$(nproc)" bzImage
