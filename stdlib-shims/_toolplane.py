"""toolplane's host prelude, frozen into the binary and imported once per VM before any snippet.

It defines the externals a snippet sees (save_result, load_result, save_artifact, load_artifact,
call_tool) as thin wrappers over the native `_toolplane_host` module, whose only door is the bridge.
Every external is async: the call is dispatched when it is made, and `await` collects its result.
"""

import _toolplane_host as _host
from binascii import a2b_base64 as _a2b, b2a_base64 as _b2a

RESULTS_SAVE = "toolplane:results/save"
RESULTS_LOAD = "toolplane:results/load"
ARTIFACTS_SAVE = "toolplane:artifacts/save"
ARTIFACTS_LOAD = "toolplane:artifacts/load"


class ToolCall:
    """A host call in flight. Await it (once) to get its result or its exception."""

    __slots__ = ("_ticket", "_name", "_error", "_post", "_awaited")

    def __init__(self, name, ticket=None, error=None, post=None):
        self._name = name
        self._ticket = ticket
        self._error = error
        self._post = post
        self._awaited = False

    def __await__(self):
        if self._awaited:
            raise RuntimeError(f"this {self._name}() call was already awaited; call it again for a new result")
        self._awaited = True
        if self._error is not None:
            error, self._error = self._error, None
            raise error
        result = _host.wait(self._ticket)
        if self._post is not None:
            result = self._post(result)
        return result
        yield  # makes __await__ a generator; the host answers synchronously, so it never suspends

    def __repr__(self):
        return f"<unawaited toolplane call {self._name}()>"


def _failed(name, error):
    return ToolCall(name, error=error)


def call_tool(name, params=None):
    """await call_tool("canonical/name", {...}) -> the capability's JSON result."""
    if not isinstance(name, str):
        return _failed("call_tool", TypeError(f"call_tool name must be a str, got '{type(name).__name__}'"))
    if params is None:
        params = {}
    elif not isinstance(params, dict):
        return _failed("call_tool", TypeError(f"call_tool params must be a dict or None, got '{type(params).__name__}'"))
    return ToolCall("call_tool", _host.submit(name, params))


def save_result(value, label=None):
    """await save_result(value, label=None) -> "res_..." handle."""
    return ToolCall("save_result", _host.submit(RESULTS_SAVE, {"value": value, "label": label}))


def load_result(handle):
    """await load_result("res_...") -> the saved JSON value."""
    return ToolCall("load_result", _host.submit(RESULTS_LOAD, {"handle": handle}))


def save_artifact(data, filename=None, label=None):
    """await save_artifact(b"...", filename="report.csv", label=None) -> "art_..." handle."""
    if not _host.artifacts_enabled():
        return _failed("save_artifact", ValueError("artifact store is disabled"))
    if not isinstance(data, (bytes, bytearray)):
        return _failed(
            "save_artifact",
            ValueError(
                f"save_artifact takes bytes, got '{type(data).__name__}'; "
                "JSON-shaped values belong in the result store (save_result)"
            ),
        )
    encoded = _b2a(data, newline=False).decode("ascii")
    return ToolCall(
        "save_artifact",
        _host.submit(ARTIFACTS_SAVE, {"data_b64": encoded, "filename": filename, "label": label}),
    )


def _decode_artifact(reply):
    return _a2b(reply["data_b64"])


def load_artifact(handle):
    """await load_artifact("art_...") -> bytes."""
    return ToolCall("load_artifact", _host.submit(ARTIFACTS_LOAD, {"handle": handle}), post=_decode_artifact)


def make_capability(canonical, alias):
    """The flat async function for one capability: keyword arguments only."""

    def capability(*args, **params):
        if args:
            return _failed(
                alias,
                TypeError(
                    "capability functions take keyword arguments only — e.g. "
                    f"await {alias}(param=value), or await call_tool({canonical!r}, {{...params}})"
                ),
            )
        return ToolCall(alias, _host.submit(canonical, params))

    capability.__name__ = alias
    capability.__qualname__ = alias
    return capability


STORE_BINDINGS = {
    "save_result": save_result,
    "load_result": load_result,
    "save_artifact": save_artifact,
    "load_artifact": load_artifact,
}


class StdoutStream:
    """sys.stdout for a run. `write` is native: it runs no bytecode, so a time-limit interrupt can never
    fire inside it, and the captured text and the output budget live host-side."""

    __slots__ = ()
    encoding = "utf-8"
    errors = "strict"
    name = "<stdout>"
    write = staticmethod(_host.write_stdout)
    flush = staticmethod(_host.flush)

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def isatty(self):
        return False

    def writable(self):
        return True

    def readable(self):
        return False


class StderrStream(StdoutStream):
    """sys.stderr for a run."""

    __slots__ = ()
    name = "<stderr>"
    write = staticmethod(_host.write_stderr)


_PyCF_ONLY_AST = 0x400


def compile_snippet(source, filename):
    """Compile a snippet as the body of `async def`, from its AST, so line numbers stay the snippet's."""
    import _ast

    tree = compile(source, filename, "exec", _PyCF_ONLY_AST)
    body = tree.body
    if not body:
        body = [_ast.Pass(lineno=1, col_offset=0, end_lineno=1, end_col_offset=0)]
    last = body[-1]
    main = _ast.AsyncFunctionDef(
        name="__toolplane_main__",
        args=_ast.arguments(
            posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[]
        ),
        body=body,
        decorator_list=[],
        returns=None,
        type_comment=None,
        type_params=[],
        lineno=1,
        col_offset=0,
        end_lineno=getattr(last, "end_lineno", 1) or 1,
        end_col_offset=0,
    )
    module = _ast.Module(body=[main], type_ignores=[])
    return compile(module, filename, "exec")
