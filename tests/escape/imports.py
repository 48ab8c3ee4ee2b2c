# Escape attempts: every path to a module outside the allowlist (issue 17, item 12). The interpreter
# holds only the allowed modules and what they import themselves, and its loaders load a module only
# when it is allowed or a loaded module imports it itself; each attempt names a module no loaded one
# needs. Inputs: none.
# attempt: import-builtins-module-import
# expect: ModuleNotFoundError
import builtins
builtins.__import__("tempfile")
# attempt: import-dunder-builtins-of-a-module
# expect: ModuleNotFoundError
import json
b = json.__builtins__
(b["__import__"] if isinstance(b, dict) else b.__import__)("tempfile")
# attempt: import-relative-level-one
# expect: ModuleNotFoundError
__import__("", {"__package__": "subprocess"}, None, ["x"], 1)
# attempt: import-relative-dotted
# expect: ModuleNotFoundError
__import__("x", {"__package__": "tempfile.y"}, None, [], 2)
# attempt: import-importlib-import-module
# expect: ModuleNotFoundError
import inspect, sys
sys.modules["importlib"].import_module("tempfile")
# attempt: import-frozen-importlib-gcd
# expect: ModuleNotFoundError
import sys
sys.modules["_frozen_importlib"]._gcd_import("tempfile")
# attempt: import-frozen-importer-load-module
# expect: ImportError
for cls in object.__subclasses__():
    if cls.__name__ == "FrozenImporter":
        return cls.load_module("tempfile").__name__
return "no FrozenImporter"
# attempt: import-frozen-importer-find-spec
import sys
for finder in sys.meta_path:
    if finder.find_spec("tempfile", None) is not None:
        return "found"
return "not found"
# attempt: import-builtin-importer-create
# expect: ImportError
import sys
class Spec:
    name = "_socket"
sys.modules["_imp"].create_builtin(Spec())
# attempt: import-imp-get-frozen-object
# expect: ImportError
import sys
sys.modules["_imp"].get_frozen_object("tempfile")
# attempt: import-imp-find-frozen-with-data
import sys
return sys.modules["_imp"].find_frozen("tempfile", withdata=True)
# attempt: import-imp-init-frozen
# expect: ImportError
import sys
sys.modules["_imp"].init_frozen("tempfile")
# attempt: import-pickle-global
# expect: ModuleNotFoundError
import pickle
pickle.loads(b"ctempfile\nmkdtemp\n.")
# attempt: import-spec-from-loader
# expect: ImportError
import sys
bootstrap = sys.modules["_frozen_importlib"]
spec = bootstrap.spec_from_loader("tempfile", bootstrap.FrozenImporter)
bootstrap._load(spec)
# attempt: import-exec-in-a-module-namespace
# expect: ModuleNotFoundError
import json
exec("import tempfile", json.__dict__)
# attempt: import-module-removed-from-sys-modules
# expect: ModuleNotFoundError
import sys, json
del sys.modules["json"]
sys.modules["_frozen_importlib"]._gcd_import("tempfile")
# attempt: import-host-removed-native
# expect: ModuleNotFoundError
__import__("gc")
# attempt: import-not-compiled-in
# expect: ModuleNotFoundError
import sys
sys.modules["_frozen_importlib"]._gcd_import("_socket")
# attempt: import-meta-path-finder-swap
# expect: ModuleNotFoundError
import sys
sys.meta_path.reverse()
__import__("tempfile")
# attempt: import-imp-made-again
# expect: ImportError
import sys
class Spec:
    name = "_imp"
del sys.modules["_imp"]
fresh = sys.modules["_frozen_importlib"]._imp.create_builtin(Spec())
fresh.get_frozen_object("tempfile")
# attempt: import-forged-sys-modules-entries
# expect: ModuleNotFoundError
import sys
ModuleType = type(sys)
for name in ["tarfile", "zipfile", "shutil", "pdb", "doctest", "unittest.case", "pydoc", "tempfile.x"]:
    sys.modules[name] = ModuleType(name)
import builtins
builtins.__import__("tempfile")
# attempt: import-snippet-posing-as-a-module
# expect: ModuleNotFoundError
__name__ = "json"
import tempfile
