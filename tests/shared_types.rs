//! Built-in types are immutable from snippet code, as CPython makes them, in both engines: no run can
//! change what a later run (another client's, in process) gets from `None`, `slice`, `ast.AST`, ….
//! The walk covers every type reachable from the VM once every allowed module is imported.

use serde_json::{Value, json};
use toolplane::{Config, Isolation, Toolplane};

#[global_allocator]
static ALLOC: toolplane::CountingAllocator = toolplane::CountingAllocator;

fn runtime(isolation: Isolation) -> Toolplane {
    let mut config = Config::default();
    config.toolplane.isolation = Some(isolation);
    config.toolplane.worker_path = Some(env!("CARGO_BIN_EXE_toolplane").into());
    config.limits.timeout_seconds = 20.0;
    Toolplane::new(config).unwrap()
}

/// Walks every type reachable (subclasses, attributes of types and of every loaded module), tries to
/// mark each one, and reports: built-in (non-heap) types that took the mark, the messages of refusals,
/// heap types carrying a mark from an earlier run, and Python code hanging off immutable types (which
/// would be shared with later runs).
const WALK: &str = r#"
import sys
failed = []
for name in modules:
    try:
        __import__(name)
    except Exception as e:
        failed.append(f"{name}: {type(e).__name__}: {e}")
seen = {}
def walk(t):
    stack = [t]
    while stack:
        t = stack.pop()
        if not isinstance(t, type) or id(t) in seen:
            continue
        seen[id(t)] = t
        stack.extend(type.__subclasses__(t))
        for v in list(vars(t).values()):
            stack.append(v if isinstance(v, type) else type(v))
walk(object)
for m in list(sys.modules.values()):
    for v in list(getattr(m, "__dict__", {}).values()):
        walk(v if isinstance(v, type) else type(v))
took_mark, messages, marked_before, code_on_frozen = [], set(), [], []
HEAP = 1 << 9
for t in seen.values():
    name = f"{t.__module__}.{t.__qualname__}"
    if "__toolplane_mark__" in vars(t):
        marked_before.append(name)
    try:
        setattr(t, "__toolplane_mark__", run)
    except TypeError as e:
        prefix = "cannot set '__toolplane_mark__' attribute of immutable type '"
        text = str(e)
        named = text.startswith(prefix) and text.endswith(f"{t.__name__}'")
        messages.add(prefix + "T'" if named else text)
        for key, v in vars(t).items():
            parts = [v.fget, v.fset, v.fdel] if isinstance(v, property) else [v, getattr(v, "__func__", None)]
            if any(hasattr(p, "__code__") for p in parts):
                code_on_frozen.append(f"{name}.{key}")
        continue
    if not t.__flags__ & HEAP:
        took_mark.append(name)
return {"failed": failed, "types": len(seen), "took_mark": sorted(took_mark), "messages": sorted(messages),
        "marked_before": sorted(marked_before), "code_on_frozen": sorted(code_on_frozen)}
"#;

fn walk(runtime: &Toolplane, run: u32) -> Value {
    let inputs = json!({"modules": toolplane::sandbox::ALLOWED_IMPORTS, "run": run});
    let result = runtime.execute(WALK, inputs.as_object().cloned()).unwrap();
    assert!(result.ok(), "{:?}", result.error);
    result.value_json()
}

fn every_reachable_builtin_type_is_immutable(isolation: Isolation) {
    let runtime = runtime(isolation);
    for run in 1..=2 {
        let report = walk(&runtime, run);
        assert!(report["types"].as_u64().unwrap() > 300, "{report}");
        assert_eq!(
            report["failed"],
            json!([]),
            "{isolation:?} run {run}: imports failed"
        );
        assert_eq!(report["took_mark"], json!([]), "{isolation:?} run {run}");
        assert_eq!(
            report["marked_before"],
            json!([]),
            "{isolation:?} run {run}: a type carried a mark from an earlier run"
        );
        assert_eq!(
            report["code_on_frozen"],
            json!([]),
            "{isolation:?} run {run}: Python code on a shared type"
        );
        assert_eq!(
            report["messages"],
            json!(["cannot set '__toolplane_mark__' attribute of immutable type 'T'"]),
            "{isolation:?} run {run}"
        );
    }
}

#[test]
fn every_reachable_builtin_type_is_immutable_in_process() {
    every_reachable_builtin_type_is_immutable(Isolation::InProcess);
}

#[test]
fn every_reachable_builtin_type_is_immutable_process_isolation() {
    every_reachable_builtin_type_is_immutable(Isolation::Process);
}

