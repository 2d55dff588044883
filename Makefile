# SPDX-License-Identifier: GPL-2.0
#
# The front door: see README.md.
#   make run              boot our kernel with a CD-ROM and a floppy, change
#                         media, press eject, show the uevents
#   make check            every test on our core (debug kernel)
#   make check BASE=stock the same tests on the pristine 6.12 base
#   make check-long       all that make check runs, with the regression
#                         guards at their full counts (30 reboots, 30
#                         kexecs, 50 + 50 surprise removals, 100 hot-plug
#                         cycles, 50 swaps, 20 cycles of each module);
#                         about 80 minutes (README); BASE=stock too
#   make check-distro     make check's Debian 12 scenario (systemd, udev,
#                         udisks2, modules) alone, with its 20 module
#                         cycles of make check-long; BASE=stock too
#   make mutants          check deliberately broken cores: each must fail
#   make ci-time [REV=r]  time .ci/run on a clean clone with a cold ccache,
#                         line by line (build/ci-time/log)
#   make soak [DURATION=s] the stress scenarios (hot-plug storm, swaps
#                         under load, suspend) over and over, default
#                         600 s; BASE=stock for the base
#   make bench            polling costs: our core and the base, 1-256 drives
#                         (bench/results.md, bench/wakeups.png, workers.png)
#   make bench-interval   what the poll interval trades at one drive, our
#                         core and the base (bench/interval.md, .png)
#   make bench-polls      what one poll costs at one drive, wake-ups and CPU
#                         time, our core and the base, from a trace
#                         (bench/polls.md)
#   make series           our change as a patch series, in build/series
#   make series-check     apply it to the pristine base, build and
#                         checkpatch every patch (part of make check)
#   make build            assemble and build the kernels only
#   make clean            remove build/ (the unpacked base too)

H := tools/testing/disk-events
BASE ?= ours
DURATION ?= 600

.PHONY: run check check-long check-distro ci-time soak mutants bench \
	bench-interval bench-polls series series-check build clean

run:
	@$(H)/run.sh

check:
	@$(H)/check.sh $(BASE)

check-long:
	@E2E_LONG=1 RESULTS_TAG=long $(H)/check.sh $(BASE)

check-distro:
	@E2E_LONG=1 RUNNERS=e2e.py SCENARIOS=distro RESULTS_TAG=distro \
	 $(H)/check.sh $(BASE)

ci-time:
	@$(H)/ci-time.sh $(REV)

soak:
	@SOAK_SECONDS=$(DURATION) RUNNERS=e2e.py SCENARIOS=soak RESULTS_TAG=soak \
	 $(H)/check.sh $(BASE)

mutants:
	@$(H)/mutants.sh

bench:
	@$(H)/bench.sh

bench-interval:
	@$(H)/bench.sh bench-interval.py

bench-polls:
	@$(H)/bench.sh polltrace.py

series:
	@$(H)/deps.sh && $(H)/series.sh

series-check:
	@$(H)/deps.sh && $(H)/series-check.sh

build:
	@$(H)/deps.sh && $(H)/assemble.sh && \
	 $(H)/build.sh ours lean && $(H)/build.sh ours debug

clean:
	rm -rf build
