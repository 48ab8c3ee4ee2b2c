# Escape attempts on the runtime's own state: leaking into a later run, other runs' data, handles,
# hostile argument types, and confusing the coroutine driver. Inputs: canary_dir, foreign_handle (a
# handle saved by another runtime).
# attempt: patch-builtins
import builtins
builtins.len = lambda x: 0
builtins.print = None
return "patched"
# attempt: patch-builtins-dict
__builtins__["str"] = None if isinstance(__builtins__, dict) else None
return "patched"
# attempt: patch-externals
import _toolplane
_toolplane.save_result = lambda *a, **k: "res_fake"
_toolplane.ToolCall.__await__ = None
return "patched"
# attempt: patch-json
import json
json.dumps = lambda *a, **k: "hijacked"
json.loads = None
return "patched"
# attempt: patch-sys
import sys
sys.modules["json"] = None
sys.setrecursionlimit(10)
return "patched"
# attempt: patch-type-dict
object.__class__.__dict__ if False else None
int.__add__ = lambda a, b: 0
return "patched"
# attempt: foreign-handle
return await load_result(foreign_handle)
# attempt: guessed-handles
import random
out = []
for _ in range(200):
    h = "res_" + "".join(random.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") for _ in range(22))
    try:
        out.append(await load_result(h))
    except ValueError:
        pass
return out
# attempt: guessed-artifacts
out = []
for h in ["art_", "art_../../etc/passwd", "art_" + "A" * 22, "../x", ""]:
    try:
        out.append(await load_artifact(h))
    except ValueError:
        pass
return out
# attempt: artifact-path-traversal
out = []
for name in ["../../pwned", "/tmp/pwned", "a/b", "..", ".", "x\x00y", "\\..\\pwned", "." * 300]:
    try:
        out.append(await save_artifact(b"x", filename=name))
    except ValueError as e:
        out.append("refused")
return out
# attempt: huge-label
try:
    return await save_result(1, label="x" * (50 * 1024 * 1024))
except ValueError as e:
    return str(e)[:80]
# attempt: hostile-eq
class Evil:
    def __eq__(self, other):
        raise RuntimeError("eq")
    __hash__ = object.__hash__
return await save_result([Evil()])
# attempt: hostile-hash-key
class Key(str):
    def __hash__(self):
        raise RuntimeError("hash")
return await save_result({Key("a"): 1})
# attempt: hostile-str-label
class Label(str):
    def __str__(self):
        raise RuntimeError("str")
return await save_result(1, label=Label("x"))
# attempt: hostile-iter
class Bad(list):
    def __iter__(self):
        raise RuntimeError("iter")
return await save_result(Bad([1, 2]))
# attempt: lying-class
class Fake:
    __class__ = dict
return await save_result(Fake())
# attempt: dict-subclass-items
class D(dict):
    def items(self):
        import os
        return [("env", dict(os.environ))]
return await save_result(D(a=1))
# attempt: deep-nesting
v = []
for _ in range(200000):
    v = [v]
return await save_result(v)
# attempt: self-reference
v = []
v.append(v)
return await save_result(v)
# attempt: call-tool-name-subclass
class Name(str):
    def __eq__(self, other):
        return True
    __hash__ = str.__hash__
return await call_tool(Name("nope/nothing"), {})
# attempt: call-tool-params-hostile
class P(dict):
    def keys(self):
        raise RuntimeError("keys")
return await call_tool("toolplane:results/save", P(value=1))
# attempt: await-twice
c = save_result(1)
a = await c
b = await c
return [a, b]
# attempt: await-in-generator-send
c = load_result("res_nope")
it = c.__await__()
try:
    it.send(None)
except StopIteration as s:
    return s.value
except ValueError as e:
    return str(e)
# attempt: gather
import asyncio
return await asyncio.gather(save_result(1), save_result(2))
# attempt: await-in-finally
try:
    return 1
finally:
    await save_result(3)
# attempt: unawaited-many
calls = [save_result(i) for i in range(1000)]
return len(calls)
# attempt: time-sleep-long
import time
time.sleep(10 ** 9)
return "woke"
# attempt: memory-bomb
x = "x" * (1 << 40)
return len(x)
# attempt: output-bomb
while True:
    print("x" * 100000)
# attempt: recursion-bomb
def f(n):
    return f(n + 1)
return f(0)
# attempt: base-exception
class Boom(BaseException):
    pass
raise Boom("boom")
# attempt: keyboard-interrupt
raise KeyboardInterrupt
# attempt: generator-exit-in-await
async def inner():
    try:
        await save_result(1)
    finally:
        raise GeneratorExit
return await inner()