/// The attack of the issue: run 1 hooks `None`'s truth value; run 2 (another client) tests a `None`.
fn a_hooked_none_reaches_no_later_run(isolation: Isolation) {
    let runtime = runtime(isolation);
    let hook = runtime
        .execute("type(None).__bool__ = lambda s: True", None)
        .unwrap();
    let error = hook
        .error
        .expect("setting an attribute of NoneType must fail");
    assert_eq!(error.error_type, "TypeError");
    assert_eq!(
        error.message,
        "cannot set '__bool__' attribute of immutable type 'NoneType'"
    );
    let victim = runtime
        .execute(
            "rows = None\nif rows:\n    return 'hooked'\nreturn 'clean'",
            None,
        )
        .unwrap();
    assert_eq!(victim.value_json(), "clean", "{:?}", victim.error);
    // Shared helpers the codecs delegate to: patched in one run, they must not run in the next.
    let patch = runtime
        .execute(
            "import codecs, sys\ncodecs.charmap_decode(b'\\x01', 'strict', 'abc')\n\
             m = sys.modules.get('_pycodecs')\n\
             if m is not None:\n    m.charmap_decode = lambda *a: ('hooked', 1)\nreturn 1",
            None,
        )
        .unwrap();
    assert!(patch.ok(), "{:?}", patch.error);
    let decoded = runtime
        .execute("return b'abc'.decode('cp1252')", None)
        .unwrap();
    assert_eq!(decoded.value_json(), "abc", "{:?}", decoded.error);
}

#[test]
fn a_hooked_none_reaches_no_later_run_in_process() {
    a_hooked_none_reaches_no_later_run(Isolation::InProcess);
}

#[test]
fn a_hooked_none_reaches_no_later_run_process_isolation() {
    a_hooked_none_reaches_no_later_run(Isolation::Process);
}

/// What a run finds of the AST node classes, reached through `compile(..., PyCF_ONLY_AST)` (the VM
/// imports `_ast` itself) or through `import ast`.
const AST_PROBE: &str = r#"
if first == "compile":
    tree = compile("x = (1, 2)", "<s>", "exec", 1024)
else:
    import ast
    tree = ast.parse("x = (1, 2)")
t = tree.body[0].value
out = [type(tree).__name__, list(type(tree)._fields), t.dims == t.elts,
       type(type(t).__dict__["dims"].fget).__name__]
try:
    type(t).extra = 1
    out.append("mutable")
except TypeError as e:
    out.append(str(e))
import ast
out.append(ast.dump(ast.parse("1")))
return out
"#;

/// Where an interpreter is alone on its thread or process (the zygote's children, an in-process
/// engine's first run), `_ast` loads when a run first asks for it, not at start-up. By either path it
/// must be what an eager load gives: node classes with their class attributes, `Tuple.dims` as the
/// native getter (not Python code on a shared class), the classes frozen. In process the second run
/// is on the lasting thread, which loads `_ast` at start-up: both must agree.
fn ast_loaded_on_demand_matches_an_eager_load(isolation: Isolation) {
    let runtime = runtime(isolation);
    for first in ["compile", "import"] {
        let result = runtime
            .execute(AST_PROBE, json!({"first": first}).as_object().cloned())
            .unwrap();
        assert!(result.ok(), "{isolation:?} {first}: {:?}", result.error);
        assert_eq!(
            result.value_json(),
            json!([
                "Module",
                ["body", "type_ignores"],
                true,
                "attrgetter",
                "cannot set 'extra' attribute of immutable type 'ast.Tuple'",
                "Module(body=[Expr(value=Constant(value=1))])"
            ]),
            "{isolation:?}, reached through {first}"
        );
    }
}

#[test]
fn ast_loaded_on_demand_matches_an_eager_load_in_process() {
    ast_loaded_on_demand_matches_an_eager_load(Isolation::InProcess);
}

#[test]
fn ast_loaded_on_demand_matches_an_eager_load_process_isolation() {
    ast_loaded_on_demand_matches_an_eager_load(Isolation::Process);
}

/// Code that sabotages the importer (a `builtins.__import__` that loads nothing, a fake `_ast` in
/// `sys.modules`) before `compile(..., PyCF_ONLY_AST)` gets a tree or a Python exception, never a crash
/// of its sandbox: the node classes exist whatever the importer did.
fn a_sabotaged_importer_cannot_crash_an_ast_compile(isolation: Isolation) {
    let runtime = runtime(isolation);
    let sabotage = r#"
import builtins, sys
out = []
for how in ["import returns 1", "import is None", "fake _ast"]:
    if how == "import returns 1":
        builtins.__import__ = lambda *a, **k: 1
    elif how == "import is None":
        builtins.__import__ = None
    else:
        sys.modules["_ast"] = 1
    try:
        out.append(type(compile("x = (1, 2)", "<s>", "exec", 1024)).__name__)
    except Exception as e:
        out.append(type(e).__name__)
return out
"#;
    let result = runtime.execute(sabotage, None).unwrap();
    assert!(result.ok(), "{isolation:?}: {:?}", result.error);
    assert_eq!(
        result.value_json(),
        json!(["Module", "Module", "Module"]),
        "{isolation:?}"
    );
    let after = runtime.execute("return 1", None).unwrap();
    assert_eq!(
        after.value_json(),
        json!(1),
        "{isolation:?}: {:?}",
        after.error
    );
}

