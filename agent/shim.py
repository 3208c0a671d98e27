# The container shim of the kubeflare node agent (what conmon or containerd-shim is to a kubelet): one per container
# run, in a session of its own, so the run outlives the agent that started it (kill -9, a crash, a restart). It starts
# the container's command in a session of its own too (on a pseudo-terminal for tty containers), under an init of
# its own in a PID namespace of its own where the agent asks for one (container_init), writes its output to the CRI
# log file itself, keeps its stdin open on a fifo the agent (this one or the next) writes into, takes resize and
# close-stdin orders on a control fifo, and when the command exits records the exit code and the finish time.
#
# usage: python3 -I -S shim.py '<json: command, dir, attempt, tty, stdin, mounts, security, netns, pidns, pidnsOf>'
#          (cwd and environment: the container's; pidnsOf: a pid whose PID namespace is joined, pidnsOfStart: its
#          start time, checked)
#        python3 -I -S shim.py --can-mount   (exit 0 when this host lets a command have a mount namespace of its own)
#        python3 -I -S shim.py --can-pidns   (exit 0 when it lets a command have a PID namespace with its own /proc)
#        python3 -I -S shim.py --pod-init <file>   (a pod's shared PID namespace: its holder's pid written to <file>)
#        python3 -I -S shim.py --become '<json: security>' command...   (exec as a container's user: kubectl exec)
# Files in dir, per run <n>: n.log (CRI log), n.run (json: shimPid, shimStart, pid, pidStart, startedAt ms; pid is the
# container's init when it has a PID namespace, see container_init),
# n.exit (json: exitCode, signal, finishedAt ms, or startError {code, message}), n.ctl and n.stdin (fifos).
# Once n.run (or n.exit for a command that cannot start) is written it prints one line on stdout and lets go of it.
# Python's standard library only, loaded with -S: about 5 MB per run where a Node process costs about 9 MB.
import errno
import fcntl
import json
import os
import select
import signal
import struct
import sys
import termios
import time

MAX_RECORD = 16 * 1024
# An unfinished line is written as a partial record once no more output came for this long (attach shows prompts).
PARTIAL_AFTER = 0.05
# After the command's exit, what its leftovers still write is read for at most this long.
DRAIN_SECONDS = 2.0


def now_ms():
    return time.time_ns() // 1_000_000


def rfc3339_nano(ns):
    seconds, frac = divmod(ns, 1_000_000_000)
    return time.strftime('%Y-%m-%dT%H:%M:%S', time.gmtime(seconds)) + '.%09dZ' % frac


def proc_start(pid):
    """The process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat): with the pid, its identity."""
    try:
        with open('/proc/%d/stat' % pid, 'rb') as f:
            stat = f.read()
        return int(stat[stat.rindex(b')') + 2:].split()[19])
    except (OSError, ValueError, IndexError):
        return 0


def write_json(path, value):
    tmp = path + '.tmp'
    with open(tmp, 'w') as f:
        json.dump(value, f)
        f.flush()
        os.fsync(f.fileno())
    os.rename(tmp, path)


class Log:
    """The CRI log of the run: '<time> <stream> <F|P> <text>' records, lines over 16 KiB split as containerd does."""

    def __init__(self, path):
        self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o644)
        self.pending = {'stdout': b'', 'stderr': b''}
        self.since = {'stdout': 0.0, 'stderr': 0.0}

    def record(self, stream, text, full):
        line = b'%s %s %s ' % (rfc3339_nano(time.time_ns()).encode(), stream.encode(), b'F' if full else b'P')
        os.write(self.fd, line + text + b'\n')

    def write(self, stream, data):
        text = self.pending[stream] + data
        lines = text.split(b'\n')
        for line in lines[:-1]:
            while len(line) > MAX_RECORD:
                self.record(stream, line[:MAX_RECORD], False)
                line = line[MAX_RECORD:]
            self.record(stream, line, True)
        rest = lines[-1]
        while len(rest) >= MAX_RECORD:
            self.record(stream, rest[:MAX_RECORD], False)
            rest = rest[MAX_RECORD:]
        if rest and not self.pending[stream]:
            self.since[stream] = time.monotonic()
        self.pending[stream] = rest

    def flush_partial(self, force=False):
        """Writes unfinished lines that waited long enough (all of them at the end, as full records)."""
        for stream, rest in self.pending.items():
            if rest and (force or time.monotonic() - self.since[stream] >= PARTIAL_AFTER):
                self.record(stream, rest, force)
                self.pending[stream] = b''

    def waiting(self):
        return any(self.pending.values())


