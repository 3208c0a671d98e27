# Runs a command on a pseudo-terminal for the kubeflare node agent's `exec -t` / `attach -t`: stdin (fd 0) goes to the
# terminal, the terminal's output to stdout (fd 1), and lines "<cols> <rows>" on fd 3 resize it (the kernel then
# signals SIGWINCH to the command). Exits with the command's exit code (128 + signal when it was killed).
# Python's standard library only: Node has no terminal of its own to give a child.
import fcntl
import os
import pty
import select
import struct
import sys
import termios


def main(argv):
    pid, master = pty.fork()
    if pid == 0:
        try:
            os.execvp(argv[0], argv)
        except OSError as e:
            sys.stderr.write('exec: "%s": %s\n' % (argv[0], e.strerror))
            os._exit(127)
    control = b''
    inputs = [0, master, 3]
    status = None
    while True:
        try:
            ready, _, _ = select.select(inputs, [], [], 0.2)
        except InterruptedError:
            continue
        if master in ready:
            try:
                data = os.read(master, 65536)
            except OSError:
                data = b''
            if data:
                os.write(1, data)
            else:
                inputs.remove(master)
        if 0 in ready:
            data = os.read(0, 65536)
            if data:
                os.write(master, data)
            else:
                inputs.remove(0)
                os.write(master, b'\x04')
        if 3 in ready:
            data = os.read(3, 4096)
            if not data:
                inputs.remove(3)
            control += data
            while b'\n' in control:
                line, control = control.split(b'\n', 1)
                try:
                    cols, rows = (int(x) for x in line.split())
                    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack('HHHH', rows, cols, 0, 0))
                except (ValueError, OSError):
                    pass
        if status is None:
            done, st = os.waitpid(pid, os.WNOHANG)
            if done:
                status = st
        if status is not None and master not in inputs:
            break
        if status is not None and not ready:
            break
    if os.WIFEXITED(status):
        return os.WEXITSTATUS(status)
    return 128 + os.WTERMSIG(status)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