#[test]
fn a_sabotaged_importer_cannot_crash_an_ast_compile_in_process() {
    a_sabotaged_importer_cannot_crash_an_ast_compile(Isolation::InProcess);
}

#[test]
fn a_sabotaged_importer_cannot_crash_an_ast_compile_process_isolation() {
    a_sabotaged_importer_cannot_crash_an_ast_compile(Isolation::Process);
}

/// What a run finds of the codecs, with `encodings` (and `codecs`) loaded by the first lookup that
/// needs them rather than when the interpreter starts.
const CODECS_PROBE: &str = r#"
import sys
loaded_at_start = "encodings" in sys.modules
import codecs
# Registered before `encodings` is loaded: `encodings`' search function must still come first.
codecs.register(lambda name: codecs.lookup("latin-1") if name == "mine" else None)
return [loaded_at_start, "é".encode("cp1252").hex(), b"\xe9".decode("cp1252"),
        codecs.lookup("utf8").name, codecs.lookup("latin1").name, codecs.lookup("mine").name,
        "x".encode("utf-16").hex(), codecs.charmap_decode.__name__, codecs.charmap_build.__name__]
"#;

/// `encodings` loads on demand in every engine (interpreters start without it) and, loaded late, is
/// what an eager load gave: codecs found by name and alias, `encodings`' search function ahead of one a
/// snippet registered first, and the charmap helpers this interpreter's own (`codecs` takes them from
/// `_codecs` when it loads), not the ones shared with other runs.
fn codecs_loaded_on_demand_match_an_eager_load(isolation: Isolation) {
    let runtime = runtime(isolation);
    let mut expected = json!([
        false,
        "e9",
        "é",
        "utf-8",
        "iso8859-1",
        "iso8859-1",
        "fffe7800",
        "_charmap_decode",
        "_charmap_build"
    ]);
    for run in 0..3 {
        let result = runtime.execute(CODECS_PROBE, None).unwrap();
        assert!(result.ok(), "{isolation:?} run {run}: {:?}", result.error);
        if run > 0 && isolation == Isolation::Process {
            // A later child may come from the zygote after its idle-time warm-up, which loads it.
            expected[0] = result.value_json()[0].clone();
        }
        assert_eq!(result.value_json(), expected, "{isolation:?} run {run}");
    }
}

#[test]
fn codecs_loaded_on_demand_match_an_eager_load_in_process() {
    codecs_loaded_on_demand_match_an_eager_load(Isolation::InProcess);
}

#[test]
fn codecs_loaded_on_demand_match_an_eager_load_process_isolation() {
    codecs_loaded_on_demand_match_an_eager_load(Isolation::Process);
}

/// Code that sabotages the importer before its first codec lookup gets a Python exception, never a
/// crash of its sandbox, and the built-in codecs go on working; a later run is unharmed.
fn a_sabotaged_importer_cannot_crash_a_codec_lookup(isolation: Isolation) {
    let runtime = runtime(isolation);
    let sabotage = r#"
import builtins, sys
out = []
for how in ["import returns 1", "fake encodings", "no sys.modules"]:
    if how == "import returns 1":
        builtins.__import__ = lambda *a, **k: 1
    elif how == "fake encodings":
        sys.modules["encodings"] = 1
    else:
        sys.modules = None
    try:
        out.append("é".encode("cp1252").hex())
    except Exception as e:
        out.append(type(e).__name__)
    out.append("é".encode("utf-8").hex())
return out
"#;
    let result = runtime.execute(sabotage, None).unwrap();
    assert!(result.ok(), "{isolation:?}: {:?}", result.error);
    // `encodings`' own `import codecs` goes through the replaced `__import__`, as in CPython.
    assert_eq!(
        result.value_json(),
        json!([
            "ImportError",
            "c3a9",
            "LookupError",
            "c3a9",
            "LookupError",
            "c3a9"
        ]),
        "{isolation:?}"
    );
    let after = runtime
        .execute("return 'é'.encode('cp1252').hex()", None)
        .unwrap();
    assert_eq!(
        after.value_json(),
        json!("e9"),
        "{isolation:?}: {:?}",
        after.error
    );
}

#[test]
fn a_sabotaged_importer_cannot_crash_a_codec_lookup_in_process() {
    a_sabotaged_importer_cannot_crash_a_codec_lookup(Isolation::InProcess);
}

#[test]
fn a_sabotaged_importer_cannot_crash_a_codec_lookup_process_isolation() {
    a_sabotaged_importer_cannot_crash_a_codec_lookup(Isolation::Process);
}