def unlink(path):
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def make_fifo(path):
    unlink(path)
    os.mkfifo(path, 0o600)


# Volumes: a process has no filesystem of its own, so a container with mounts gets a private mount namespace (with a
# user namespace mapping the agent's own uid when it is not root) in which each volume is bind-mounted at its
# mountPath (read-only ones remounted so), just before the command is executed; exec enters it (nsenter).
CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18


def enter_mounts(mounts, new_user=True, proc=False):
    """In the forked child: a mount namespace of its own with every mount in place (raises OSError); with `proc`, a
    /proc of the PID namespace it is the init of. `new_user`: a user namespace with it when not root (none when the
    shim made one already, with the PID namespace: a nested one could not enter that)."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_void_p]

    def check(result, what):
        if result != 0:
            e = ctypes.get_errno()
            raise OSError(e, '%s: %s' % (what, os.strerror(e)))

    user = new_user and os.geteuid() != 0
    check(libc.unshare(CLONE_NEWNS | (CLONE_NEWUSER if user else 0)), 'unshare')
    if user:
        map_own_ids()
    # Nothing mounted here propagates back to the host.
    check(libc.mount(None, b'/', None, MS_REC | MS_PRIVATE, None), 'making / private')
    ordered = sorted(mounts, key=lambda m: m['target'].rstrip('/').count('/'))
    # Every source is held open before the first mount: a mountPath over the agent's data directory (an emptyDir at
    # /tmp with the agent's files under /tmp) would hide the sources bound after it.
    sources = [os.open(m['source'], os.O_PATH) for m in ordered]
    for m, fd in zip(ordered, sources):
        target = m['target'].encode()
        if stat_is_dir(fd):
            os.makedirs(target, exist_ok=True)
        elif not os.path.exists(target):
            os.makedirs(os.path.dirname(target) or b'/', exist_ok=True)
            os.close(os.open(target, os.O_WRONLY | os.O_CREAT, 0o644))
        check(libc.mount(b'/proc/self/fd/%d' % fd, target, None, MS_BIND | MS_REC, None),
              'mounting %s on %s' % (m['source'], m['target']))
        if m.get('readOnly'):
            # A remount keeps the flags the kernel locked on the source (nosuid, nodev, noexec) or it is refused.
            locked = os.statvfs(target).f_flag & (MS_NOSUID | MS_NODEV | MS_NOEXEC)
            check(libc.mount(None, target, None, MS_BIND | MS_REMOUNT | MS_RDONLY | locked, None),
                  'making %s read-only' % m['target'])
    for fd in sources:
        os.close(fd)
    if proc:
        # Last: the binds above name their sources through the host's /proc/self. What runs in the container (ps, an
        # exec's ls /proc) sees the container's processes only.
        check(libc.mount(b'proc', b'/proc', b'proc', MS_NOSUID | MS_NODEV | MS_NOEXEC, None), 'mounting /proc')


def map_own_ids():
    """Just after unsharing a user namespace: the caller's uid and gid mapped to themselves (it stays who it is)."""
    uid, gid = os.geteuid(), os.getegid()
    for name, text in (('setgroups', 'deny'), ('uid_map', '%d %d 1' % (uid, uid)), ('gid_map', '%d %d 1' % (gid, gid))):
        with open('/proc/self/' + name, 'w') as f:
            f.write(text)


# Pod network (--pod-network bridge): the command joins the pod's named network namespace before anything else.
CLONE_NEWNET = 0x40000000


