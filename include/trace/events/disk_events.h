/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of block/disk-events.c: the checks of removable drives for
 * media change and eject request, what user space is told, and blocking.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM disk_events

#if !defined(_TRACE_DISK_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_DISK_EVENTS_H

#include <linux/blkdev.h>
#include <linux/tracepoint.h>

#define show_disk_events(events)					\
	__print_flags(events, "|",					\
		{ DISK_EVENT_MEDIA_CHANGE,	"media_change" },	\
		{ DISK_EVENT_EJECT_REQUEST,	"eject_request" })

/**
 * disk_events_check - the driver's ->check_events() was called
 * @disk: the disk
 * @clearing: the events the driver was asked to clear
 * @found: the events it reported, limited to disk->events
 * @duration_ns: how long the call took
 */
TRACE_EVENT(disk_events_check,
	    TP_PROTO(struct gendisk *disk, unsigned int clearing,
		     unsigned int found, u64 duration_ns),
	    TP_ARGS(disk, clearing, found, duration_ns),
	    TP_STRUCT__entry(__string(disk, disk->disk_name)
			     __field(unsigned int, clearing)
			     __field(unsigned int, found)
			     __field(u64, duration_ns)),
	    TP_fast_assign(__assign_str(disk);
			   __entry->clearing = clearing;
			   __entry->found = found;
			   __entry->duration_ns = duration_ns;),
	    TP_printk("%s clearing=%s found=%s duration_ns=%llu",
		      __get_str(disk), show_disk_events(__entry->clearing),
		      show_disk_events(__entry->found), __entry->duration_ns)
);

/**
 * disk_events_uevent - user space was told of events
 * @disk: the disk
 * @events: the events named in the uevent
 * @diskseq: the disk sequence number the uevent carries
 */
TRACE_EVENT(disk_events_uevent,
	    TP_PROTO(struct gendisk *disk, unsigned int events, u64 diskseq),
	    TP_ARGS(disk, events, diskseq),
	    TP_STRUCT__entry(__string(disk, disk->disk_name)
			     __field(unsigned int, events)
			     __field(u64, diskseq)),
	    TP_fast_assign(__assign_str(disk);
			   __entry->events = events;
			   __entry->diskseq = diskseq;),
	    TP_printk("%s events=%s diskseq=%llu", __get_str(disk),
		      show_disk_events(__entry->events), __entry->diskseq)
);

/**
 * disk_events_damp - a flapping disk's damping level changed
 * @disk: the disk
 * @level: the new level, 0 when the damping ends
 * @period_ms: the period of its polls and media change uevents
 */
TRACE_EVENT(disk_events_damp,
	    TP_PROTO(struct gendisk *disk, unsigned int level,
		     unsigned long period_ms),
	    TP_ARGS(disk, level, period_ms),
	    TP_STRUCT__entry(__string(disk, disk->disk_name)
			     __field(unsigned int, level)
			     __field(unsigned long, period_ms)),
	    TP_fast_assign(__assign_str(disk);
			   __entry->level = level;
			   __entry->period_ms = period_ms;),
	    TP_printk("%s level=%u period_ms=%lu", __get_str(disk),
		      __entry->level, __entry->period_ms)
);

DECLARE_EVENT_CLASS(disk_events_block_class,
		    TP_PROTO(struct gendisk *disk, int depth),
		    TP_ARGS(disk, depth),
		    TP_STRUCT__entry(__string(disk, disk->disk_name)
				     __field(int, depth)),
		    TP_fast_assign(__assign_str(disk);
				   __entry->depth = depth;),
		    TP_printk("%s depth=%d", __get_str(disk), __entry->depth)
);

/**
 * disk_events_block - checks of a disk were blocked
 * @disk: the disk
 * @depth: the block depth after this block
 */
DEFINE_EVENT(disk_events_block_class, disk_events_block,
	     TP_PROTO(struct gendisk *disk, int depth),
	     TP_ARGS(disk, depth)
);

/**
 * disk_events_unblock - one block of a disk was dropped
 * @disk: the disk
 * @depth: the block depth left; at 0 checks resume
 */
DEFINE_EVENT(disk_events_block_class, disk_events_unblock,
	     TP_PROTO(struct gendisk *disk, int depth),
	     TP_ARGS(disk, depth)
);

#endif /* _TRACE_DISK_EVENTS_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
