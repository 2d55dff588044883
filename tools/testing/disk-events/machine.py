# SPDX-License-Identifier: GPL-2.0
"""The guest machine: QEMU arguments for each drive set, media images.

Each drive's SCSI product / ATA model string is its QEMU id, so the
guest finds the disk of a drive by name (guest/lib.sh: devof).
"""

import os
import subprocess
import tarfile
import tempfile

# Drive sets: (kind, QEMU id, initial medium or None for an empty drive).
DRIVE_SETS = {
    # No removable drives: the KUnit run whose default polls (kunit.py).
    "none": [],
    "standard": [
        ("scsi-cd", "cd0", "cd0-boot"),
        ("scsi-cd", "cd1", None),
        ("ide-cd", "atapi0", "atapi0-boot"),
        ("floppy", "fd0", "fd0-boot"),
        ("scsi-hd", "rsd0", "rsd0-boot"),
    ],
    "demo": [
        ("scsi-cd", "cd0", None),
        ("floppy", "fd0", "fd0-boot"),
    ],
    # Restarts with polling active (issue 13): 8 virtio-scsi and 2 ATAPI
    # CD drives (cd7 empty, for a burner), and the kernel to kexec into,
    # as a tar archive on a disk.
    "shutdown": [("scsi-cd", "cd%d" % i, "cd%d-boot" % i) for i in range(7)] + [
        ("scsi-cd", "cd7", None),
        ("ide-cd", "atapi0", "atapi0-boot"),
        ("ide-cd", "atapi1", "atapi1-boot"),
        ("kexec-hd", "kexec0", None),
    ],
    # Surprise removal (issue 13): a USB card reader on xHCI, and two
    # virtio-scsi CD drives.
    "usb": [
        ("usb-storage", "usb0", "usb0-boot"),
        ("scsi-cd", "cd0", "cd0-boot"),
        ("scsi-cd", "cd1", "cd1-boot"),
    ],
    # q35: ATAPI behind the ICH9 AHCI controller (ide.N are its ports).
    "q35": [
        ("ahci-cd", "ahci0", "ahci0-boot"),
        ("scsi-cd", "cd0", "cd0-boot"),
    ],
    # Debian's user space on our distro kernel (issue 14): a CD drive on
    # virtio-scsi and one behind AHCI, empty, and a USB card reader.
    "distro": [
        ("scsi-cd", "cd0", None),
        ("ahci-cd", "ahci0", None),
        ("usb-storage", "usb0", "usb0-boot"),
    ],
}


def drives(drive_set):
    """The drives of @drive_set: one of DRIVE_SETS, or "benchN" (make
    bench): N CD drives with a disc each on one virtio-scsi controller."""
    if drive_set.startswith("bench") and drive_set[5:].isdigit():
        return [("scsi-cd", "cd%d" % i, "cd%d-boot" % i)
                for i in range(int(drive_set[5:]))]
    return DRIVE_SETS[drive_set]


# QEMU machine type of each drive set; "pc" (i440FX, PIIX IDE) otherwise.
MACHINE = {"q35": "q35", "distro": "q35"}

# Two CPUs the guest can see.  Our kernels have no ACPI, so they find
# CPUs in SeaBIOS's MP table, which lists one CPU per socket: with
# "-smp 2" (two cores in one socket) the guest brings up one CPU.
SMP = "2,sockets=2"

IMAGE_SIZE = {"floppy": 1474560}        # 1.44 MB, so the driver autodetects
DEFAULT_SIZE = 1 << 20


def image(rundir, name, kind="scsi-cd"):
    """Path of medium @name, made on first use: its first bytes name it;
    or, if @name starts with "iso-", an ISO 9660 image (iso_image)."""
    path = os.path.join(rundir, name + ".img")
    if name.startswith("iso-") and not os.path.exists(path):
        iso_image(path, name)
    elif not os.path.exists(path):
        with open(path, "wb") as f:
            f.write(("disk-events medium %s\n" % name).encode())
            f.truncate(IMAGE_SIZE.get(kind, DEFAULT_SIZE))
    return path


def iso_image(path, name):
    """An ISO 9660 image at @path, with Rock Ridge names, labelled @name,
    whose one file medium.txt says "disk-events medium @name"."""
    with tempfile.TemporaryDirectory() as tree:
        with open(os.path.join(tree, "medium.txt"), "w") as f:
            f.write("disk-events medium %s\n" % name)
        subprocess.run(["genisoimage", "-quiet", "-r", "-V", name,
                        "-o", path + ".new", tree], check=True)
    os.rename(path + ".new", path)