def enter_netns(path):
    """In the forked child: joins the network namespace at `path` (raises OSError)."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    fd = os.open(path, os.O_RDONLY)
    try:
        if libc.setns(fd, CLONE_NEWNET) != 0:
            e = ctypes.get_errno()
            raise OSError(e, 'joining the pod network %s: %s' % (path, os.strerror(e)))
    finally:
        os.close(fd)


# A PID namespace per container (the agent asks for one where the host allows it): a process that leaves the
# container's process group (setsid, a daemon's double fork) stays in the namespace, and the kernel kills everything
# in it when its init dies, as a kubelet's runtime kills a container's cgroup. The shim unshares it (so its fork is
# the namespace's init), with a user namespace when not root (it keeps its uid, mapped to itself).
CLONE_NEWPID = 0x20000000
PR_SET_PDEATHSIG = 1
# What the init passes on to the container's command and its process group (tini's set, sent as tini -g sends it).
FORWARDED = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2,
             signal.SIGWINCH)


def unshare_pid():
    """In the shim, before its fork: the child it forks next is PID 1 of a new PID namespace (raises OSError)."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    user = os.geteuid() != 0
    if libc.unshare(CLONE_NEWPID | (CLONE_NEWUSER if user else 0)) != 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))
    if user:
        map_own_ids()


