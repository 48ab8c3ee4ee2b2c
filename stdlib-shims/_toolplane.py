"""toolplane's host prelude, frozen into the binary and imported once per VM before any snippet.

It defines the externals a snippet sees (save_result, load_result, save_artifact, load_artifact,
call_tool) as thin wrappers over the native `_toolplane_host` module, whose only door is the bridge.
Every external is async: the call is dispatched when it is made, and `await` collects its result.
"""

import _toolplane_host as _host
from binascii import a2b_base64 as _a2b, b2a_base64 as _b2a

# The names come from the host (toolplane::namespace), so Rust and this shim cannot disagree.
RESULTS_SAVE = _host.RESULTS_SAVE
RESULTS_LOAD = _host.RESULTS_LOAD
ARTIFACTS_SAVE = _host.ARTIFACTS_SAVE
ARTIFACTS_LOAD = _host.ARTIFACTS_LOAD


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


def make_capability(canonical, alias, shape=""):
    """The flat async function for one capability: keyword arguments only."""

    def capability(*args, **params):
        if args:
            shown = shape if shape.startswith(f"await {alias}(") else f"await {alias}(param=value)"
            return _failed(
                alias,
                TypeError(
                    f"{alias}() takes keyword arguments only; call it as {shown}, "
                    f"or await call_tool({canonical!r}, {{...params}})"
                ),
            )
        return ToolCall(alias, _host.submit(canonical, params))

    capability.__name__ = alias
    capability.__qualname__ = alias
    return capability


CLI_RUN = "toolplane:cli/run"
CLI_SHAPE_GUIDANCE = (
    "CLI call shape: subcommand as the first positional argument, flags as "
    "keyword arguments \u2014 e.g. await git('log', oneline=True, max_count=3) "
    "or await cli_run('git', 'log', {'oneline': True, 'max_count': 3}). "
    "Flags that must precede the subcommand (git -C, kubectl --context) go "
    "in _global: await git('log', _global={'C': '/path/to/repo'})"
)


class _CliFollowUp:
    """`await git('log').text()`: the call's result, reshaped once it is awaited."""

    __slots__ = ("_call", "_shape")

    def __init__(self, call, shape):
        self._call, self._shape = call, shape

    def __await__(self):
        result = yield from self._call.__await__()
        return self._shape(result)


def _cli_text(result):
    return str(result.get("stdout", "")).strip()


def _cli_lines(result):
    text = _cli_text(result)
    return text.splitlines() if text else []


class CliCall(ToolCall):
    """A command in flight: await it for {stdout, stderr, exit_code, ok}, or await `.text()`,
    `.lines()` or `.json()` of it."""

    __slots__ = ()

    def text(self):
        return _CliFollowUp(self, _cli_text)

    def lines(self):
        return _CliFollowUp(self, _cli_lines)

    def json(self, **kwargs):
        def parse(result):
            import json
            return json.loads(str(result.get("stdout", "")), **kwargs)
        return _CliFollowUp(self, parse)


def _cli_call(binary, subcommand, options):
    if not isinstance(binary, str):
        return _failed("cli_run", TypeError(f"CLI binary must be a str, got {type(binary).__name__!r}. {CLI_SHAPE_GUIDANCE}"))
    return CliCall(binary, _host.submit(CLI_RUN, {"binary": binary, "subcommand": subcommand, "options": options}))


class CliBinary:
    """`git`: `await git('log', oneline=True)`, or `await git.log(oneline=True)`."""

    __slots__ = ("_binary",)

    def __init__(self, binary):
        self._binary = binary

    def __call__(self, subcommand=None, /, *args, **options):
        if args:
            return _failed(
                self._binary,
                TypeError(
                    f"{self._binary}() takes at most one positional argument (the subcommand); "
                    f"flags are keyword arguments. {CLI_SHAPE_GUIDANCE}"
                ),
            )
        return _cli_call(self._binary, subcommand, options)

    def __getattr__(self, subcommand):
        if subcommand.startswith("_"):
            raise AttributeError(subcommand)
        binary = self._binary

        def dispatch(**options):
            return _cli_call(binary, subcommand, options)

        dispatch.__name__ = subcommand
        return dispatch

    def __repr__(self):
        return f"<command-line tool {self._binary}>"


class CliRoot:
    """`cli`: `cli.git('log')` or `cli('git')('log')`, for any binary the policy allows (the host checks)."""

    __slots__ = ()

    def __call__(self, binary):
        return CliBinary(binary)

    def __getattr__(self, binary):
        if binary.startswith("_"):
            raise AttributeError(binary)
        return CliBinary(binary)


def cli_run(binary, subcommand=None, options=None):
    """await cli_run("git", "log", {"oneline": True}) -> {stdout, stderr, exit_code, ok}."""
    if options is None:
        options = {}
    elif not isinstance(options, dict):
        return _failed(
            "cli_run",
            TypeError(f"CLI options must be a dict of flags, got {type(options).__name__!r}. {CLI_SHAPE_GUIDANCE}"),
        )
    return _cli_call(binary, subcommand, options)


