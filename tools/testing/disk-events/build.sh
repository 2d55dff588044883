#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build.sh TREE KIND: build a guest kernel into $OBJ/TREE-KIND.
#   TREE: ours (the assembled tree) or stock (the pristine base)
#   KIND: lean (make run, bench), debug (make check: lockdep, KASAN, ...)
#         or preempt (debug with full preemption at HZ=1000, for KUnit,
#         built with a default poll interval of 2000 ms for the scenarios
#         that poll without a udev rule; the base has no such option)
#         or distro (debug with the drivers as modules, for systemd and
#         udisks2: installed into $OBJ/TREE-distro.modules)
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
distro)	frags="base.config debug.config distro.config" ;;
*)	die "kind: lean|debug|preempt|distro" ;;
esac
obj=$OBJ/$tree-$kind
mkdir -p "$obj" "$obj.kconfig"

export CCACHE_BASEDIR=$BUILD CCACHE_NOHASHDIR=1
kmake() { make -s -C "$src" ARCH=x86_64 CC="ccache gcc" "$@"; }

# Make the config in a scratch O= dir, then check every fragment line
# that no later fragment overrides.
cfg=$obj.kconfig
kmake O="$cfg" tinyconfig >/dev/null
(cd "$HARNESS/configs" && "$src/scripts/kconfig/merge_config.sh" -m -O "$cfg" \
	"$cfg/.config" $frags >/dev/null)
kmake O="$cfg" olddefconfig >/dev/null
(cd "$HARNESS/configs" && grep -HE '^(CONFIG_|# CONFIG_.* is not set)' $frags) |
	awk '{ sym = $0; sub(/^[^:]*:(# )?/, "", sym); sub(/[= ].*/, "", sym)
	       last[sym] = $0 } END { for (s in last) print last[s] }' |
	while IFS=: read -r f line; do
		grep -qxF -- "$line" "$cfg/.config" ||
			die "$f: '$line' did not survive olddefconfig"
	done
cmp -s "$cfg/.config" "$obj/.config" || cp "$cfg/.config" "$obj/.config"

echo "build: $tree-$kind ($(make -s -C "$src" kernelversion))"
kmake O="$obj" -j"$(nproc)" bzImage
grep -qx CONFIG_MODULES=y "$obj/.config" || exit 0
kmake O="$obj" -j"$(nproc)" modules
rm -rf "$obj.modules"
kmake O="$obj" INSTALL_MOD_PATH="$obj.modules" INSTALL_MOD_STRIP=1 \
	modules_install >/dev/null