def join_pid(target, start=0):
    """In the shim, before its fork: the child it forks next joins the PID namespace of process `target` (an
    ephemeral container's target container, a shared pod's holder), through its user namespace when that is not ours
    (raises OSError). `start`: the target's start time when the agent planned the run; a pid that names another
    process by now (the target ended, its pid reused) is refused. The target is held by a pidfd, opened before its start
    time is checked, so the namespaces joined are that process's even if it ends meanwhile (setns through the pidfd,
    Linux 5.8; older: through /proc/<pid>/ns/*, opened once the pidfd showed the process alive, which keeps its pid)."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)

    def gone():
        return OSError(errno.ESRCH, 'the target process %d has ended' % target)

    pidfd = None
    try:
        pidfd = os.pidfd_open(target)
    except AttributeError:
        pass
    except OSError as e:
        if e.errno == errno.ESRCH:
            raise gone()
        if e.errno not in (errno.ENOSYS, errno.EPERM, errno.EINVAL):
            raise
    try:
        if start and proc_start(target) != start:
            raise gone()
        kinds = [(kind, flag) for kind, flag in (('user', CLONE_NEWUSER), ('pid', CLONE_NEWPID))
                 if os.readlink('/proc/%d/ns/%s' % (target, kind)) != os.readlink('/proc/self/ns/%s' % kind)]
        if not kinds:
            return
        if pidfd is not None:
            flags = 0
            for _, flag in kinds:
                flags |= flag
            if libc.setns(pidfd, flags) == 0:
                return
            e = ctypes.get_errno()
            # EINVAL: a kernel that takes namespace files only (before 5.8); else, why it failed.
            if e != errno.EINVAL:
                raise OSError(e, os.strerror(e))
        fds = [(os.open('/proc/%d/ns/%s' % (target, kind), os.O_RDONLY), flag) for kind, flag in kinds]
        try:
            # Opened while the target lived (its pid is not given to another process before it is reaped), or, with
            # no pidfd, while the pid still had the target's start time.
            if not alive(pidfd) or (start and proc_start(target) != start):
                raise gone()
            for fd, flag in fds:
                if libc.setns(fd, flag) != 0:
                    e = ctypes.get_errno()
                    raise OSError(e, os.strerror(e))
        finally:
            for fd, _ in fds:
                os.close(fd)
    finally:
        if pidfd is not None:
            os.close(pidfd)


def alive(pidfd):
    """Whether the process of a pidfd has not been reaped (true without a pidfd: nothing to ask)."""
    if pidfd is None:
        return True
    try:
        signal.pidfd_send_signal(pidfd, 0)
        return True
    except AttributeError:
        return True
    except OSError:
        return False


def die_with_parent(sig=signal.SIGKILL):
    """A run whose shim is gone is lost (nobody reads its output or records its end; the next agent kills it): the
    container's init goes with its shim at once, and the namespace with it, also before the run was recorded. (`sig`:
    the signal the parent's death sends; a joining init's is one it handles, see container_init.)"""
    import ctypes

    ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, ctypes.c_ulong(sig), ctypes.c_ulong(0), ctypes.c_ulong(0),
                            ctypes.c_ulong(0))


# What a joining init is sent when its shim dies (one the agent never sends, and not among FORWARDED): it ends every
# process below it before it goes, since its own death ends nothing in a namespace that is not its.
SHIM_GONE = signal.SIGRTMIN + 1


def container_init(argv, tty, err_w, status_w, joined=False):
    """The container's init (PID 1 of its PID namespace, in its mounts, as its user; never returns): forks the main
    process in a process group of its own (the terminal's foreground group for a tty), passes on the signals the
    agent sends (SIGTERM to stop), reaps whatever is orphaned to it, and once the main process is gone writes its wait
    status on `status_w` and exits: the kernel then kills everything left in the namespace. The container's exit is
    its main process's; a SIGKILL to the init (the grace period's end) is the whole container's.
    `joined`: in another container's namespace (an ephemeral container's target), where its end kills nothing: the
    main process stays in the init's group (the agent's signals reach both; the init ignores them), the init is the
    subreaper of what the main process leaves and SIGKILLs it once the main process has ended; its shim's death
    (SHIM_GONE) has it SIGKILL everything below it first, and the main process dies with the init (a parent-death
    SIGKILL). The agent's SIGKILL at a stop's end takes what is below the init before the init (process-tree.ts:
    killTree)."""
    signal.set_wakeup_fd(-1)
    # Again: a change of user (become) clears it.
    die_with_parent(SHIM_GONE if joined else signal.SIGKILL)
    # The shim's own descriptors, which an exec would have closed: held here, the stdin fifo the shim opened for
    # writing would keep the container from ever reading its end (stdinOnce), and the log, terminal and control
    # fifos would stay open after the shim let go of them.
    for name in os.listdir('/proc/self/fd'):
        if int(name) > 2 and int(name) not in (err_w, status_w):
            try:
                os.close(int(name))
            except OSError:
                pass
    signal.pthread_sigmask(signal.SIG_BLOCK, FORWARDED + (SHIM_GONE,))
    if joined:
        hold_orphans()
    init = os.getpid()
    main = os.fork()
    if main == 0:
        try:
            if joined:
                # The command goes with its init (a SIGKILL to the init alone, SHIM_GONE's end): in a namespace
                # that is not its own nothing else would end it.
                die_with_parent()
                if os.getppid() != init:
                    os._exit(127)
            else:
                os.setpgid(0, 0)
            if tty and not joined:
                # Taking the terminal from the background would stop us with SIGTTOU.
                signal.signal(signal.SIGTTOU, signal.SIG_IGN)
                os.tcsetpgrp(0, os.getpgrp())
                signal.signal(signal.SIGTTOU, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_SETMASK, [])
            os.execvpe(argv[0], argv, os.environ)
        except OSError as e:
            os.write(err_w, str(e.errno).encode())
        os._exit(127)
    os.close(err_w)

    # To the command's process group, as the agent signals a container without a namespace (tini's -g): a wrapper
    # shell's children get the stop's SIGTERM and their grace period too, instead of a SIGKILL from the kernel when the
    # shell, and with it the init, ends.
    def forward(sig, _frame):
        try:
            os.killpg(main, sig)
        except OSError:
            try:
                os.kill(main, sig)
            except OSError:
                pass

    def shim_gone(_sig, _frame):
        # Nobody is left to record the run, nor to stop it: it ends now, all of it.
        kill_orphans()
        os._exit(0)

    for sig in FORWARDED:
        signal.signal(sig, signal.SIG_IGN if joined else forward)
    if joined:
        signal.signal(SHIM_GONE, shim_gone)
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    while True:
        try:
            pid, status = os.waitpid(-1, 0)
        except ChildProcessError:
            os._exit(0)
        if pid == main:
            if joined:
                kill_orphans()
            os.write(status_w, str(status).encode())
            os._exit(0)


# Without a PID namespace (the host refuses one, or a hostPID pod): the shim is its command's child subreaper, so what
# leaves the command's process group (setsid, a daemon's double fork) is reparented to the shim instead of the host's
# init, reaped by it, and killed once the command has ended. What a dead shim leaves is beyond reach then, as before.
# (A container's init in a namespace it joins, where it is not PID 1, is its command's subreaper the same way.)
PR_SET_CHILD_SUBREAPER = 36


def hold_orphans():
    """This process becomes the reaper of its descendants' orphans."""
    import ctypes

    # Off Linux there is no prctl (nor /proc): the command runs as a plain process group, as it did before.
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_CHILD_SUBREAPER, ctypes.c_ulong(1), ctypes.c_ulong(0), ctypes.c_ulong(0), ctypes.c_ulong(0))
    except (AttributeError, OSError):
        pass


