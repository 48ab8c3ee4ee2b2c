"""toolplane's `os`: path helpers and constants, with no host access.

The sandbox has no filesystem, environment, processes or network. `os.environ` is empty and every
function that would touch the host raises PermissionError; `os.path` (posixpath) works on strings.
Shipped so that stdlib modules that import os (dataclasses, random, logging, traceback, ...) work.
"""

import sys as _sys
import abc as _abc

name = "posix"
sep = "/"
altsep = None
curdir = "."
pardir = ".."
extsep = "."
pathsep = ":"
linesep = "\n"
defpath = "/bin:/usr/bin"
devnull = "/dev/null"
F_OK, R_OK, W_OK, X_OK = 0, 4, 2, 1
SEEK_SET, SEEK_CUR, SEEK_END = 0, 1, 2
O_RDONLY, O_WRONLY, O_RDWR, O_CREAT, O_EXCL, O_TRUNC, O_APPEND = 0, 1, 2, 64, 128, 512, 1024

_sys.modules["posix"] = _sys.modules[__name__]

environ = {}
environb = {}
supports_dir_fd = set()
supports_effective_ids = set()
supports_fd = set()
supports_follow_symlinks = set()
supports_bytes_environ = False


def getenv(key, default=None):
    return environ.get(key, default)


def getenvb(key, default=None):
    return environb.get(key, default)


def fspath(path):
    if isinstance(path, (str, bytes)):
        return path
    path_type = type(path)
    try:
        result = path_type.__fspath__(path)
    except AttributeError:
        raise TypeError("expected str, bytes or os.PathLike object, not " + path_type.__name__) from None
    if isinstance(result, (str, bytes)):
        return result
    raise TypeError(f"expected {path_type.__name__}.__fspath__() to return str or bytes, not {type(result).__name__}")


def fsencode(filename):
    filename = fspath(filename)
    return filename.encode("utf-8", "surrogateescape") if isinstance(filename, str) else filename


def fsdecode(filename):
    filename = fspath(filename)
    return filename.decode("utf-8", "surrogateescape") if isinstance(filename, bytes) else filename


class PathLike(_abc.ABC):
    @_abc.abstractmethod
    def __fspath__(self):
        raise NotImplementedError

    @classmethod
    def __subclasshook__(cls, subclass):
        return hasattr(subclass, "__fspath__")


def urandom(n):
    import _random

    if n < 0:
        raise ValueError("negative argument not allowed")
    return _random.Random().getrandbits(8 * n).to_bytes(n, "little") if n else b""


def getpid():
    """The sandbox has no process identity; a fixed value keeps logging and friends working."""
    return 1


def cpu_count():
    return 1


def register_at_fork(**_callbacks):
    pass


def _unavailable(func_name):
    def unavailable(*args, **kwargs):
        raise PermissionError(
            f"os.{func_name} is not available in the toolplane sandbox: there is no host filesystem, "
            "environment or process access (use save_artifact/load_artifact for files)"
        )

    unavailable.__name__ = func_name
    return unavailable


for _name in (
    "access chdir chmod chown chroot close dup dup2 execv execve fchdir fork fstat fsync getcwd getcwdb getlogin "
    "getppid getuid geteuid getgid getegid kill killpg link listdir lseek lstat makedirs mkdir mkfifo open pipe "
    "popen putenv read readlink remove removedirs rename renames replace rmdir scandir setsid stat statvfs symlink "
    "system truncate umask uname unlink unsetenv utime wait waitpid walk write spawnv spawnve startfile nice "
    "times sync abort _exit"
).split():
    globals()[_name] = _unavailable(_name)
del _name


error = OSError


class stat_result(tuple):
    """Present for isinstance checks; nothing in the sandbox produces one."""


class DirEntry:
    """Present for isinstance checks; os.scandir is unavailable."""


class terminal_size(tuple):
    pass


def get_terminal_size(fd=1):
    return terminal_size((80, 24))

import posixpath as path  # noqa: E402  (posixpath imports os: this module must exist first)

_sys.modules["os.path"] = path
