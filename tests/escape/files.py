# Escape attempts: the host's files. Inputs: canary_path (a file holding the secret), canary_dir
# (must stay empty but for it). Every attempt returns what it got; the test checks the secret never
# shows and nothing is written.
# attempt: open-read
return open(canary_path).read()
# attempt: open-binary
return open(canary_path, "rb").read().decode()
# attempt: open-write
with open(canary_dir + "/pwned", "w") as f:
    f.write("x")
return "wrote"
# attempt: io-open
import io
return io.open(canary_path).read()
# attempt: io-fileio
import io
return io.FileIO(canary_path).read().decode()
# attempt: io-fileio-fd
import io
return [io.FileIO(fd, closefd=False).read(100).decode("latin-1") for fd in range(0, 12)]
# attempt: io-open-code
import io
return io.open_code(canary_path).read().decode()
# attempt: underscore-io
_io = __import__("_io")
return _io.FileIO(canary_path).read().decode()
# attempt: builtins-module-open
import builtins
return builtins.open(canary_path).read()
# attempt: builtins-dict-open
b = __builtins__ if isinstance(__builtins__, dict) else __builtins__.__dict__
return b["open"](canary_path).read()
# attempt: pathlib
import pathlib
return pathlib.Path(canary_path).read_text()
# attempt: pathlib-write
import pathlib
pathlib.Path(canary_dir, "pwned").write_text("x")
return "wrote"
# attempt: os-open-read
import os
fd = os.open(canary_path, os.O_RDONLY)
return os.read(fd, 100).decode()
# attempt: os-listdir
import os
return os.listdir(canary_dir)
# attempt: os-scandir
import os
return [e.name for e in os.scandir(canary_dir)]
# attempt: os-stat
import os
return os.stat(canary_path).st_size
# attempt: os-mkdir
import os
os.mkdir(canary_dir + "/made")
return "made"
# attempt: os-remove
import os
os.remove(canary_path)
return "removed"
# attempt: codecs-open
import codecs
return codecs.open(canary_path).read()
# attempt: linecache
import linecache
return linecache.getlines(canary_path)
# attempt: tokenize-open
import tokenize
return tokenize.open(canary_path).read()
# attempt: gzip-open
import gzip
return gzip.open(canary_path).read().decode()
# attempt: bz2-lzma-open
import bz2, lzma
out = []
for mod in (bz2, lzma):
    try:
        out.append(mod.open(canary_path).read())
    except Exception as e:
        out.append(type(e).__name__)
return str(out)
# attempt: shutil-copy
import shutil
shutil.copy(canary_path, canary_dir + "/copy")
return "copied"
# attempt: tempfile
import tempfile
return tempfile.mkstemp(dir=canary_dir)
# attempt: sqlite
import sqlite3
sqlite3.connect(canary_dir + "/x.db").execute("create table t(x)")
return "db"
# attempt: logging-filehandler
import logging
h = logging.FileHandler(canary_dir + "/log.txt")
return "handler"
# attempt: zipfile
import zipfile
return zipfile.ZipFile(canary_path).namelist()
# attempt: importlib-loader-get-data
import importlib.machinery
return importlib.machinery.SourceFileLoader("x", canary_path).get_data(canary_path).decode()
# attempt: spec-from-file
import importlib.util
spec = importlib.util.spec_from_file_location("canary", canary_path)
return str(spec)
# attempt: module-loader-get-data
import json
return json.__loader__.get_data(canary_path).decode()
# attempt: sys-path-import
import sys
sys.path.insert(0, canary_dir)
import canary
return str(canary)
# attempt: zipimport
import zipimport
return str(zipimport.zipimporter(canary_path))