def descendants(root):
    """The pids below `root` (its children, theirs, ...) that have not ended, from /proc (as this process sees it)."""
    below, found = {}, []
    try:
        names = os.listdir('/proc')
    except OSError:
        return found
    for name in names:
        if name.isdigit():
            try:
                with open('/proc/%s/stat' % name, 'rb') as f:
                    stat = f.read()
                fields = stat[stat.rindex(b')') + 2:].split()
                if fields[0] != b'Z':
                    below.setdefault(int(fields[1]), []).append(int(name))
            except (OSError, ValueError, IndexError):
                pass
    todo = [root]
    while todo:
        for kid in below.get(todo.pop(), ()):
            found.append(kid)
            todo.append(kid)
    return found


def kill_orphans():
    """SIGKILLs what is left below this process (what the command left to it, and what those started), reaping them
    (at most 1 s). What a killed process started meanwhile is orphaned to this process, the subreaper: found next."""
    for _ in range(100):
        kids = descendants(os.getpid())
        if not kids:
            return
        for kid in kids:
            try:
                os.kill(kid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.01)
        reap()


def reap():
    """Reaps every child that has ended; answers them with their wait statuses."""
    ended = {}
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return ended
        if not pid:
            return ended
        ended[pid] = status


def pod_init(path):
    """shareProcessNamespace: the pod's PID namespace, held by a process of its own (what the pause container is to
    kube's): PID 1 there, reaping what the containers joining it leave, until the agent kills it with the pod (the
    kernel then kills everything in it). Writes {pid, pidStart} to `path` and returns; the holder lives on."""
    unshare_pid()
    pid = os.fork()
    if pid == 0:
        os.setsid()
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        for name in os.listdir('/proc/self/fd'):
            if int(name) > 2:
                try:
                    os.close(int(name))
                except OSError:
                    pass
        os.chdir('/')
        signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGCHLD])
        while True:
            reap()
            signal.sigwaitinfo([signal.SIGCHLD])
    write_json(path, {'pid': pid, 'pidStart': proc_start(pid)})
    return 0


def can_pidns():
    """Whether a command can have a PID namespace of its own with its /proc here (asked once, like can_mount)."""
    pid = os.fork()
    if pid == 0:
        try:
            unshare_pid()
            init = os.fork()
            if init == 0:
                try:
                    enter_mounts([], new_user=False, proc=True)
                    os._exit(0 if os.getpid() == 1 else 1)
                except Exception:
                    os._exit(1)
            os._exit(os.WEXITSTATUS(os.waitpid(init, 0)[1]))
        except Exception:
            os._exit(1)
    return 0 if os.WEXITSTATUS(os.waitpid(pid, 0)[1]) == 0 else 1


def stat_is_dir(fd):
    import stat

    return stat.S_ISDIR(os.fstat(fd).st_mode)


def can_mount():
    """Whether a child can enter a mount namespace of its own here (the agent asks once, before using one)."""
    pid = os.fork()
    if pid == 0:
        try:
            enter_mounts([])
            os._exit(0)
        except Exception:
            os._exit(1)
    return 0 if os.WEXITSTATUS(os.waitpid(pid, 0)[1]) == 0 else 1


# securityContext, as a host process can take it (agent/runtime/process-security.ts decides what is asked):
# the bounding set without the dropped capabilities, the groups, the group, the user, then no_new_privs.
PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS = 24, 38
SECURITY = None


