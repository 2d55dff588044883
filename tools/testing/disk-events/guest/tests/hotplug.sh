# SPDX-License-Identifier: GPL-2.0
#
# Hot-unplug a polled CD drive and hot-plug a new one: the old disk goes
# away, the new one is polled and reports media changes (boot with
# block.events_dfl_poll_msecs=1000).

watch_events
old=$(devof cd1)
check "hotplug: cd1 unplugged" -- host unplug cd1
check "hotplug: $old is gone" -- wait_for_disk cd1 no 10

check "hotplug: cd9 plugged" -- host plug cd9
check "hotplug: cd9 appears" -- wait_for_disk cd9 yes 20
d=$(devof cd9)
check "hotplug: $d has events" -- test "$(cat /sys/block/$d/events)" = "media_change eject_request"
ack "$d"
n=$(count_events "$d" media_change)
host change cd9 cd9-a >/dev/null
ms=$(wait_events "$d" media_change $((n + 1)) 3)
tap $? "hotplug: media change on the new drive $d within 3 s (${ms:-timeout} ms)"
kill $WATCHER
