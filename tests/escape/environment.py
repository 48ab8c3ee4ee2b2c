# Escape attempts: the host's environment, processes and network. Inputs: canary_env (the name of an
# environment variable holding a secret in the host), canary_dir (must stay empty but for the canary
# file), port (a loopback listener that must see no connection).
# attempt: os-environ
import os
return dict(os.environ)
# attempt: os-getenv
import os
return os.getenv(canary_env)
# attempt: os-environb
import os
return str(os.environb)
# attempt: posix-environ
posix = __import__("posix")
return str(getattr(posix, "environ", None))
# attempt: proc-environ
return open("/proc/self/environ", "rb").read().decode("latin-1")
# attempt: proc-parent-environ
import os
return open(f"/proc/{os.getppid()}/environ", "rb").read().decode("latin-1")
# attempt: proc-mem
return open("/proc/self/mem", "rb").read(10)
# attempt: os-system
import os
return os.system(f"touch {canary_dir}/pwned")
# attempt: os-popen
import os
return os.popen("env").read()
# attempt: subprocess
import subprocess
return subprocess.run(["env"], capture_output=True).stdout.decode()
# attempt: os-fork
import os
return os.fork()
# attempt: os-exec
import os
os.execv("/bin/sh", ["sh", "-c", f"touch {canary_dir}/pwned"])
# attempt: posixsubprocess
m = __import__("_posixsubprocess")
return str(m)
# attempt: multiprocessing
import multiprocessing
return str(multiprocessing.Process)
# attempt: pty
import pty
return pty.spawn("sh")
# attempt: os-kill-parent
import os
os.kill(os.getppid(), 9)
return "killed"
# attempt: signal
import signal
signal.signal(signal.SIGTERM, lambda *a: None)
return "handler"
# attempt: socket
import socket
s = socket.create_connection(("127.0.0.1", port))
return "connected"
# attempt: underscore-socket
m = __import__("_socket")
return str(m)
# attempt: urllib
import urllib.request
return urllib.request.urlopen(f"http://127.0.0.1:{port}/").read()
# attempt: http-client
import http.client
c = http.client.HTTPConnection("127.0.0.1", port)
c.request("GET", "/")
return "sent"
# attempt: asyncio-connection
import asyncio
reader, writer = await asyncio.open_connection("127.0.0.1", port)
return "connected"
# attempt: select
import select
return str(select.select)
# attempt: ctypes
import ctypes
return ctypes.string_at(id(1), 64)
# attempt: underscore-ctypes
m = __import__("_ctypes")
return str(m)
# attempt: thread-start
import _thread
_thread.start_new_thread(lambda: None, ())
return "started"
# attempt: threading
import threading
t = threading.Thread(target=lambda: None)
t.start()
return "started"
# attempt: os-exit
import os
os._exit(3)
# attempt: sys-exit
import sys
sys.exit(3)
# attempt: atexit
import atexit
atexit.register(lambda: open(canary_dir + "/pwned", "w"))
return "registered"