def become(security):
    """In the forked child, last before exec: the container's user, groups and privileges (raises OSError)."""
    if not security:
        return
    # os.execvpe imports this lazily: the new user may not be able to read the interpreter's library (under /root).
    # (--become; a container's run has it loaded before its mounts: spawn.)
    import warnings  # noqa: F401
    drop, no_new_privs = security.get('dropCaps') or [], bool(security.get('noNewPrivs'))
    if drop or no_new_privs:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)

        def prctl(option, arg):
            if libc.prctl(option, ctypes.c_ulong(arg), ctypes.c_ulong(0), ctypes.c_ulong(0), ctypes.c_ulong(0)) != 0:
                e = ctypes.get_errno()
                # A capability this kernel does not know is not there to drop.
                if not (option == PR_CAPBSET_DROP and e == errno.EINVAL):
                    raise OSError(e, os.strerror(e))

        for cap in drop:
            prctl(PR_CAPBSET_DROP, cap)
    if 'groups' in security:
        os.setgroups(security['groups'])
    if 'gid' in security:
        os.setgid(security['gid'])
    if 'uid' in security:
        os.setuid(security['uid'])
    if no_new_privs:
        prctl(PR_SET_NO_NEW_PRIVS, 1)


def run_as(security, argv):
    """--become: a command run as a container runs (exec into it), replacing this process."""
    try:
        become(security)
        os.execvp(argv[0], argv)
    except OSError as e:
        sys.stderr.write('%s: %s\n' % (argv[0] if argv else 'exec', e.strerror or e))
        return 127


def spawn(argv, tty, stdin_fd, mounts=None, netns=None, pidns=False, joined=False):
    """Forks the command in a session of its own (with `pidns`, the container's init in a new PID namespace, which
    forks the command: container_init); answers (pid: the command's or the init's, output fds by stream, terminal fd,
    exec failure: an errno, or the text of a failed mount, the fd the init writes the command's wait status on)."""
    # What the child imports after its mounts are in place, loaded now: a volume mounted over the interpreter's own
    # library (an emptyDir at /root, where pyenv keeps it) would hide it there (os.execvpe imports warnings).
    import warnings  # noqa: F401
    if SECURITY and (SECURITY.get('dropCaps') or SECURITY.get('noNewPrivs')):
        import ctypes  # noqa: F401
    err_r, err_w = os.pipe()
    status_r, status_w = os.pipe() if pidns else (None, None)
    if tty:
        import pty

        pid, master = pty.fork()
        outputs = {'stdout': master}
    else:
        out_r, out_w = os.pipe()
        errout_r, errout_w = os.pipe()
        pid = os.fork()
        master = None
        outputs = {'stdout': out_r, 'stderr': errout_r}
    if pid == 0:
        try:
            if pidns:
                die_with_parent()
            if not tty:
                os.setsid()
                os.dup2(stdin_fd if stdin_fd is not None else os.open(os.devnull, os.O_RDONLY), 0)
                os.dup2(out_w, 1)
                os.dup2(errout_w, 2)
            for sig in (signal.SIGPIPE, signal.SIGHUP, signal.SIGINT, signal.SIGTERM, signal.SIGCHLD):
                signal.signal(sig, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_SETMASK, [])
            if netns:
                try:
                    enter_netns(netns)
                except OSError as e:
                    os.write(err_w, b'M' + str(e.strerror).encode())
                    os._exit(127)
            if mounts or pidns:
                try:
                    enter_mounts(mounts or [], new_user=not pidns, proc=pidns)
                except OSError as e:
                    where = e.filename.decode() if isinstance(e.filename, bytes) else e.filename
                    os.write(err_w, b'M' + ('%s: %s' % (e.strerror, where) if where else str(e.strerror)).encode())
                    os._exit(127)
            try:
                become(SECURITY)
            except OSError as e:
                os.write(err_w, b'M' + ('securityContext: %s' % e.strerror).encode())
                os._exit(127)
            if pidns:
                os.close(status_r)
                container_init(argv, tty, err_w, status_w, joined)
            os.execvpe(argv[0], argv, os.environ)
        except OSError as e:
            os.write(err_w, str(e.errno).encode())
        os._exit(127)
    os.close(err_w)
    if status_w is not None:
        os.close(status_w)
    if not tty:
        os.close(out_w)
        os.close(errout_w)
    failure = b''
    while True:
        chunk = os.read(err_r, 64)
        if not chunk:
            break
        failure += chunk
    os.close(err_r)
    if failure.startswith(b'M'):
        return pid, outputs, master, failure[1:].decode(errors='replace'), status_r
    return pid, outputs, master, int(failure) if failure else 0, status_r


