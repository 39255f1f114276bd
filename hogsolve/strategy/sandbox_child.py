"""The kernel's walls around a student's process: Landlock and a seccomp filter, applied by the
process to itself before the student's code runs.

Standard library only (ctypes and raw system calls): the student's interpreter loads it by
path, as it loads ``userfile_child.py``.  Once :func:`confine` has run, the process and every
thread it starts

- reads only the paths it is given (the student's folder, the Python installation, hogsolve's
  child scripts, a few harmless system files) and writes only its private folder (Landlock);
- opens no TCP connection and binds no TCP port (Landlock), creates no socket of any kind,
  runs no other program and starts no other process (seccomp: ``socket``, ``execve``,
  ``fork`` and ``clone`` without ``CLONE_THREAD`` fail), traces no process;
- signals no process outside its own Landlock domain and reaches no abstract Unix socket
  (Landlock's scopes, ABI 6);
- gains no privileges (``PR_SET_NO_NEW_PRIVS``).

Why these: Landlock and seccomp need no privilege, no setuid helper and no user namespace
(which some distributions forbid), cost a few system calls (well under a millisecond), and
cannot be undone by the code they confine, ``ctypes`` included.  bubblewrap and nsjail build
the same walls from namespaces and mounts, with a process of their own to start for every run.

:func:`support` says what this machine's kernel enforces, for ``hogsolve doctor`` and the
one-line notice where it enforces nothing.
"""
import ctypes
import errno
import os
import platform
import struct

_SYS = {  # system call numbers: (landlock_create_ruleset, landlock_add_rule, landlock_restrict_self)
    "x86_64": (444, 445, 446), "aarch64": (444, 445, 446),
}
_AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
_SECCOMP_NR = {  # what the filter refuses, by architecture
    "x86_64": {"socket": 41, "execve": 59, "execveat": 322, "fork": 57, "vfork": 58, "clone": 56, "clone3": 435,
               "ptrace": 101, "process_vm_readv": 310, "process_vm_writev": 311},
    "aarch64": {"socket": 198, "execve": 221, "execveat": 281, "clone": 220, "clone3": 435, "ptrace": 117,
                "process_vm_readv": 270, "process_vm_writev": 271},
}

# Landlock's access rights (linux/landlock.h)
FS_EXECUTE, FS_WRITE_FILE, FS_READ_FILE, FS_READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
FS_REMOVE_DIR, FS_REMOVE_FILE, FS_MAKE_CHAR, FS_MAKE_DIR = 1 << 4, 1 << 5, 1 << 6, 1 << 7
FS_MAKE_REG, FS_MAKE_SOCK, FS_MAKE_FIFO, FS_MAKE_BLOCK, FS_MAKE_SYM = 1 << 8, 1 << 9, 1 << 10, 1 << 11, 1 << 12
FS_REFER, FS_TRUNCATE, FS_IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1
_FILE_RIGHTS = FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV
_CLONE_THREAD = 0x00010000

#: Harmless system files a library may read: shared libraries (numpy's C++ runtime), the CPU's
#: and memory's description, time zones, the null and random devices.
SYSTEM_READS = ("/lib", "/lib64", "/usr/lib", "/usr/lib64", "/usr/local/lib", "/etc/ld.so.cache",
                "/proc/cpuinfo", "/proc/meminfo", "/sys/devices/system/cpu", "/etc/localtime",
                "/usr/share/zoneinfo", "/dev/null", "/dev/urandom", "/dev/zero")


def readable(reads) -> list:
    """Everything the walled process may read: ``reads`` (its folder, Python's files) and the
    harmless system files of :data:`SYSTEM_READS`, its own ``/proc`` entry among them."""
    return list(reads) + list(SYSTEM_READS) + [f"/proc/{os.getpid()}"]


def _libc():
    return ctypes.CDLL(None, use_errno=True)


def _fs_rights(abi: int) -> int:
    """Every filesystem right the kernel's Landlock ABI knows (all handled: all denied unless given)."""
    rights = (1 << 13) - 1
    if abi >= 2:
        rights |= FS_REFER
    if abi >= 3:
        rights |= FS_TRUNCATE
    if abi >= 5:
        rights |= FS_IOCTL_DEV
    return rights


def landlock_abi() -> int:
    """The kernel's Landlock ABI version, 0 where it has none (an old kernel, not Linux, disabled)."""
    numbers = _SYS.get(platform.machine())
    if numbers is None or not hasattr(ctypes, "CDLL"):
        return 0
    try:
        version = _libc().syscall(numbers[0], None, ctypes.c_size_t(0), ctypes.c_uint32(1))
    except (OSError, AttributeError):
        return 0
    return max(0, int(version))


