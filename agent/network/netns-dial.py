# Connects to 127.0.0.1:<port> inside a pod's network namespace, as kubelet's port-forward does, and relays the
# connection over stdin/stdout (a half-close each way); a failed dial prints its errno name on stderr and exits 1.
# usage: python3 -I -S netns-dial.py /var/run/netns/<name> <port>
import ctypes
import errno
import os
import select
import socket
import sys

CLONE_NEWNET = 0x40000000


def main(path, port):
    libc = ctypes.CDLL(None, use_errno=True)
    fd = os.open(path, os.O_RDONLY)
    if libc.setns(fd, CLONE_NEWNET) != 0:
        e = ctypes.get_errno()
        sys.stderr.write('setns %s: %s\n' % (path, os.strerror(e)))
        return 1
    os.close(fd)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.connect(('127.0.0.1', port))
    except OSError as e:
        sys.stderr.write('%s\n' % errno.errorcode.get(e.errno, str(e)))
        return 1
    sys.stderr.write('CONNECTED\n')
    sys.stderr.flush()
    inp, out = sys.stdin.buffer.raw.fileno(), sys.stdout.buffer.raw.fileno()
    reading = [inp, sock]
    while reading:
        ready, _, _ = select.select(reading, [], [])
        for r in ready:
            if r is sock:
                data = sock.recv(65536)
                if not data:
                    reading.remove(sock)
                    os.close(out)
                    continue
                view = memoryview(data)
                while view:
                    view = view[os.write(out, view):]
            else:
                data = os.read(inp, 65536)
                if not data:
                    reading.remove(inp)
                    sock.shutdown(socket.SHUT_WR)
                    continue
                sock.sendall(data)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1], int(sys.argv[2])))
