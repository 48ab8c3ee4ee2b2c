# Escape attempts: walks from objects a snippet has to host-facing ones (importers, loaders, file
# readers, the host module, other frames), code objects and serialisation. Inputs: canary_path,
# canary_dir.
# attempt: subclasses-walk-fileio
for cls in object.__subclasses__():
    for sub in [cls] + cls.__subclasses__():
        if sub.__name__ in ("FileIO", "FileLoader", "SourceFileLoader", "FileFinder"):
            try:
                return sub(canary_path).read().decode()
            except Exception:
                pass
return "none"
# attempt: subclasses-builtin-importer
for cls in ().__class__.__base__.__subclasses__():
    if cls.__name__ == "BuiltinImporter":
        return str(cls.load_module("posix").environ)
return "none"
# attempt: subclasses-file-loader-get-data
seen = set()
todo = [object]
while todo:
    cls = todo.pop()
    for sub in type.__subclasses__(cls):
        if sub not in seen:
            seen.add(sub)
            todo.append(sub)
for cls in seen:
    if hasattr(cls, "get_data"):
        try:
            return cls("x", canary_path).get_data(canary_path)
        except Exception:
            pass
return len(seen)
# attempt: frozen-importlib-external
m = __import__("_frozen_importlib_external")
return m.FileLoader("x", canary_path).get_data(canary_path)
# attempt: sys-modules
import sys
return sorted(k for k in sys.modules if "posix" in k or "host" in k or "socket" in k)
# attempt: sys-modules-host
import sys
host = sys.modules["_toolplane_host"]
return [n for n in dir(host) if not n.startswith("__")]
# attempt: host-submit-hidden
import sys
host = sys.modules["_toolplane_host"]
t = host.submit("toolplane:results/load", {"handle": "res_" + "A" * 22})
return host.wait(t)
# attempt: function-globals
g = save_result.__globals__
return sorted(k for k in g if not k.startswith("__"))[:50]
# attempt: globals-host-module
g = save_result.__globals__
return str(g["_host"].__dict__.keys())
# attempt: getframe-walk
import sys
f = sys._getframe()
out = []
while f is not None:
    out.append((f.f_code.co_filename, sorted(f.f_globals)[:5]))
    f = f.f_back
return out
# attempt: traceback-frame-walk
try:
    1 / 0
except Exception as e:
    tb = e.__traceback__
    frames = []
    while tb:
        frames.append(tb.tb_frame.f_code.co_name)
        tb = tb.tb_next
    f = e.__traceback__.tb_frame
    while f.f_back:
        f = f.f_back
    return [frames, f.f_code.co_filename]
# attempt: generator-frame
def gen():
    yield 1
g = gen()
f = g.gi_frame
return [f.f_code.co_filename, f.f_back is None]
# attempt: coroutine-frame
async def co():
    return 1
c = co()
f = c.cr_frame
c.close()
return f.f_code.co_filename if f else None
# attempt: toolcall-internals
call = save_result(1)
attrs = [a for a in dir(call) if not a.startswith("__")]
value = await call
return attrs
# attempt: gc-objects
import gc
return len(gc.get_objects())
# attempt: gc-referrers
gc = __import__("gc")
return str(gc.get_referrers(save_result))
# attempt: sys-settrace
import sys
calls = []
sys.settrace(lambda frame, event, arg: calls.append(frame.f_code.co_filename))
h = await save_result(1)
sys.settrace(None)
return sorted(set(calls))
# attempt: sys-setprofile
import sys
seen = []
sys.setprofile(lambda frame, event, arg: seen.append(event))
await save_result(2)
sys.setprofile(None)
return len(seen)
# attempt: compile-exec
code = compile("import os\nos.system('touch ' + d + '/pwned')", "x", "exec")
exec(code, {"d": canary_dir})
return "ran"
# attempt: eval-import
return eval("__import__('os').popen('env').read()")
# attempt: exec-custom-builtins
ns = {"__builtins__": {"__import__": __import__, "open": open}}
exec("r = open(p).read()", ns | {"p": canary_path})
return ns.get("r")
# attempt: code-replace
def f():
    return 1
co = f.__code__.replace(co_code=bytes([0, 0] * 4 + [255, 255] * 8), co_consts=())
f.__code__ = co
return f()
# attempt: code-type-crafted
import types
co = (lambda: 0).__code__
crafted = types.CodeType(
    0, 0, 0, 0, 8, 0, b"\xff\xff" * 16, (), (), (), "x", "x", "x", 1, b"", b"", (), ()
)
return eval(crafted)
# attempt: marshal-loads-crafted
import marshal
return marshal.loads(b"\xe3" + b"\xff" * 64)
# attempt: marshal-dumps-code
import marshal
return marshal.dumps((lambda: 1).__code__)
# attempt: interpreters
m = __import__("_interpreters")
return str(m.create())
# attempt: pickle-reduce
import pickle
class Evil:
    def __reduce__(self):
        import os
        return (os.system, (f"touch {canary_dir}/pwned",))
data = pickle.dumps(Evil())
return pickle.loads(data)
# attempt: pickle-global-crafted
import pickle
payload = b"cos\nsystem\n(S'touch " + canary_dir.encode() + b"/pwned'\ntR."
return pickle.loads(payload)
# attempt: pickle-builtins-open
import pickle
payload = b"cbuiltins\nopen\n(S'" + canary_path.encode() + b"'\ntR."
f = pickle.loads(payload)
return f.read()
# attempt: format-walk
return "{0.__class__.__base__.__subclasses__}".format(0)[:80]
# attempt: format-globals
return "{f.__globals__[_host]}".format(f=save_result)
# attempt: type-call-module
import json
Module = type(json)
m = Module("posix")
return str(dir(m))
# attempt: imp-builtin
imp = __import__("_imp")
return str(imp.create_builtin)
# attempt: weakref-finalize
import weakref
class C: pass
c = C()
weakref.finalize(c, lambda: open(canary_dir + "/pwned", "w"))
return "registered"