def support() -> dict:
    """What this machine enforces on a student's process: Landlock's ABI and each wall."""
    abi = landlock_abi()
    seccomp = platform.system() == "Linux" and platform.machine() in _SECCOMP_NR
    return {"landlock_abi": abi,
            "files": abi >= 1,  # reads limited to the allowed folders, writes to the private one
            "tcp": abi >= 4,  # no TCP connect or bind
            "signals": abi >= 6,  # no signal out of its own domain
            "seccomp": seccomp,  # no socket, no program run, no new process, no tracing
            "enforced": abi >= 1 and seccomp}


def _landlock(reads, writes, abi: int) -> None:
    libc = _libc()
    create, add, restrict = _SYS[platform.machine()]
    fs = _fs_rights(abi)
    attr = struct.pack("QQQ", fs, NET_BIND_TCP | NET_CONNECT_TCP if abi >= 4 else 0,
                       SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL if abi >= 6 else 0)
    size = 24 if abi >= 6 else 16
    buffer = ctypes.create_string_buffer(attr[:size])
    ruleset = libc.syscall(create, buffer, ctypes.c_size_t(size), ctypes.c_uint32(0))
    if ruleset < 0:
        raise OSError(ctypes.get_errno(), "landlock_create_ruleset failed")
    try:
        for paths, rights in ((reads, FS_READ_FILE | FS_READ_DIR),
                              (writes, fs & ~FS_EXECUTE)):
            for path in paths:
                try:
                    fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
                except OSError:
                    continue  # not on this machine
                try:
                    allowed = rights if os.path.isdir(path) else rights & _FILE_RIGHTS
                    rule = ctypes.create_string_buffer(struct.pack("=Qi", allowed, fd))
                    if libc.syscall(add, ctypes.c_int(ruleset), ctypes.c_int(1), rule, ctypes.c_uint32(0)) < 0:
                        raise OSError(ctypes.get_errno(), f"landlock_add_rule failed for {path}")
                finally:
                    os.close(fd)
        if libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")
        if libc.syscall(restrict, ctypes.c_int(ruleset), ctypes.c_uint32(0)) < 0:
            raise OSError(ctypes.get_errno(), "landlock_restrict_self failed")
    finally:
        os.close(ruleset)


def _filter(arch: str) -> bytes:
    """The seccomp program: refuse sockets, programs, processes and tracing; allow the rest."""
    nr = _SECCOMP_NR[arch]
    ld, jeq, jge, jset, ret = 0x20, 0x15, 0x35, 0x45, 0x06
    allow, deny = 0x7FFF0000, 0x00050000  # SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO | errno
    refused = [(nr[name], code) for name, code in (
        ("socket", errno.EACCES), ("execve", errno.EACCES), ("execveat", errno.EACCES), ("fork", errno.EPERM),
        ("vfork", errno.EPERM), ("ptrace", errno.EPERM), ("process_vm_readv", errno.EPERM),
        ("process_vm_writev", errno.EPERM), ("clone3", errno.ENOSYS)) if name in nr]  # clone3: glibc uses clone
    program = [(ld, 0, 0, 4), (jeq, 1, 0, _AUDIT_ARCH[arch]), (ret, 0, 0, deny | errno.EPERM),
               (ld, 0, 0, 0)]
    if arch == "x86_64":  # the x32 calling convention: refused whole
        program += [(jge, 0, 1, 0x40000000), (ret, 0, 0, deny | errno.EPERM)]
    for number, code in refused:
        program += [(jeq, 0, 1, number), (ret, 0, 0, deny | code)]
    # clone: a thread (CLONE_THREAD in its flags) may start, a process may not
    program += [(jeq, 0, 3, nr["clone"]), (ld, 0, 0, 16), (jset, 1, 0, _CLONE_THREAD),
                (ret, 0, 0, deny | errno.EPERM), (ret, 0, 0, allow)]
    return b"".join(struct.pack("HBBI", *op) for op in program)


def _seccomp(arch: str) -> None:
    libc = _libc()
    code = _filter(arch)
    filters = ctypes.create_string_buffer(code)
    program = struct.pack("HxxxxxxP", len(code) // 8, ctypes.addressof(filters))
    fprog = ctypes.create_string_buffer(program)
    if libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS (a filter needs it)
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")
    if libc.prctl(22, 2, ctypes.c_ulong(ctypes.addressof(fprog)), 0, 0) != 0:  # PR_SET_SECCOMP, MODE_FILTER
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_SECCOMP) failed")


def confine(reads, writes) -> dict:
    """Wall this process in (see the module docstring): ``reads`` and ``writes`` are the paths
    it may read and write.  Returns :func:`support`'s record of what is now enforced; a wall the
    kernel lacks is left out, never faked."""
    have = support()
    if have["landlock_abi"] >= 1:
        _landlock(readable(reads), writes, have["landlock_abi"])
    if have["seccomp"]:
        _seccomp(platform.machine())
    return have