def main_status(status, status_r):
    """The container's wait status: its main process's, as its init wrote it, else (no init, or the init was killed:
    the whole container) the one waited for."""
    if status_r is None:
        return status
    written = b''
    while True:
        chunk = os.read(status_r, 64)
        if not chunk:
            break
        written += chunk
    os.close(status_r)
    return int(written) if written else status


def main(spec):
    global SECURITY
    SECURITY = spec.get('security')
    prefix = os.path.join(spec['dir'], str(spec['attempt']))
    tty = bool(spec.get('tty'))
    wants_stdin = bool(spec.get('stdin'))
    for sig in (signal.SIGHUP, signal.SIGINT, signal.SIGPIPE):
        signal.signal(sig, signal.SIG_IGN)
    log = Log(prefix + '.log')
    make_fifo(prefix + '.ctl')
    ctl = os.open(prefix + '.ctl', os.O_RDWR | os.O_NONBLOCK)
    # stdin: the shim holds the fifo open for writing, so the command sees no end while clients come and go.
    keep = child_in = None
    if wants_stdin:
        make_fifo(prefix + '.stdin')
        keep = os.open(prefix + '.stdin', os.O_RDWR | os.O_NONBLOCK)
        if not tty:
            child_in = os.open(prefix + '.stdin', os.O_RDONLY)
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    started_at = now_ms()
    target = spec.get('pidnsOf')
    pidns = bool(spec.get('pidns')) or bool(target)
    try:
        if target:
            join_pid(target, spec.get('pidnsOfStart') or 0)
        elif pidns:
            unshare_pid()
    except OSError as e:
        what = 'joining the target container\'s' if target else 'creating the container\'s'
        return start_failed(prefix, spec, 'SHIM', '%s PID namespace: %s' % (what, e.strerror))
    if not pidns:
        hold_orphans()
    pid, outputs, master, failure, status_r = spawn(spec['command'], tty, child_in, spec.get('mounts'),
                                                    spec.get('netns'), pidns, bool(target))
    if master is not None:
        # Input goes to the terminal only as fast as it takes it: a blocking write to a full terminal (a container
        # that does not read its stdin) would stop the shim for good, its exit never recorded.
        os.set_blocking(master, False)
    if child_in is not None:
        os.close(child_in)
    if failure:
        os.waitpid(pid, 0)
        mount_failed = isinstance(failure, str)
        message = failure if mount_failed else os.strerror(failure)
        code = 'MOUNT' if mount_failed else errno.errorcode.get(failure, str(failure))
        return start_failed(prefix, spec, code, message)
    write_json(prefix + '.run', {
        'shimPid': os.getpid(),
        'shimStart': proc_start(os.getpid()),
        'pid': pid,
        'pidStart': proc_start(pid),
        'startedAt': started_at,
    })
    tell_agent('started')
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 1)
    # SIGTERM to the shim (a host shutting down) goes to the command; the shim stays to record its exit.
    signal.signal(signal.SIGTERM, lambda *_: kill_group(pid, signal.SIGTERM))

    status = None
    finished_at = 0
    drain_until = None
    control = b''
    # Input read from the stdin fifo that the terminal has not taken yet (tty only); none is read while some waits.
    to_tty = b''
    # Until the command has exited and its output is read to the end (or DRAIN_SECONDS have passed).
    while status is None or (outputs and time.monotonic() < drain_until):
        feeding = tty and status is None
        inputs = list(outputs.values()) + [wake_r, ctl] + ([keep] if feeding and keep is not None and not to_tty else [])
        timeout = PARTIAL_AFTER if log.waiting() else 1.0
        if drain_until is not None:
            timeout = max(0.0, min(timeout, drain_until - time.monotonic()))
        try:
            ready, _, _ = select.select(inputs, [master] if feeding and to_tty else [], [], timeout)
        except InterruptedError:
            continue
        for stream, fd in list(outputs.items()):
            if fd in ready:
                try:
                    data = os.read(fd, 65536)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b''
                if data:
                    log.write(stream, data)
                else:
                    del outputs[stream]
        if wake_r in ready:
            os.read(wake_r, 512)
        if ctl in ready:
            try:
                control += os.read(ctl, 4096)
            except BlockingIOError:
                pass
            while b'\n' in control:
                line, control = control.split(b'\n', 1)
                held = keep
                if master is not None and held is not None and line.split() == [b'close-stdin']:
                    # What the client wrote before it closed stdin is the terminal's, ahead of its EOF.
                    to_tty += drain(held)
                keep = order(line.split(), master, keep, prefix + '.stdin')
                if held is not None and keep is None and master is not None:
                    # A terminal's end of input is its EOF character, after what input waits.
                    to_tty += b'\x04'
        if feeding and keep is not None and keep in ready:
            try:
                to_tty += os.read(keep, 65536)
            except BlockingIOError:
                pass
        if feeding and to_tty:
            try:
                to_tty = to_tty[os.write(master, to_tty):]
            except BlockingIOError:
                pass
            except OSError:
                to_tty = b''
        # The command, and (no PID namespace) what it left to the shim as they end.
        ended = reap()
        if status is None and pid in ended:
            status = main_status(ended[pid], status_r)
            finished_at = now_ms()
            # The container ends with its main process, as a runtime kills the rest of its cgroup (with a PID
            # namespace, the kernel has done so as its init ended).
            kill_group(pid, signal.SIGKILL)
            kill_orphans()
            drain_until = time.monotonic() + DRAIN_SECONDS
        log.flush_partial()
    log.flush_partial(force=True)
    result = {'finishedAt': finished_at}
    if os.WIFSIGNALED(status):
        result['exitCode'] = 128 + os.WTERMSIG(status)
        result['signal'] = os.WTERMSIG(status)
    else:
        result['exitCode'] = os.WEXITSTATUS(status)
    for fifo in ('.ctl', '.stdin'):
        unlink(prefix + fifo)
    write_json(prefix + '.exit', result)
    return 0