def kind_of(drive_set, qid):
    """The kind of drive @qid; a hot-plugged one is a scsi-cd."""
    return next((k for k, i, _ in drives(drive_set) if i == qid), "scsi-cd")


def blockdev(node, path, read_only):
    ro = "on" if read_only else "off"
    return ["-blockdev", "driver=file,node-name=%s-f,filename=%s,read-only=%s"
            % (node, path, ro),
            "-blockdev", "driver=raw,node-name=%s,file=%s-f,read-only=%s"
            % (node, node, ro)]


def kexec_tar(rundir, kernel):
    """A tar archive of @kernel, for the guest to kexec."""
    path = os.path.join(rundir, "kexec.tar")
    with tarfile.open(path, "w", format=tarfile.USTAR_FORMAT) as t:
        t.add(kernel, "bzImage")
    return path


def drive_args(rundir, kind, qid, medium):
    """QEMU arguments for one drive; a kexec-hd's @medium is its path."""
    if kind == "kexec-hd":
        return blockdev(qid + "-m", medium, True) + [
            "-device", "scsi-hd,bus=scsi0.0,id=%s,product=%s,drive=%s-m"
            % (qid, qid, qid)]
    path = image(rundir, medium, kind) if medium else None
    if kind == "floppy":
        return ["-drive", "if=floppy,index=0,format=raw,file=%s" % path]
    args = blockdev(qid + "-m", path, kind != "scsi-hd") if path else []
    drive = ",drive=%s-m" % qid if path else ""
    if kind in ("ide-cd", "ahci-cd"):
        bus = "ide.1,unit=%s" % qid[-1] if kind == "ide-cd" else "ide.0"
        return args + ["-device", "ide-cd,bus=%s,id=%s,model=%s%s"
                       % (bus, qid, qid, drive)]
    if kind == "usb-storage":
        return args + ["-device", ",".join(
            ["usb-storage"] + ["%s=%s" % (k, {True: "on"}.get(v, v))
                               for k, v in usb_storage(qid).items()])]
    extra = ",removable=on" if kind == "scsi-hd" else ""
    return args + ["-device", "%s,bus=scsi0.0,id=%s,product=%s%s%s"
                   % (kind, qid, qid, drive, extra)]


def usb_storage(qid):
    """The usb-storage properties of USB card reader @qid, for -device
    and device_add: with the medium it booted with, whose node stays
    when the device goes."""
    return {"bus": "xhci.0", "id": qid, "drive": qid + "-m", "removable": True}


def qemu_args(drive_set, rundir, kernel, boot, append, sockets, mem="1G"):
    """The whole QEMU command line for a run: @boot is an initramfs, or
    a root disk image (".img"), on virtio-blk, that the guest may write
    to but never changes (snapshot)."""
    if boot.endswith(".img"):
        boot_args = ["-drive", "if=virtio,format=raw,snapshot=on,file=" + boot]
    else:
        boot_args = ["-initrd", boot]
    args = ["qemu-system-x86_64", "-accel", "tcg",
            "-M", MACHINE.get(drive_set, "pc"), "-smp", SMP,
            "-m", mem, "-nodefaults", "-no-reboot", "-display", "none",
            "-kernel", kernel, "-append", append] + boot_args + [
            "-chardev", "socket,id=con,path=%s" % sockets["console"],
            "-serial", "chardev:con",
            "-chardev", "socket,id=ctl,path=%s" % sockets["control"],
            "-serial", "chardev:ctl",
            "-chardev", "socket,id=qmp,path=%s" % sockets["qmp"],
            "-mon", "chardev=qmp,mode=control",
            "-device", "virtio-scsi-pci,id=scsi0"]
    if any(kind == "usb-storage" for kind, _, _ in drives(drive_set)):
        args += ["-device", "qemu-xhci,id=xhci"]
    for kind, qid, medium in drives(drive_set):
        if kind == "kexec-hd":
            medium = kexec_tar(rundir, kernel)
        args += drive_args(rundir, kind, qid, medium)
    return args


def medium_target(qid):
    """How QMP names a drive: the floppy by its backend, a USB reader by
    its SCSI disk's QOM path, others by id."""
    if qid.startswith("fd"):
        return {"device": "floppy0"}
    if qid.startswith("usb"):
        return {"id": "/machine/peripheral/%s/%s.0/legacy[0]" % (qid, qid)}
    return {"id": qid}
