# A Grip bot that, before it says READY, tries the doors around the
# sandbox and says on stderr what it got: "GOT THROUGH <door>: ..." for
# each that opened, "refused <door>: ..." for the others. Then it plays N.
import ctypes, fcntl, glob, os, socket, sys, termios, time

def report(door, ok, what):
    print(('GOT THROUGH ' if ok else 'refused ') + door + ': ' + what, file=sys.stderr, flush=True)

# The teacher's desktop sockets: X servers, the session bus.
# Listing the folders may be refused where connecting is not: the usual
# names are tried as well.
paths = glob.glob('/tmp/.X11-unix/X*') + glob.glob('/run/user/*/bus') + glob.glob('/tmp/ringside-e2e-run*/bus')
paths += ['/tmp/.X11-unix/X%d' % n for n in range(200)] + ['/run/user/%d/bus' % u for u in (0, 1000, 65534)]
if os.environ.get('XDG_RUNTIME_DIR'):
    paths.append(os.path.join(os.environ['XDG_RUNTIME_DIR'], 'bus'))
seen = 0
for p in sorted(set(paths)):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(p)
        s.sendall(b'ringside-e2e snoop\n')
        report('socket', True, p)
    except FileNotFoundError:
        continue
    except OSError as e:
        report('socket', False, '%s: %s' % (p, e))
    finally:
        s.close()
    seen += 1
if seen == 0:
    report('socket', False, 'no socket of the desktop to be seen')

# SysV shared memory with a fixed key: a blackboard for every bot that
# knows the key, across seats and games.
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
KEY = 0x52534532
me = ('seat-%d-%d' % (os.getpid(), time.time_ns())).encode()
shmid = libc.shmget(KEY, 4096, 0o1000 | 0o666)  # IPC_CREAT
if shmid < 0:
    report('shm', False, 'shmget: %s' % os.strerror(ctypes.get_errno()))
else:
    addr = libc.shmat(shmid, None, 0)
    if addr in (None, ctypes.c_void_p(-1).value):
        report('shm', False, 'shmat: %s' % os.strerror(ctypes.get_errno()))
    else:
        ctypes.memmove(addr, me + b'\0', len(me) + 1)
        for _ in range(20):
            time.sleep(0.05)
            got = ctypes.string_at(addr)
            if got and got != me:
                report('shm', True, 'read another bot\'s %r' % got)
                break
        else:
            report('shm', False, 'no other bot wrote on the blackboard')
        libc.shmdt(ctypes.c_void_p(addr))

# inotify: the teacher's limit is per user, across user namespaces.
fds = []
for _ in range(127):
    fd = libc.inotify_init1(0)
    if fd < 0:
        break
    fds.append(fd)
report('inotify', len(fds) >= 100, '%d instances' % len(fds))

# TIOCSTI: type into whatever terminal the bot can reach.
ttys = []
try:
    ttys.append(('/dev/tty', os.open('/dev/tty', os.O_RDWR)))
except OSError as e:
    report('tiocsti', False, '/dev/tty: %s' % e)
for fd in (0, 1, 2):
    ttys.append(('fd %d' % fd, fd))
for name, fd in ttys:
    try:
        fcntl.ioctl(fd, termios.TIOCSTI, b'#')
        report('tiocsti', True, name)
    except OSError as e:
        report('tiocsti', False, '%s: %s' % (name, e))

print('READY', flush=True)
for line in sys.stdin:
    if line.strip() == 'EOD':
        print('N', flush=True)