def start_failed(prefix, spec, code, message):
    """The command never ran: its start error recorded as the run's exit."""
    for fifo in ('.ctl', '.stdin'):
        unlink(prefix + fifo)
    write_json(prefix + '.exit', {
        'exitCode': 128,
        'finishedAt': now_ms(),
        'startError': {'code': code, 'message': message, 'command': spec['command'][0] if spec['command'] else ''},
    })
    tell_agent('failed')
    return 0


def order(words, master, keep, stdin_fifo):
    """One line of the control fifo: 'resize <cols> <rows>' or 'close-stdin'; answers the stdin holder left."""
    if len(words) == 3 and words[0] == b'resize' and master is not None:
        try:
            cols, rows = int(words[1]), int(words[2])
            fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack('HHHH', rows, cols, 0, 0))
        except (ValueError, OSError):
            pass
    elif words == [b'close-stdin'] and keep is not None:
        os.close(keep)
        # Closed for good (stdinOnce): a later client, of this agent or the next, finds no stdin to open.
        unlink(stdin_fifo)
        return None
    return keep


def drain(fd):
    """Everything a non-blocking fd holds now."""
    out = b''
    while True:
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            return out
        if not chunk:
            return out
        out += chunk


def tell_agent(line):
    """One line to the agent that started us, which may be gone already."""
    try:
        os.write(1, line.encode() + b'\n')
    except OSError:
        pass


def kill_group(pid, sig):
    try:
        os.killpg(pid, sig)
    except OSError:
        pass


if __name__ == '__main__':
    if sys.argv[1:2] == ['--become']:
        sys.exit(run_as(json.loads(sys.argv[2]), sys.argv[3:]))
    if sys.argv[1:] == ['--can-mount']:
        sys.exit(can_mount())
    if sys.argv[1:] == ['--can-pidns']:
        sys.exit(can_pidns())
    if sys.argv[1:2] == ['--pod-init']:
        sys.exit(pod_init(sys.argv[2]))
    sys.exit(main(json.loads(sys.argv[1])))