def cli_namespace(names):
    """The CLI names a run binds: `cli`, `cli_run`, and one per binary the host names."""
    namespace = {"cli": CliRoot(), "cli_run": cli_run}
    for name in names:
        namespace[name] = CliBinary(name)
    return namespace


def fast_json(module):
    """Routes json.dumps / json.loads with their default arguments to the host's native converter (the
    same Python-identical canonical JSON as save_result); anything else, or any value it declines, goes
    to the json module's own code, so results and errors are unchanged."""
    if getattr(module, "_toolplane_fast", False):
        return
    slow_dumps, slow_loads = module.dumps, module.loads
    native_dumps, native_loads = _host.json_dumps, _host.json_loads

    def dumps(obj, *, skipkeys=False, ensure_ascii=True, check_circular=True, allow_nan=True,
              cls=None, indent=None, separators=None, default=None, sort_keys=False, **kw):
        if (ensure_ascii and check_circular and not skipkeys and cls is None and indent is None
                and separators is None and default is None and not sort_keys and not kw):
            text = native_dumps(obj)
            if text is not NotImplemented:
                return text
        return slow_dumps(obj, skipkeys=skipkeys, ensure_ascii=ensure_ascii,
                          check_circular=check_circular, allow_nan=allow_nan, cls=cls, indent=indent,
                          separators=separators, default=default, sort_keys=sort_keys, **kw)

    def loads(s, *, cls=None, object_hook=None, parse_float=None, parse_int=None,
              parse_constant=None, object_pairs_hook=None, **kw):
        if (cls is None and object_hook is None and parse_float is None and parse_int is None
                and parse_constant is None and object_pairs_hook is None and not kw):
            value = native_loads(s)
            if value is not NotImplemented:
                return value
        return slow_loads(s, cls=cls, object_hook=object_hook, parse_float=parse_float,
                          parse_int=parse_int, parse_constant=parse_constant,
                          object_pairs_hook=object_pairs_hook, **kw)

    dumps.__doc__, loads.__doc__ = slow_dumps.__doc__, slow_loads.__doc__
    module.dumps, module.loads = dumps, loads
    module._toolplane_fast = True


STORE_BINDINGS = {name: globals()[name] for name in _host.STORE_SUGAR}


# `_codecs.charmap_*` of every interpreter point here (see `interpreter.rs`): this interpreter's own
# `_pycodecs`, never a helper shared with other runs.
def _charmap_encode(*args):
    import _pycodecs
    return _pycodecs.charmap_encode(*args)


def _charmap_decode(*args):
    import _pycodecs
    return _pycodecs.charmap_decode(*args)


def _charmap_build(*args):
    import _pycodecs
    return _pycodecs.charmap_build(*args)


def utc_as_local_time(time):
    """Makes the `time` module's local time UTC, whatever the host's zone (docs/sandbox.md)."""
    gmtime, strftime = time.gmtime, time.strftime

    def localtime(secs=None):
        return gmtime(secs)

    def mktime(t):
        import calendar
        return float(calendar.timegm(tuple(t)[:9]))

    def asctime(t=None):
        return _asctime(gmtime() if t is None else t)

    def ctime(secs=None):
        return _asctime(gmtime(secs))

    def strftime_utc(format, t=None):
        # The native strftime names the host's zone for %Z / %z, whatever the struct says.
        if "%Z" in format or "%z" in format:
            out, i = [], 0
            while i < len(format):
                pair = format[i:i + 2]
                out.append({"%Z": "UTC", "%z": "+0000"}.get(pair, pair if pair[:1] == "%" else pair[:1]))
                i += 2 if pair[:1] == "%" else 1
            format = "".join(out)
        return strftime(format, gmtime() if t is None else t)

    def _asctime(t):
        days = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
        months = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
        return "%s %s %2d %02d:%02d:%02d %d" % (
            days[t[6]], months[t[1] - 1], t[2], t[3], t[4], t[5], t[0])

    time.localtime, time.mktime, time.asctime, time.ctime = localtime, mktime, asctime, ctime
    time.strftime = strftime_utc


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


class DiscardStream(StdoutStream):
    """sys.stdout and sys.stderr of an interpreter being finalized, outside any run: what it still
    prints (a flush, a `__del__` that raises) must not reach the host's own stderr."""

    __slots__ = ()
    name = "<discarded>"

    def write(self, text):
        return len(text)


RESET_MESSAGE = (
    "Session variables will be cleared after this run completes; saved results and artifacts are unaffected."
)


class SnippetReturn(BaseException):
    """Carries a session snippet's top-level `return` value out of its module code."""


class _Ready:
    __slots__ = ("_value",)

    def __init__(self, value):
        self._value = value

    def __await__(self):
        return self._value
        yield


def reset_session():
    """await reset_session(): this session's variables are cleared after the current run."""
    _host.request_reset()
    return _Ready(RESET_MESSAGE)


class UnawaitedToolCallError(Exception):
    """A call to an external that can never run: its result is discarded or stringified (raised by
    the host's compile step, src/sandbox/syntax.rs)."""


class NamespaceCollisionError(Exception):
    """A session snippet assigns to a binding (raised by the host's compile step)."""
