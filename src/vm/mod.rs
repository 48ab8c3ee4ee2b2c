//! The VM room: everything that knows about RustPython (and the only code that imports it), plus the
//! shim modules in `stdlib-shims/`. The engines talk to it in plain data: a [`RunSpec`] in, a
//! [`RunReport`] out, host calls through a [`HostChannel`].

mod convert;
mod externals;
pub mod fuzzing;
mod imports;
mod interpreter;
mod limits;
mod memory;
pub(crate) mod snippet;
mod syntax;
mod test_hooks;

use std::sync::Arc;
use std::time::{Duration, Instant};

pub use externals::HostChannel;
pub(crate) use externals::too_many_pending_calls;
pub use imports::ALLOWED_IMPORTS;
pub(crate) use interpreter::SandboxVm;
pub use limits::request_interrupt;
pub(crate) use limits::{memory_message, stop_watchdog, timeout_message};
pub use memory::CountingAllocator;
#[cfg(target_os = "linux")]
pub(crate) use memory::in_small_block_arena;
pub(crate) use memory::{adopt_foreign_allocation, system_alloc_failed};
pub(crate) use snippet::Bindings;
#[cfg(feature = "cli")]
pub use snippet::{SESSION_DISPLAY_NAME, SNIPPET_DISPLAY_NAME};
pub(crate) use test_hooks::{enable as enable_test_hooks, enable_panic_probe, panic_probe_enabled};

use crate::execution::ExecutionResult;

/// Stack size of sandbox threads: deep enough that RustPython's own recursion checks always fire
/// before the native stack runs out.
pub(crate) const SANDBOX_STACK_BYTES: usize = 256 << 20;

/// The limits one run is held to.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub(crate) struct RunLimits {
    pub timeout: Duration,
    pub max_output_bytes: usize,
    pub recursion_limit: usize,
    pub max_memory_mb: usize,
    /// Host calls started and not awaited yet, at most (`[limits] max_pending_calls`).
    pub max_pending_calls: usize,
}

/// One snippet to run, as plain data: it crosses the process boundary as JSON.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub(crate) struct RunSpec {
    pub code: String,
    pub inputs: serde_json::Map<String, serde_json::Value>,
    pub bindings: Bindings,
    pub limits: RunLimits,
    pub results_enabled: bool,
    pub artifacts_enabled: bool,
}

/// What a run produced: one shape from the VM to the runtime, in both engines and across the process
/// line (the child sends it whole). The runtime turns `saved_artifacts` into the result's list.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct RunReport {
    pub result: ExecutionResult,
    /// `await reset_session()` was called in this run.
    pub reset_requested: bool,
    /// The run ended at a limit (time or memory) or was cancelled, not at an error of the snippet's own.
    pub limit_hit: bool,
    /// Handles of the artifacts this run saved, in order (the host's dispatcher knows them).
    #[serde(skip)]
    pub saved_artifacts: Vec<String>,
}

impl RunReport {
    pub(crate) fn of(result: ExecutionResult) -> Self {
        Self {
            result,
            reset_requested: false,
            limit_hit: false,
            saved_artifacts: Vec::new(),
        }
    }
}

/// Where a run's code runs: a fresh namespace, or a session's.
#[derive(Clone, Copy)]
pub(crate) enum Scope<'a> {
    Fresh,
    Session(&'a SessionNamespace),
}

/// A session's namespace, which persists across its runs in one VM, and what it holds
/// (`[session] max_memory_mb` counts it across runs).
pub(crate) struct SessionNamespace {
    globals: rustpython_vm::builtins::PyDictRef,
    memory: Arc<memory::MemoryAccount>,
}

impl SessionNamespace {
    /// A fresh session namespace in `sandbox`.
    pub(crate) fn new(sandbox: &SandboxVm) -> Result<Self, String> {
        let globals = sandbox
            .interp
            .enter(|vm| snippet::new_session_globals(vm, sandbox))
            .map_err(|_| "could not create the session namespace".to_string())?;
        Ok(Self {
            globals,
            memory: Arc::new(memory::MemoryAccount::new(0)),
        })
    }
}

/// Runs `spec` in `sandbox` with its run state, watchdog and output capture installed, host calls going
/// to `channel`.
pub(crate) fn run_in(
    sandbox: &SandboxVm,
    spec: &RunSpec,
    channel: Box<dyn HostChannel>,
    scope: Scope<'_>,
    cancel: &crate::cancel::CancelToken,
) -> RunReport {
    let started = Instant::now();
    let (session_account, mode) = match scope {
        Scope::Fresh => (None, snippet::Mode::Fresh),
        Scope::Session(session) => (
            Some(session.memory.clone()),
            snippet::Mode::Session(&session.globals),
        ),
    };
    let flags = Arc::new(
        limits::RunFlags::new(
            spec.limits.timeout,
            spec.limits.max_memory_mb,
            session_account,
        )
        .with_results_enabled(spec.results_enabled),
    );
    let run = externals::ActiveRun::begin(externals::RunState {
        channel,
        local_failures: Default::default(),
        pending_calls: Default::default(),
        max_pending_calls: spec.limits.max_pending_calls,
        results_enabled: spec.results_enabled,
        artifacts_enabled: spec.artifacts_enabled,
        flags: flags.clone(),
        output: externals::OutputCapture::new(spec.limits.max_output_bytes),
        reset_requested: false,
    });
    let watchdog = limits::Watchdog::start(flags.clone(), sandbox.signal_tx.clone());
    let cancelling = {
        let flags = flags.clone();
        cancel.arm(move || flags.cancel())
    };
    let tracking = memory::Tracking::start(flags.memory.clone());
    let mut result = snippet::run_snippet(
        sandbox,
        &spec.code,
        &spec.inputs,
        &spec.bindings,
        spec.limits.max_output_bytes,
        &flags,
        mode,
    );
    drop(tracking);
    result.duration_ms = started.elapsed().as_secs_f64() * 1000.0;
    drop(cancelling);
    drop(watchdog);
    RunReport {
        result,
        reset_requested: run.finish().is_some_and(|state| state.reset_requested),
        limit_hit: flags.timed_out() || flags.memory_exceeded() || flags.cancelled(),
        saved_artifacts: Vec::new(),
    }
}

/// A fresh interpreter built ahead of its run, while the sandbox thread was idle: a fresh run then
/// waits for its snippet only, not for the build. No run has touched it.
pub(crate) struct SpareVm {
    pub(crate) recursion_limit: usize,
    pub(crate) sandbox: SandboxVm,
}

impl SpareVm {
    pub(crate) fn build(recursion_limit: usize) -> Option<Self> {
        let sandbox = SandboxVm::build(recursion_limit).ok()?;
        Some(Self {
            recursion_limit,
            sandbox,
        })
    }
}

/// Keeps the objects that finalized interpreters leave behind out of later garbage collections.
///
/// RustPython's collector lists are shared by all interpreters of a thread (per thread in our build,
/// without its `threading` feature): the ~1,100 objects each finalized fresh interpreter leaks (`import
/// json` in the run) stay in them, and every later collection walked them, so finalizing each
/// interpreter took longer than the last. An interpreter of the thread's own that never runs a snippet
/// adopts them with one full collection (freeing what it can) and freezes the survivors, as
/// `gc.freeze()` does: they leave the walked lists. A snippet's collections see only its own
/// interpreter's objects, so no run reaches them.
pub(crate) struct Janitor(Option<SandboxVm>);

impl Janitor {
    /// Built before the thread's first fresh interpreter: it loads every native module, so that the
    /// heap types RustPython shares between the thread's interpreters are made (and recorded, to be
    /// frozen) here, where no snippet runs.
    pub(crate) fn new() -> Self {
        let janitor = SandboxVm::build(1000).ok();
        if let Some(janitor) = &janitor {
            janitor.interp.enter(interpreter::record_shared_heap_types);
        }
        Self(janitor)
    }

    /// A janitor with no interpreter, for a thread that finalizes none (a session's).
    pub(crate) fn none() -> Self {
        Self(None)
    }

    pub(crate) fn set_aside_leftovers(&mut self) {
        if let Some(janitor) = &self.0 {
            // Freeing a leftover can run a snippet's `__del__`: held to a limit like the finalize.
            janitor.collect_garbage();
            janitor.interp.enter(|vm| vm.state.gc.freeze());
        }
    }

    /// With the thread: hands the frozen leftovers back to the collector, which frees what it can.
    pub(crate) fn end(self) {
        if let Some(janitor) = self.0 {
            janitor.interp.enter(|vm| vm.state.gc.unfreeze());
            janitor.finalize();
        }
    }
}

/// Runs `check` in a new sandbox interpreter on a thread of its own (tests): RustPython's collector
/// state is per thread, so no other test's objects are seen, and the VM gets the sandbox's stack.
#[cfg(test)]
pub(crate) fn on_sandbox_thread(
    check: impl FnOnce(&rustpython_vm::VirtualMachine) + Send + 'static,
) {
    std::thread::Builder::new()
        .stack_size(SANDBOX_STACK_BYTES)
        .spawn(move || {
            let sandbox = SandboxVm::build(1000).unwrap();
            sandbox.interp.enter(check);
            sandbox.finalize();
        })
        .unwrap()
        .join()
        .unwrap();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A collection lets go of the tuples that can never be in a cycle, as CPython's does: those of
    /// numbers, strings, bytes, `None` and tuples of the same, nested or not, whichever generation
    /// they are in; a tuple that holds a container, or an instance of a tuple subclass, stays tracked.
    #[test]
    fn collections_let_go_of_tuples_that_cannot_be_in_a_cycle() {
        on_sandbox_thread(|vm| {
            let scope = vm.new_scope_with_builtins();
            let source = "n = 7
leaf = (n, 'a' * n, None, n / 2, b'x' * n)
nested = (leaf, (n, ()), ((n,),))
holder = (leaf, [])
deep = (holder, (n,))
class Pair(tuple):
    pass
pair = Pair((n, n))
";
            vm.run_string(scope.clone(), source, "<tuples>").unwrap();
            let tracked = |name: &str| scope.globals.get_item(name, vm).unwrap().is_gc_tracked();
            let names = ["leaf", "nested", "holder", "deep", "pair"];
            assert!(names.iter().all(|name| tracked(name)), "tracked when made");
            vm.state.gc.collect(0);
            vm.state.gc.collect(2);
            let after: Vec<bool> = names.iter().map(|name| tracked(name)).collect();
            assert_eq!(after, [false, false, true, true, true], "{names:?}");
        });
    }

    /// A collection lets go of the dicts whose keys and values can never be in a cycle, as CPython
    /// never tracks them, and each way of storing something that could make one (a subscript, an
    /// attribute of an instance, `setdefault`, `update`, `|=`, a container as key) gives the dict back
    /// to the collector first: a cycle made through it afterwards is collected.
    #[test]
    fn collections_let_go_of_dicts_of_atoms_until_they_could_make_a_cycle() {
        on_sandbox_thread(|vm| {
            let scope = vm.new_scope_with_builtins();
            let source = "n = 7
class Plain:
    pass
obj = Plain()
obj.a = n
obj.b = 'x' * n
atoms = [{'a': n, 'b': (n, 'c'), None: n / 2} for _ in range(7)]
holder = {'l': []}
";
            vm.run_string(scope.clone(), source, "<dicts>").unwrap();
            let global = |name: &str| scope.globals.get_item(name, vm).unwrap();
            let atoms: Vec<rustpython_vm::PyObjectRef> = global("atoms")
                .downcast_ref::<rustpython_vm::builtins::PyList>()
                .unwrap()
                .borrow_vec()
                .to_vec();
            let instance_dict = global("obj").dict().unwrap().into();
            let dicts: Vec<rustpython_vm::PyObjectRef> =
                atoms.iter().cloned().chain([instance_dict]).collect();
            assert!(dicts.iter().all(|d| d.is_gc_tracked()), "tracked when made");
            vm.state.gc.collect(2);
            assert!(dicts.iter().all(|d| !d.is_gc_tracked()), "let go of");
            assert!(global("holder").is_gc_tracked());
            let stores = "atoms[0]['self'] = atoms[0]
atoms[1].setdefault('l', [atoms[1]])
atoms[2].update(l=[atoms[2]])
atoms[3] |= {'l': [atoms[3]]}
key = Plain()
key.d = atoms[4]
atoms[4][key] = 1
obj.me = obj
atoms[5]['n'] = n + 1
atoms[6]['t'] = (n, ('s',))  # a new tuple is tracked until a collection looks at it
";
            vm.run_string(scope.clone(), stores, "<stores>").unwrap();
            let tracked: Vec<bool> = dicts.iter().map(|d| d.is_gc_tracked()).collect();
            assert_eq!(
                tracked,
                [true, true, true, true, true, false, true, true],
                "after storing"
            );
            // The cycles made through the dicts given back are collected with them.
            vm.run_string(scope.clone(), "del atoms, obj", "<drop>")
                .unwrap();
            drop((dicts, atoms));
            let collected = vm.state.gc.collect(2).collected;
            assert!(collected >= 6, "{collected} collected");
        });
    }

    /// Finalizes `rounds` interpreters that imported json, on this thread (RustPython's collector
    /// state is per thread in our build), and returns the oldest generation's count and the frozen
    /// count afterwards.
    fn leftovers_after(rounds: usize, janitor: &mut Option<Janitor>) -> (usize, usize) {
        for _ in 0..rounds {
            let vm = SandboxVm::build(1000).unwrap();
            vm.interp.enter(|vm| {
                let json = vm.import("json", 0).unwrap();
                json.get_attr("dumps", vm)
                    .unwrap()
                    .call((vm.ctx.new_int(1),), vm)
                    .unwrap();
            });
            vm.finalize();
            if let Some(janitor) = janitor.as_mut() {
                janitor.set_aside_leftovers();
            }
        }
        let (_, _, oldest) = rustpython_vm::gc_state::gc_state().get_count();
        (
            oldest,
            rustpython_vm::gc_state::gc_state().get_freeze_count(),
        )
    }

    /// What finalized interpreters leave behind piles up in the collected generations (every later
    /// collection walks it: finalizing got slower with every run) unless the janitor freezes it.
    #[test]
    fn the_janitor_takes_leftovers_out_of_the_collected_generations() {
        let on_fresh_thread = |with_janitor: bool| {
            std::thread::Builder::new()
                .stack_size(SANDBOX_STACK_BYTES)
                .spawn(move || {
                    let mut janitor = with_janitor.then(Janitor::new);
                    let before = leftovers_after(1, &mut janitor);
                    let after = leftovers_after(8, &mut janitor);
                    if let Some(janitor) = janitor {
                        janitor.end();
                    }
                    (before, after)
                })
                .unwrap()
                .join()
                .unwrap()
        };
        let ((_, _), (piled, none_frozen)) = on_fresh_thread(false);
        let ((_, frozen_before), (kept, frozen_after)) = on_fresh_thread(true);
        assert_eq!(none_frozen, 0);
        assert!(
            piled > 8 * 500,
            "without the janitor only {piled} leftovers piled up"
        );
        assert!(
            kept < piled / 4,
            "{kept} leftovers still collected with the janitor, {piled} without"
        );
        assert!(
            frozen_after > frozen_before + 8 * 500,
            "{frozen_before} -> {frozen_after} frozen"
        );
    }

    /// The module global `name`, converted to `T` (tests: panics when it is missing or another type).
    fn global<T: rustpython_vm::TryFromObject>(
        vm: &rustpython_vm::VirtualMachine,
        scope: &rustpython_vm::scope::Scope,
        name: &str,
    ) -> T {
        scope
            .globals
            .get_item(name, vm)
            .unwrap()
            .try_into_value(vm)
            .unwrap()
    }

    /// Runs `source` in a new interpreter on a thread of its own and hands `check` the interpreter
    /// and the module's globals.
    fn with_module(
        source: &'static str,
        check: impl FnOnce(&rustpython_vm::VirtualMachine, &rustpython_vm::scope::Scope)
        + Send
        + 'static,
    ) {
        on_sandbox_thread(move |vm| {
            let scope = run_module(vm, source);
            check(vm, &scope);
        });
    }

    /// Runs `source` as a module and compares the `result` it leaves with `expected`: the text CPython
    /// 3.11 gives for the same module.
    fn assert_module_result(source: &'static str, expected: &'static str) {
        with_module(source, move |vm, scope| {
            let result: String = global(vm, scope, "result");
            assert_eq!(result, expected);
        });
    }

    /// [`assert_module_result`] twice: with calls to Python functions taking native stack while it
    /// has room (the default), and with every such call made in its caller's dispatch loop, as calls
    /// are once half the native stack is used.
    fn assert_module_result_both_call_ways(source: &'static str, expected: &'static str) {
        assert_module_result(source, expected);
        on_sandbox_thread(move |vm| {
            vm.set_native_calls(false);
            let scope = run_module(vm, source);
            let result: String = global(vm, &scope, "result");
            assert_eq!(
                result, expected,
                "with every call made in its caller's loop"
            );
        });
    }

    /// Runs `source` as a module in `vm` and returns its globals; a Python exception fails the test
    /// with its traceback.
    fn run_module(vm: &rustpython_vm::VirtualMachine, source: &str) -> rustpython_vm::scope::Scope {
        let scope = vm.new_scope_with_builtins();
        let code = vm
            .compile(
                source,
                rustpython_vm::compiler::Mode::Exec,
                "<test>".to_owned(),
            )
            .unwrap();
        if let Err(e) = vm.run_code_obj(code, scope.clone()) {
            let mut text = String::new();
            vm.write_exception(&mut text, &e).unwrap();
            panic!("{text}");
        }
        scope
    }

    /// The checks of a module that ran warmed-up specialized sites many times: `counts` (each
    /// watched object's reference count after the runs minus before) is all zeros, `results`
    /// equals `expected`, and the sites' `adaptive` code holds every one of `ops`. Returns
    /// `results` for further checks.
    fn assert_released_and_specialized(
        vm: &rustpython_vm::VirtualMachine,
        scope: &rustpython_vm::scope::Scope,
        zero_counts: &str,
        ops: &[rustpython_vm::bytecode::Opcode],
    ) -> String {
        let counts: String = global(vm, scope, "counts");
        assert_eq!(counts, zero_counts);
        let results: String = global(vm, scope, "results");
        let expected: String = global(vm, scope, "expected");
        assert_eq!(results, expected);
        let adaptive: Vec<u8> = global(vm, scope, "adaptive");
        for &op in ops {
            assert!(
                adaptive.iter().step_by(2).any(|&unit| unit == op as u8),
                "{op:?} not among the sites' specialized instructions: {adaptive:?}"
            );
        }
        results
    }

    /// Sorting by int and float keys read as machine words keeps what `list.sort` promises: the
    /// order, stability (equal keys keep their order, with `reverse` too), -0.0 equal to 0.0, and
    /// the general comparison for ints past 64 bits and NaN. Checked against an insertion sort.
    #[test]
    fn sorting_by_int_and_float_keys_is_ordered_and_stable() {
        with_module(
            r#"
import random
def reference(items, key, reverse):
    out = []
    for item in items:
        k = key(item)
        at = len(out)
        while at > 0 and ((key(out[at - 1]) < k) if reverse else (k < key(out[at - 1]))):
            at -= 1
        out.insert(at, item)
    return out
r = random.Random(7)
checked = 0
for n in (0, 1, 2, 3, 31, 32, 33, 65, 300):
    ints = [r.randint(-9, 9) for _ in range(n)]
    floats = [r.choice([0.0, -0.0, 1.5, -2.5, float("inf"), -float("inf")]) for _ in range(n)]
    for keys in (ints, floats, ints + [2 ** 70, -(2 ** 70)], floats + [float("nan")] * (n > 0)):
        records = list(enumerate(keys))
        for reverse in (False, True):
            by_key = sorted(records, key=lambda t: t[1], reverse=reverse)
            assert by_key == reference(records, lambda t: t[1], reverse), (n, reverse, keys)
            if float("nan") not in keys:
                plain = sorted(keys, reverse=reverse)
                assert [repr(k) for k in plain] == [repr(k) for k in reference(keys, lambda k: k, reverse)]
            checked += 1
"#,
            |vm, scope| {
                let checked: i64 = global(vm, scope, "checked");
                assert_eq!(checked, 9 * 4 * 2);
            },
        );
    }

    /// The specialized int operations read operands as `i64` and build results in place from
    /// freelisted objects: values at the edges of one limb (2³¹, 2⁶³, 2⁶⁴, both signs) give what
    /// Python defines, with `//` rounding down and `%` taking the divisor's sign, and results made
    /// from reused objects keep their values.
    #[test]
    fn int_arithmetic_at_the_edges_of_a_machine_word() {
        with_module(
            r#"
edges = [0, 1, -1, 2, -2, 7, -7, 255, 256, -5, -6, 2**31, -2**31, 2**62, 2**63 - 1, -2**63,
         2**63, -2**63 - 1, 2**64 - 1, 2**64, -2**64, 10**30, -10**30]
checked = 0
for a in edges:
    for b in edges:
        s, d, p = a + b, a - b, a * b
        assert s - b == a and d + b == a and p == b * a, (a, b)
        assert str(s) == str(int(str(a)) + int(str(b))), (a, b)
        if b:
            q, r = a // b, a % b
            assert q * b + r == a, (a, b)
            assert (0 <= r < b) if b > 0 else (b < r <= 0), (a, b)
        checked += 1
assert (-2**63) // -1 == 2**63 and str((-2**63) // -1) == "9223372036854775808"
assert (-2**63) % -1 == 0 and (2**63 - 1) + 1 == 2**63 and -2**63 - 1 == -(2**63 + 1)
assert (-7 // 2, -7 % 2, 7 // -2, 7 % -2) == (-4, 1, -4, -1)
total = 0
for i in range(100000):
    total += i * 3 - i
assert total == 100000 * 99999, total
"#,
            |vm, scope| {
                let checked: i64 = global(vm, scope, "checked");
                assert_eq!(checked, 23 * 23);
            },
        );
    }

    /// A concatenated str's kind (ASCII, UTF-8, or with lone surrogates) is its parts' union, not a
    /// scan of the result: `a + b` at a specialized site, `a += b` in place (a shared left operand,
    /// and a unique one that is reused), and `str.__add__`, over ASCII, non-ASCII and surrogate
    /// parts. A wrong kind shows in `len`, slicing, iteration and `isascii`.
    #[test]
    fn concatenated_strings_keep_the_kind_of_their_parts() {
        with_module(
            r#"
parts = ["", "ab", "\xe9", "\u65e5\u672c", "\ud800", "\udc00", "x\U0001F600"]
def add(a, b):
    return a + b
def iadd(a, b):
    a += b
    return a
def build(pieces):
    s = "?"
    for p in pieces:
        s += p
    return s
def facts(r, a, b):
    return (len(r), r.isascii(), r[len(a):] == b, r[:len(a)] == a, [ord(c) for c in r])
def expected(a, b):
    return (len(a) + len(b), a.isascii() and b.isascii(), True, True, [ord(c) for c in a] + [ord(c) for c in b])
bad = []
for _ in range(50):
    for a in parts:
        for b in parts:
            for way, r in (("+", add(a, b)), ("+=", iadd(a, b)), ("__add__", a.__add__(b))):
                if facts(r, a, b) != expected(a, b):
                    bad.append((way, a, b))
    for a in parts:
        pieces = [a, "ab", a, "\xe9", a, "\ud800", a] * 3
        r = build(pieces)
        if facts(r, "?", "".join(pieces)) != expected("?", "".join(pieces)):
            bad.append(("build", a))
bad = repr(bad[:5])
"#,
            |vm, scope| {
                let bad: String = global(vm, scope, "bad");
                assert_eq!(bad, "[]");
            },
        );
    }

    /// A builtin method whose parameters are an argument struct (`dict.get`, `str.split`) is
    /// flagged as taking one argument but takes a variable count; call sites that pass another
    /// count take the positional fast call. After the sites have warmed up (past the adaptive
    /// counters), the results, the `TypeError` for a wrong count and the check of `self`'s type
    /// are what they were.
    #[test]
    fn builtin_methods_with_optional_arguments_keep_their_results_once_specialized() {
        with_module(
            r#"
class D(dict):
    def get(self, key, default=None):
        return ("D", key, default)
d = {1: "a"}
sub = D(d)
checked = 0
for round in range(200):
    assert d.get(1) == "a" and d.get(2) is None and d.get(2, "z") == "z" and d.get(1, "z") == "a"
    assert "a b".split() == ["a", "b"] and "a,b,c".split(",", 1) == ["a", "b,c"]
    assert dict.get(d, 2, "y") == "y" and dict.get(sub, 1, "y") == "a"
    target = sub if round % 2 else d
    assert target.get(3, "w") == (("D", 3, "w") if round % 2 else "w")
    for bad in ((), (1, 2, 3)):
        try:
            d.get(*bad)
        except TypeError:
            checked += 1
    try:
        dict.get([], 1, 2)
    except TypeError:
        checked += 1
def site():
    return d.get(2, "z")
for _ in range(200):
    site()
plain, adaptive = site.__code__.co_code, site.__code__._co_code_adaptive
"#,
            |vm, scope| {
                let checked: i64 = global(vm, scope, "checked");
                assert_eq!(checked, 200 * 3);
                let plain: Vec<u8> = global(vm, scope, "plain");
                let adaptive: Vec<u8> = global(vm, scope, "adaptive");
                let call = rustpython_vm::bytecode::Opcode::Call as u8;
                let fast = rustpython_vm::bytecode::Opcode::CallMethodDescriptorFast as u8;
                let calls: Vec<usize> = (0..plain.len())
                    .step_by(2)
                    .filter(|&at| plain[at] == call)
                    .collect();
                assert_eq!(calls.len(), 1, "{plain:?}");
                assert_eq!(
                    adaptive[calls[0]], fast,
                    "`d.get(key, default)` not specialized"
                );
            },
        );
    }

    /// The specialized subscripts read an int index as a machine word (a negative one used to build
    /// and drop a `ValueError` in the guard on every execution), and ints below 2**61 - 1 hash to
    /// themselves: after the sites have warmed up, indexes and hashes at the edges of both fast
    /// paths give CPython's results and errors.
    #[test]
    fn int_indexes_and_hashes_at_the_edges_of_their_fast_paths() {
        with_module(
            r#"
xs = list(range(10)); ts = tuple(xs); s = "abcdefghij"
def read(seq, i):
    return seq[i]
def store(seq, i, v):
    seq[i] = v
for _ in range(100):
    reads = [read(seq, i) for seq in (xs, ts, s) for i in (0, 9, -1, -10, True, False)]
stored = list(range(10))
for _ in range(100):
    for i in (0, -1, -10, 9, True):
        store(stored, i, i * 2)
errors = 0
for _ in range(100):
    for seq in (xs, ts, s, stored):
        for i in (10, -11, 2**30 - 1, 2**30, 2**31, 2**63 - 1, 2**63, -2**63, 2**64, -2**64):
            try:
                read(seq, i)
            except IndexError:
                errors += 1
    for i in (10, -11, 2**30, 2**63, -2**64):
        try:
            store(stored, i, 0)
        except IndexError:
            errors += 1
M = 2**61 - 1
hashes = [hash(v) for v in (0, 1, -1, -2, M - 1, M, M + 1, -(M - 1), -M, -(M + 1), 2**62, -(2**62),
                            2**63 - 1, -(2**63), 2**63, 2**64, -(2**64) + 1, 10**30)]
reads = repr(reads)
"#,
            |vm, scope| {
                let reads: String = global(vm, scope, "reads");
                assert_eq!(
                    reads,
                    "[0, 9, 9, 0, 1, 0, 0, 9, 9, 0, 1, 0, 'a', 'j', 'j', 'a', 'b', 'a']"
                );
                let stored: Vec<i64> = global(vm, scope, "stored");
                assert_eq!(stored, [-20, 2, 2, 3, 4, 5, 6, 7, 8, 18]);
                let errors: i64 = global(vm, scope, "errors");
                assert_eq!(errors, 100 * (4 * 10 + 5));
                // CPython 3.11's values.
                let hashes: Vec<i64> = global(vm, scope, "hashes");
                let m = (1i64 << 61) - 1;
                assert_eq!(
                    hashes,
                    [
                        0,
                        1,
                        -2,
                        -2,
                        m - 1,
                        0,
                        1,
                        -(m - 1),
                        0,
                        -2,
                        2,
                        -2,
                        3,
                        -4,
                        4,
                        8,
                        -7,
                        465258685558744706
                    ]
                );
            },
        );
    }

    /// A function's entry checks for a trace function inline and reports the 'call' event out of
    /// line, and a return leaves its frame without the unwinding machinery. With `sys.settrace` on,
    /// every call of a recursive function (specialized or not), a generator's first entry and each
    /// return are still reported, once each, and the values returned are unchanged.
    #[test]
    fn a_trace_function_still_sees_every_call_and_return() {
        with_module(
            r#"
import sys
def fact(n):
    return 1 if n < 2 else n * fact(n - 1)
def gen(n):
    yield from range(n)
for _ in range(100):
    fact(5)
events = []
def tracer(frame, event, arg):
    if event in ("call", "return"):
        events.append((event, frame.f_code.co_name, arg if event == "return" else None))
    return tracer
sys.settrace(tracer)
value = fact(4)
total = sum(gen(3))
sys.settrace(None)
events = repr([e for e in events if e[1] in ("fact", "gen")])
"#,
            |vm, scope| {
                let value: i64 = global(vm, scope, "value");
                assert_eq!(value, 24);
                let total: i64 = global(vm, scope, "total");
                assert_eq!(total, 3);
                let events: String = global(vm, scope, "events");
                assert_eq!(
                    events,
                    "[('call', 'fact', None), ('call', 'fact', None), ('call', 'fact', None), \
                     ('call', 'fact', None), ('return', 'fact', 1), ('return', 'fact', 2), \
                     ('return', 'fact', 6), ('return', 'fact', 24), ('call', 'gen', None), \
                     ('return', 'gen', 0), ('call', 'gen', None), ('return', 'gen', 1), \
                     ('call', 'gen', None), ('return', 'gen', 2), ('call', 'gen', None), \
                     ('return', 'gen', None)]"
                );
            },
        );
    }

    /// Loops whose steps the dispatch loop takes without its outcome checks (a list, tuple or range
    /// element, a conditional or backward jump) and loops that unpack `d.items()`, `enumerate`
    /// or a `zip` of two without a tuple per element: their values, what the iterable is asked
    /// (an iterator asked once at its end, a zip's strict lengths, a generator's return value),
    /// errors from the iterable and the body, a dict changed while walked, and, traced after the
    /// loops are specialized, every 'line' event and no 'exception' event where a built-in
    /// iterator just ends; what CPython 3.11 gives.
    #[test]
    fn loops_taken_without_outcome_checks_or_pair_tuples_behave_as_cpython() {
        assert_module_result(
            r#"import sys
class Odd:
    """An iterator that raises StopIteration once, then goes on: asked twice at the end, it shows."""
    def __init__(self):
        self.n = 0
        self.asked = 0
    def __iter__(self):
        return self
    def __next__(self):
        self.asked += 1
        self.n += 1
        if self.n == 3:
            raise StopIteration
        return self.n * 10

def pairs_main():
    out = []
    d = {'a': 1, 'b': [2], 3: None}
    for k, v in d.items():
        out.append((k, v))
    for i, x in enumerate('xyz'):
        out.append((i, x))
    for i, x in enumerate([5, 6], start=10):
        out.append((i, x))
    for i, x in enumerate([7], start=2**64):
        out.append((i, x))
    o = Odd()
    for i, x in enumerate(o):
        out.append((i, x))
    out.append(('asked', o.asked))
    try:
        for k, v in d.items():
            d['new'] = 1
    except RuntimeError as e:
        out.append(str(e))
    try:
        for a, b in enumerate([1, 2]):
            raise ValueError(a)
    except ValueError as e:
        out.append(repr(e))
    def gen():
        yield 1
        raise KeyError('g')
    try:
        for i, x in enumerate(gen()):
            out.append(('g', i, x))
    except KeyError as e:
        out.append(repr(e))
    for (k, v) in {1: 2}.items():
        out.append(k + v)
    for k, (a, b) in {1: (2, 3)}.items():
        out.append((k, a, b))
    for i, *rest in enumerate([[1, 2]]):
        out.append((i, rest))
    it = enumerate([1, 2, 3])
    for i, x in it:
        if i == 1:
            break
    out.append(list(it))
    e = {}
    for k, v in e.items():
        out.append('never')
    r = [(k, v) for k, v in {'p': 1, 'q': 2}.items()]
    out.append(r)
    out.append({i: x for i, x in enumerate('ab')})
    return out
class Counted:
    def __init__(self, n):
        self.n = n
        self.asked = 0
    def __iter__(self):
        return self
    def __next__(self):
        self.asked += 1
        if self.asked > self.n:
            raise StopIteration
        return self.asked

def zips_main():
    out = []
    for a, b in zip([1, 2, 3], 'ab'):
        out.append((a, b))
    x, y = Counted(3), Counted(2)
    for a, b in zip(x, y):
        out.append((a, b))
    out.append((x.asked, y.asked))
    try:
        for a, b in zip([1, 2], [3], strict=True):
            out.append((a, b))
    except ValueError as e:
        out.append(str(e))
    try:
        for a, b in zip([1], [3, 4], strict=True):
            out.append((a, b))
    except ValueError as e:
        out.append(str(e))
    for a, b, c in zip([1], [2], [3]):
        out.append((a, b, c))
    for t in zip([1], [2]):
        out.append(t)
    for (a, b) in zip(range(3), range(10, 13)):
        out.append(a * b)
    z = zip([1, 2, 3], [4, 5, 6])
    for a, b in z:
        break
    out.append(list(z))
    out.append(sum(a * b for a, b in zip([1, 2], [3, 4])))
    out.append(dict(zip('ab', 'cd')))
    def g():
        yield 1
        return 'done'
    it = enumerate(g())
    next(it)
    try:
        next(it)
    except StopIteration as e:
        out.append(('stop', e.value))
    return out
events = []
def tracer(frame, event, arg):
    if frame.f_code.co_name == "loops":
        events.append((event, frame.f_lineno - frame.f_code.co_firstlineno))
    return tracer
def loops():
    t = 0
    for k, v in {"a": 1, "b": 2}.items():
        t += v
    for i, x in enumerate([3, 4]): t += i * x
    for a, b in zip([5], [6]):
        t += a * b
    i = 0
    while i < 3:
        i += 1
    for x in [7, 8]:
        if x > 7:
            t += x
    return t
for _ in range(100):
    loops()
sys.settrace(tracer)
value = loops()
sys.settrace(None)
runs = [(pairs_main(), zips_main()) for _ in range(3)]
result = repr((runs[0] == runs[2], runs[0], value, events))
"#,
            r#"(True, ([('a', 1), ('b', [2]), (3, None), (0, 'x'), (1, 'y'), (2, 'z'), (10, 5), (11, 6), (18446744073709551616, 7), (0, 10), (1, 20), ('asked', 3), 'dictionary changed size during iteration', 'ValueError(0)', ('g', 0, 1), "KeyError('g')", 3, (1, 2, 3), (0, [[1, 2]]), [(2, 3)], [('p', 1), ('q', 2)], {0: 'a', 1: 'b'}], [(1, 'a'), (2, 'b'), (1, 1), (2, 2), (3, 3), (1, 3), 'zip() argument 2 is shorter than argument 1', (1, 3), 'zip() argument 2 is longer than argument 1', (1, 2, 3), (1, 2), 0, 11, 24, [(2, 5), (3, 6)], 11, {'a': 'c', 'b': 'd'}, ('stop', 'done')]), 45, [('call', 0), ('line', 1), ('line', 2), ('line', 3), ('line', 2), ('line', 3), ('line', 2), ('line', 4), ('line', 4), ('line', 4), ('line', 5), ('line', 6), ('line', 5), ('line', 7), ('line', 8), ('line', 9), ('line', 8), ('line', 9), ('line', 8), ('line', 9), ('line', 8), ('line', 10), ('line', 11), ('line', 10), ('line', 11), ('line', 12), ('line', 10), ('line', 13), ('return', 13)])"#,
        );
    }

    /// `sys.monitoring` sees a loop over `d.items()` and `enumerate` line by line, and gets no RAISE
    /// event where the built-in iterator just ends (nothing was raised), after the loops are
    /// specialized; what CPython 3.13 gives (3.11 has no `sys.monitoring`).
    #[test]
    fn monitoring_sees_no_stop_iteration_raised_where_a_builtin_iterator_ends() {
        assert_module_result(
            r#"import sys
mon = sys.monitoring
TOOL = 3
mon.use_tool_id(TOOL, "t")
events = []
def on_line(code, line):
    if code.co_name == "f":
        events.append(("L", line - code.co_firstlineno))
def on_raise(code, off, exc):
    if code.co_name == "f":
        events.append(("R", type(exc).__name__))
def f():
    t = 0
    for k, v in {"a": 1, "b": 2}.items():
        t += v
    for i, x in enumerate([3]):
        t += x
    return t
for _ in range(50):
    f()
mon.register_callback(TOOL, mon.events.LINE, on_line)
mon.register_callback(TOOL, mon.events.RAISE, on_raise)
mon.set_events(TOOL, mon.events.LINE | mon.events.RAISE)
value = f()
mon.set_events(TOOL, 0)
mon.free_tool_id(TOOL)
result = repr((value, events))
"#,
            "(6, [('L', 1), ('L', 2), ('L', 3), ('L', 2), ('L', 3), ('L', 2), ('L', 4), ('L', 5), \
             ('L', 4), ('L', 6)])",
        );
    }

    /// A `for` loop over a dict, its keys or its values takes the dict iterator's step directly, and
    /// over any other iterator calls its `__next__` slot without the poll `next()` makes: the same
    /// elements, the changed-size errors, an iterator taken up again after a `break`, a class whose
    /// `__next__` goes away mid-loop and the traced 'line' events as CPython 3.11 (3.13 gives the
    /// same), after the loops are specialized.
    #[test]
    fn loops_over_dicts_and_other_iterators_step_as_cpython() {
        assert_module_result(
            r#"import sys
def main():
    out = []
    d = {'a': 1, 'b': [2], 3: None}
    for k in d:
        out.append(k)
    for v in d.values():
        out.append(v)
    for kv in d.items():
        out.append(kv)
    for k in d.keys():
        out.append(k)
    for k in reversed(d):
        out.append(k)
    try:
        for k in d:
            d['new'] = 1
    except RuntimeError as e:
        out.append(str(e))
    try:
        for v in d.values():
            del d['a']
    except RuntimeError as e:
        out.append(str(e))
    it = iter({1: 2, 3: 4})
    for k in it:
        break
    out.append(list(it))
    out.append(list(it))
    e = {}
    for k in e:
        out.append('never')
    for k in e.values():
        out.append('never')
    class Counter:
        def __init__(self):
            self.n = 0
        def __iter__(self):
            return self
        def __next__(self):
            self.n += 1
            if self.n == 2:
                del Counter.__next__
            return self.n
    try:
        for x in Counter():
            out.append(x)
    except TypeError as e:
        out.append(str(e))
    for ch in 'hé':
        out.append(ch)
    for x in map(abs, [-1, 2]):
        out.append(x)
    for x in sorted({3, 1, 2}):
        out.append(x)
    events = []
    def tracer(frame, event, arg):
        if frame.f_code.co_name == 'traced':
            events.append((event, frame.f_lineno - frame.f_code.co_firstlineno))
        return tracer
    def traced(m):
        t = 0
        for k in m:
            t += m[k]
        for v in m.values():
            t += v
        return t
    traced({1: 1, 2: 2})
    sys.settrace(tracer)
    out.append(traced({1: 1, 2: 2}))
    sys.settrace(None)
    out.append(events)
    return out
runs = [main() for _ in range(3)]
result = repr((runs[0] == runs[2], runs[2]))
"#,
            r#"(True, ['a', 'b', 3, 1, [2], None, ('a', 1), ('b', [2]), (3, None), 'a', 'b', 3, 3, 'b', 'a', 'dictionary changed size during iteration', 'dictionary changed size during iteration', [3], [], 1, 2, "'Counter' object is not iterable", 'h', 'é', 1, 2, 1, 2, 3, 6, [('call', 0), ('line', 1), ('line', 2), ('line', 3), ('line', 2), ('line', 3), ('line', 2), ('line', 4), ('line', 5), ('line', 4), ('line', 5), ('line', 4), ('line', 6), ('return', 6)]])"#,
        );
    }

    /// A call's frame that nothing outside the dispatch loop looked at gives its storage straight
    /// back to the data stack once its values are dropped; one whose locals mapping or frame object
    /// was made, or that a traceback keeps, goes the whole way. Either way each local is released
    /// when CPython 3.11 releases it, and a `__del__` that calls more Python then runs as there.
    #[test]
    fn a_returning_call_releases_its_locals_as_cpython() {
        assert_module_result(
            r#"import sys
log = []
class D:
    def __init__(self, n):
        self.n = n
    def __del__(self):
        log.append(('del', self.n))
        helper(self.n)
def helper(n):
    log.append(('helper', n, len([x for x in range(n + 1)])))
def plain(n):
    d = D(n)
    return n
def with_locals(n):
    d = D(n)
    return sorted(locals())
def with_frame(n):
    d = D(n)
    return sys._getframe().f_code.co_name
def raising(n):
    d = D(n)
    raise ValueError(n)
def nested(n):
    d = D(n)
    return plain(n + 10) + 1
def main():
    out = []
    for i in range(3):
        out.append(plain(i))
        out.append(with_locals(i))
        out.append(with_frame(i))
        try:
            raising(i)
        except ValueError as e:
            out.append(repr(e))
        out.append(nested(i))
    return out
runs = [main() for _ in range(3)]
result = repr((runs[0] == runs[2], runs[2], log[-16:]))
"#,
            r#"(True, [0, ['d', 'n'], 'with_frame', 'ValueError(0)', 11, 1, ['d', 'n'], 'with_frame', 'ValueError(1)', 12, 2, ['d', 'n'], 'with_frame', 'ValueError(2)', 13], [('del', 11), ('helper', 11, 12), ('del', 1), ('helper', 1, 2), ('del', 2), ('helper', 2, 3), ('del', 2), ('helper', 2, 3), ('del', 2), ('helper', 2, 3), ('del', 2), ('helper', 2, 3), ('del', 12), ('helper', 12, 13), ('del', 2), ('helper', 2, 3)])"#,
        );
    }

    /// The same release for a Python function a built-in calls (`map`, `sorted`'s and `max`'s
    /// keys): each local with a `__del__` that calls more Python is released when CPython 3.11
    /// releases it, whether or not the frame was looked at from outside.
    #[test]
    fn a_call_from_a_builtin_releases_its_locals_as_cpython() {
        assert_module_result(
            r#"import sys
log = []
class D:
    def __init__(self, n):
        self.n = n
    def __del__(self):
        log.append(('del', self.n))
        log.append(('helper', sorted([self.n, 0], key=lambda x: -x)))
def plain(n):
    d = D(n)
    return n
def with_locals(n):
    d = D(n)
    return len(locals())
def with_frame(n):
    d = D(n)
    return sys._getframe().f_code.co_name
def raising(n):
    d = D(n)
    raise ValueError(n)
def main():
    out = [list(map(plain, [1, 2])), sorted([3, 4], key=with_locals), list(map(with_frame, [5]))]
    try:
        list(map(raising, [6]))
    except ValueError as e:
        out.append(repr(e))
    out.append(max([7, 8], key=plain))
    return out
runs = [main() for _ in range(3)]
result = repr((runs[0] == runs[2], runs[2], log[-14:]))
"#,
            r#"(True, [[1, 2], [3, 4], ['with_frame'], 'ValueError(6)', 8], [('del', 2), ('helper', [2, 0]), ('del', 3), ('helper', [3, 0]), ('del', 4), ('helper', [4, 0]), ('del', 5), ('helper', [5, 0]), ('del', 6), ('helper', [6, 0]), ('del', 7), ('helper', [7, 0]), ('del', 8), ('helper', [8, 0])])"#,
        );
    }

    /// A recursion deeper than half the native stack goes on with each call made in its caller's
    /// dispatch loop, which takes no native stack, so the recursion limit ends it, not the stack: on
    /// a thread with an 8 MiB stack (where calls that all took native stack would run out of it at
    /// a few thousand), each call shape reaches a limit of 30,000, and its `RecursionError` says what
    /// CPython's says.
    #[test]
    fn deep_recursion_ends_at_the_recursion_limit_not_the_native_stack() {
        const SOURCE: &str = r#"reached = [0]
def exact(n):
    reached[0] = n
    exact(n + 1)
def defaults(n, step=1):
    reached[0] = n
    defaults(n + step)
def keywords(n, *, step):
    reached[0] = n
    keywords(n + step, step=step)
def star(*args):
    reached[0] = args[0]
    star(args[0] + 1)
def forward(n, *args, **kwargs):
    reached[0] = n
    forward(*(n + 1,), **kwargs)
class C:
    def method(self, n):
        reached[0] = n
        self.method(n + 1)
    def method_defaults(self, n, step=1):
        reached[0] = n
        self.method_defaults(n + step)
depths = []
for f, args in ((exact, (0,)), (defaults, (0,)), (keywords, (0,)), (star, (0,)), (forward, (0,)),
                (C().method, (0,)), (C().method_defaults, (0,))):
    reached[0] = 0
    try:
        f(*args, **({'step': 1} if f is keywords else {}))
    except RecursionError as e:
        depths.append((f.__name__, reached[0], str(e)))
result = repr((len(depths), [d for d in depths
                             if not 29_900 <= d[1] < 30_000 or d[2] != 'maximum recursion depth exceeded']))
"#;
        std::thread::Builder::new()
            .stack_size(8 << 20)
            .spawn(|| {
                let sandbox = SandboxVm::build(30_000).unwrap();
                sandbox.interp.enter(|vm| {
                    let scope = run_module(vm, SOURCE);
                    // Each shape's RecursionError, and none that came short of the limit or said
                    // something else.
                    let result: String = global(vm, &scope, "result");
                    assert_eq!(result, "(7, [])");
                });
                sandbox.finalize();
            })
            .unwrap()
            .join()
            .unwrap();
    }

    /// Calls of Python functions that do not take the exact positional shape (defaults, keywords,
    /// `*args`, `**kwargs`, keyword-only parameters, bound methods, `f(*args, **kwargs)`) run
    /// their callee in the caller's dispatch loop; what a run sees of them is CPython 3.11's: the
    /// bound values, the frame chain (`f_back`), tracebacks through decorators, binding errors
    /// raised in the caller, generators, and `RecursionError` at the limit for each shape.
    #[test]
    fn calls_of_every_shape_bind_and_unwind_as_cpython() {
        assert_module_result_both_call_ways(
            r#"import sys, traceback
def defaults(a, b=2, *, c=3):
    return (a, b, c)
def star(*args, **kwargs):
    return (args, sorted(kwargs.items()))
def mixed(a, b=1, *rest, key=None, **kw):
    return (a, b, rest, key, sorted(kw))
def back():
    return sys._getframe().f_back.f_code.co_name
def caller_of_back(x=0):
    return (back(), sys._getframe().f_back.f_code.co_name)
def forward(*args, **kwargs):
    return defaults(*args, **kwargs)
def deco(fn):
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)
    return wrapper
@deco
def decorated(x, y=10):
    if x < 0:
        raise ValueError(x)
    return x + y
def gen(n, step=1):
    yield from range(0, n, step)
def depth(n, acc=0):
    return acc if n == 0 else depth(n - 1, acc + 1)
class C:
    def m(self, a, b=5):
        return a * b
    def k(self, *, scale):
        return scale
def bad_binding():
    out = []
    for f, a, k in ((defaults, (), {}), (defaults, (1, 2, 3), {}), (defaults, (1,), {'d': 1}),
                    (defaults, (1,), {'a': 1}), (C().m, (), {}), (C().k, (1,), {})):
        try:
            f(*a, **k)
        except TypeError as e:
            out.append((str(e), [fr.name for fr in traceback.extract_tb(e.__traceback__)]))
    return out
def main():
    out = []
    c = C()
    bound = c.m
    for i in range(60):
        out.append(defaults(i))
        out.append(defaults(i, c=i))
        out.append(defaults(b=i, a=1))
        out.append(star(i, x=i))
        out.append(star())
        out.append(mixed(i, 2, 3, 4, key=i, z=1))
        out.append(caller_of_back())
        out.append(forward(i, c=0))
        out.append(forward(*(i,)))
        out.append(decorated(i))
        out.append(decorated(i, y=i))
        try:
            decorated(-i - 1)
        except ValueError as e:
            out.append(('caught', e.args, [fr.name for fr in traceback.extract_tb(e.__traceback__)]))
        out.append(list(gen(i % 7, 2)))
        out.append(c.m(i))
        out.append(bound(i))
        out.append(bound(a=i, b=1))
        out.append(c.k(scale=i))
        out.append(depth(i))
    out.append(bad_binding())
    return out
runs = [main() for _ in range(3)]
limit = sys.getrecursionlimit()
def deep(n, pad=None):
    return deep(n + 1)
def deep_star(*a):
    return deep_star(*a)
def deep_kw(n, *, pad=None):
    return deep_kw(n, pad=pad)
errors = []
for f in (deep, deep_star, deep_kw):
    try:
        f(0)
    except RecursionError as e:
        errors.append((type(e).__name__, str(e)))
result = repr((runs[0] == runs[2], len(runs[2]), runs[2][:20], runs[2][-1], errors, sys.getrecursionlimit() == limit, depth(300)))
"#,
            r#"(True, 1081, [(0, 2, 3), (0, 2, 0), (1, 0, 3), ((0,), [('x', 0)]), ((), []), (0, 2, (3, 4), 0, ['z']), ('caller_of_back', 'main'), (0, 2, 0), (0, 2, 3), 10, 0, ('caught', (-1,), ['main', 'wrapper', 'decorated']), [], 0, 0, 0, 0, 0, (1, 2, 3), (1, 2, 1)], [("defaults() missing 1 required positional argument: 'a'", ['bad_binding']), ('defaults() takes from 1 to 2 positional arguments but 3 were given', ['bad_binding']), ("defaults() got an unexpected keyword argument 'd'", ['bad_binding']), ("defaults() got multiple values for argument 'a'", ['bad_binding']), ("C.m() missing 1 required positional argument: 'a'", ['bad_binding']), ('C.k() takes 1 positional argument but 2 were given', ['bad_binding'])], [('RecursionError', 'maximum recursion depth exceeded'), ('RecursionError', 'maximum recursion depth exceeded'), ('RecursionError', 'maximum recursion depth exceeded')], True, 300)"#,
        );
    }

    /// A range iterator's position, a list's mutation count, a generator's running claim and a
    /// frame's owner change without locked instructions in a VM built without `threading` (each is
    /// one thread's); what a run sees of them is CPython 3.11's (and 3.13's): a loop's position,
    /// `__length_hint__` and `__setstate__`, a long range, nested and abandoned loops, a list changed
    /// during its sort and during a loop over it, `generator already executing`, `gi_running` and
    /// `f_back` while a generator runs, and `send`.
    #[test]
    fn range_list_and_generator_state_behaves_as_cpython() {
        assert_module_result(
            r#"import sys
out = []
# range iterators: position, length hint, pickling state, a long range
it = iter(range(3, 30, 4))
out.append((next(it), next(it), it.__length_hint__()))
it2 = iter(range(0))
it2.__setstate__(5)
out.append(list(it2))
it3 = iter(range(10))
it3.__setstate__(7)
out.append((list(it3), it3.__length_hint__()))
big = iter(range(2**64, 2**64 + 10, 3))
out.append((next(big), big.__length_hint__(), list(big)))
# the loop's own step, nested and abandoned
acc = []
for i in range(3):
    for j in range(i, 3):
        acc.append((i, j))
        if j == 1:
            break
out.append(acc)
# a list changed during a sort, and while another loop walks it
xs = [3, 1, 2]
def key(v):
    xs.append(v)
    return v
try:
    xs.sort(key=key)
except ValueError as e:
    out.append(str(e))
ys = [1, 2, 3]
seen = []
for v in ys:
    seen.append(v)
    if v == 1:
        ys.append(4)
out.append(seen)
# generators: already executing, frames while suspended and resumed
def g():
    yield sys._getframe().f_back.f_code.co_name
    yield gen.gi_running
    try:
        next(gen)
    except ValueError as e:
        yield str(e)
gen = g()
def outer():
    return list(gen)
out.append((outer(), gen.gi_running, gen.gi_frame))
def counter():
    n = 0
    while True:
        n = yield n
c = counter()
next(c)
out.append([c.send(k) for k in range(4)] + [c.gi_running, c.gi_suspended if hasattr(c, "gi_suspended") else None])
result = repr(out)"#,
            r#"[(3, 7, 5), [], ([7, 8, 9], 0), (18446744073709551616, 3, [18446744073709551619, 18446744073709551622, 18446744073709551625]), [(0, 0), (0, 1), (1, 1), (2, 2)], 'list modified during sort', [1, 2, 3, 4], (['outer', True, 'generator already executing'], False, None), [0, 1, 2, 3, False, True]]"#,
        );
    }

    /// A class call whose `__init__` the dispatch loop runs in a frame of its own (the specialised
    /// instantiation, `CALL_ALLOC_AND_ENTER_INIT`) behaves as CPython 3.13's: the caller `__init__`
    /// sees, `__init__() should return None` for a value and for a generator `__init__`, an exception
    /// raised in `__init__` and its traceback, `__init__` building its own class 200 deep and without
    /// end, a subclass, and every call counted, with calls taking native stack and without.
    #[test]
    fn class_instantiation_runs_init_as_cpython() {
        assert_module_result_both_call_ways(
            r#"import sys
out = []
class P:
    def __init__(self, a, b):
        self.a = a
        self.b = b
        self.caller = sys._getframe().f_back.f_code.co_name
def make():
    return [P(i, i * 2) for i in range(20)]
ps = make()
out.append([(p.a, p.b, p.caller) for p in ps[:3]])
def seen(make_one):
    outcomes = {}
    for k in range(20):
        try:
            make_one(k)
            outcome = "made"
        except Exception as e:
            outcome = (type(e).__name__, str(e))
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    return sorted(outcomes.items(), key=repr)
class Bad:
    def __init__(self, x):
        return x
out.append(seen(lambda k: Bad(k)))
class Gen:
    def __init__(self, x):
        yield x
out.append(seen(lambda k: Gen(k)))
class Raises:
    def __init__(self, x):
        raise KeyError(x % 2)
def build(n):
    return Raises(n)
tracebacks = set()
for k in range(20):
    try:
        build(k)
    except KeyError as e:
        tb = e.__traceback__
        names = []
        while tb is not None:
            names.append(tb.tb_frame.f_code.co_name)
            tb = tb.tb_next
        tracebacks.add((e.args, tuple(names)))
out.append(sorted(tracebacks))
class Deep:
    def __init__(self, n):
        self.child = Deep(n - 1) if n else None
def depth(d):
    n = 0
    while d is not None:
        d = d.child
        n += 1
    return n
out.append(depth(Deep(200)))
class Rec:
    def __init__(self):
        Rec()
try:
    Rec()
except RecursionError:
    out.append("RecursionError")
class Sub(P):
    pass
out.append([vars(Sub(i, -i)) for i in range(20)][:2])
counter = []
class Counted:
    def __init__(self, v):
        counter.append(v)
for i in range(30):
    Counted(i)
out.append(counter == list(range(30)))
result = repr(out)"#,
            r#"[[(0, 0, 'make'), (1, 2, 'make'), (2, 4, 'make')], [(('TypeError', "__init__() should return None, not 'int'"), 20)], [(('TypeError', "__init__() should return None, not 'generator'"), 20)], [((0,), ('<module>', 'build', '__init__')), ((1,), ('<module>', 'build', '__init__'))], 201, 'RecursionError', [{'a': 0, 'b': 0, 'caller': '<module>'}, {'a': 1, 'b': -1, 'caller': '<module>'}], True]"#,
        );
    }

    /// An object's weak references end with it, as CPython 3.13's do, now that an object dying with
    /// none skips the list's lock: each callback runs once, `weakref.ref` hands back its one
    /// callback-less reference, a `WeakValueDictionary` loses exactly the entries whose values died,
    /// and a thousand objects with no weak reference die without running any callback.
    #[test]
    fn weak_references_end_with_their_object_as_cpython() {
        assert_module_result(
            r#"import weakref
out = []
class Node:
    pass
died = []
for i in range(20):
    n = Node()
    r = weakref.ref(n, lambda ref, i=i: died.append(i))
    same = weakref.ref(n) is weakref.ref(n)
    del n
    out.append((r() is None, same))
out.append((sorted(set(out)), died == list(range(20))))
out = out[-1:]
cache = weakref.WeakValueDictionary()
keep = [Node() for _ in range(5)]
for i, k in enumerate(keep):
    cache[i] = k
for i in range(20):
    cache[100 + i] = Node()
out.append(sorted(cache.keys()))
del keep[0]
out.append(sorted(cache.keys()))
plain = [Node() for _ in range(1000)]
del plain
out.append(len(died))
result = repr(out)"#,
            r#"[([(True, True)], True), [0, 1, 2, 3, 4], [1, 2, 3, 4], 20]"#,
        );
    }

    /// A loop's backward jump tests for a tracer inline and reports the 'line' event of an edge
    /// that stays on one line out of line: traced, a `for` loop written on one line still reports
    /// that line once per iteration (CPython 3.11's events), and untraced it reports nothing.
    #[test]
    fn a_traced_loop_on_one_line_reports_its_line_at_every_iteration() {
        with_module(
            r#"
import sys
events = []
def tracer(frame, event, arg):
    if frame.f_code.co_name == "f":
        events.append((event, frame.f_lineno - frame.f_code.co_firstlineno))
    return tracer
def f():
    x = 0
    for i in range(3): x += i
    return x
f()
sys.settrace(tracer)
value = f()
sys.settrace(None)
f()
events = repr(events)
"#,
            |vm, scope| {
                let value: i64 = global(vm, scope, "value");
                assert_eq!(value, 3);
                let events: String = global(vm, scope, "events");
                assert_eq!(
                    events,
                    "[('call', 0), ('line', 1), ('line', 2), ('line', 2), ('line', 2), \
                     ('line', 2), ('line', 3), ('return', 3)]"
                );
            },
        );
    }

    /// Everything a trace function needs before an instruction runs happens out of the dispatch
    /// loop, behind one test of the tracing flag. The 'line' and 'opcode' events still come in
    /// order, once per line change and once per instruction; an exception a 'line' or an 'opcode'
    /// callback raises is raised at that instruction, so the frame's own `except` catches it (as in
    /// CPython 3.11) and one the frame does not catch leaves it; a callback that turns tracing off
    /// stops the events at once.
    #[test]
    fn a_trace_function_sees_lines_and_opcodes_and_its_exceptions_are_raised_in_place() {
        with_module(
            r#"
import sys
def f(x):
    y = x + 1
    z = y * 2
    return z - 1
def guarded(x):
    try:
        y = x + 1
        return ("body", y)
    except ValueError as e:
        return ("handled", str(e))
def line_of(frame, fn):
    return frame.f_lineno - fn.__code__.co_firstlineno
def traced(tracer, fn, *args):
    sys.settrace(tracer)
    try:
        return fn(*args)
    except Exception as e:
        return ("escaped", repr(e))
    finally:
        sys.settrace(None)
log = []
def lines_and_opcodes(frame, event, arg):
    if frame.f_code.co_name == "f":
        frame.f_trace_opcodes = True
        log.append((event, line_of(frame, f)))
    return lines_and_opcodes
def raise_on_line(frame, event, arg):
    if event == "line" and frame.f_code.co_name in ("f", "guarded"):
        if line_of(frame, {"f": f, "guarded": guarded}[frame.f_code.co_name]) == 2:
            raise ValueError("line")
    return raise_on_line
def raise_on_opcode(frame, event, arg):
    if frame.f_code.co_name == "guarded":
        frame.f_trace_opcodes = True
        if event == "opcode" and line_of(frame, guarded) == 2:
            raise ValueError("opcode")
    return raise_on_opcode
off = []
def turn_off(frame, event, arg):
    if frame.f_code.co_name == "f":
        frame.f_trace_opcodes = True
        off.append((event, line_of(frame, f)))
        if event == "line":
            sys.settrace(None)
            frame.f_trace = None
    return turn_off
results = [traced(lines_and_opcodes, f, 3)]
runs = []
for event, line in log:
    if not runs or runs[-1] != (event, line):
        runs.append((event, line))
every_line_has_opcodes = all(log.count(("opcode", n)) > 0 for n in (1, 2, 3))
results += [traced(raise_on_line, guarded, 1), traced(raise_on_line, f, 1)]
results += [traced(raise_on_opcode, guarded, 1), traced(turn_off, f, 2), off]
results = repr(results)
runs = repr(runs)
"#,
            |vm, scope| {
                let runs: String = global(vm, scope, "runs");
                assert_eq!(
                    runs,
                    "[('call', 0), ('line', 1), ('opcode', 1), ('line', 2), ('opcode', 2), \
                     ('line', 3), ('opcode', 3), ('return', 3)]"
                );
                let every_line_has_opcodes: bool = global(vm, scope, "every_line_has_opcodes");
                assert!(every_line_has_opcodes);
                let results: String = global(vm, scope, "results");
                assert_eq!(
                    results,
                    "[7, ('handled', 'line'), ('escaped', \"ValueError('line')\"), \
                     ('handled', 'opcode'), 5, [('call', 0), ('line', 1)]]"
                );
            },
        );
    }

    /// An instruction whose argument needs `EXTENDED_ARG` prefixes (a local, a constant or a jump
    /// past 255) gets the whole argument, and runs at its own index: its inline caches and relative
    /// jumps line up, traced or not, in a function body and in a loop body long enough that the jump
    /// back is prefixed too.
    #[test]
    fn instructions_with_extended_arguments_run_as_written_traced_or_not() {
        with_module(
            r#"
import sys
names = [f"v{i}" for i in range(300)]
src = "def many(flag):\n"
src += "".join(f"    {n} = 'c{i}'\n" for i, n in enumerate(names))
src += "    if flag:\n"
src += "".join(f"        {n} = {n} + '!'\n" for n in names)
src += f"    return {names[299]} + {names[0]}\n"
src += "def loop(n):\n    total = 0\n    i = 0\n    while i < n:\n"
src += "".join(f"        total = total + {i}\n" for i in range(300))
src += "        i = i + 1\n    return total\n"
ns = {}
exec(src, ns)
many, loop = ns["many"], ns["loop"]
def run_all():
    return [many(False), many(True), many(True), loop(3), loop(0)]
plain = [run_all() for _ in range(3)]
opcodes = []
def tracer(frame, event, arg):
    if frame.f_code.co_name in ("many", "loop"):
        frame.f_trace_opcodes = True
        if event == "opcode":
            opcodes.append(frame.f_code.co_name)
    return tracer
sys.settrace(tracer)
try:
    traced = run_all()
finally:
    sys.settrace(None)
results = repr(plain + [traced])
traced_opcodes = len(opcodes) > 0
"#,
            |vm, scope| {
                let expected = format!(
                    "['c299c0', 'c299!c0!', 'c299!c0!', {}, 0]",
                    3 * (0..300).sum::<i64>()
                );
                let results: String = global(vm, scope, "results");
                assert_eq!(results, format!("[{}]", vec![expected; 4].join(", ")));
                let traced_opcodes: bool = global(vm, scope, "traced_opcodes");
                assert!(traced_opcodes);
            },
        );
    }

    /// Math functions read their arguments as CPython's `PyFloat_AsDouble` does: a float, subclasses
    /// included, by its value (not its `__float__`); an exact int by its value; anything else through
    /// `__float__`, then `__index__`.
    #[test]
    fn math_functions_read_their_arguments_as_cpython_does() {
        with_module(
            r#"
import math
class I(int):
    def __float__(self):
        return 9.0
class F(float):
    def __float__(self):
        return 9.0
class Idx:
    def __index__(self):
        return 25
class Flt:
    def __float__(self):
        return 36.0
out = [math.sqrt(16), math.sqrt(2 ** 1000) == 2.0 ** 500, math.sqrt(True), math.sqrt(I(4)),
       math.sqrt(F(4.0)), math.sqrt(Idx()), math.sqrt(Flt()), math.sqrt(2.25), math.hypot(3, 4)]
for bad in (10 ** 400, "x", None):
    try:
        math.sqrt(bad)
    except Exception as e:
        out.append(f"{type(e).__name__}: {e}")
results = repr(out)
"#,
            |vm, scope| {
                let results: String = global(vm, scope, "results");
                assert_eq!(
                    results,
                    "[4.0, True, 1.0, 3.0, 2.0, 5.0, 6.0, 1.5, 5.0, \
                     'OverflowError: int too large to convert to float', \
                     'TypeError: must be real number, not str', \
                     'TypeError: must be real number, not NoneType']"
                );
            },
        );
    }

    /// Float arithmetic that writes its result into an operand only it holds (a temporary such as
    /// the `a * b` in `a * b + c`) never changes a float anything else can see: locals, list and
    /// dict entries, globals, constants, default arguments and closure cells keep their values and
    /// identities, however often the specialized sites run, and every result is what the
    /// arithmetic gives.
    #[test]
    fn float_arithmetic_on_temporaries_leaves_every_visible_float_alone() {
        with_module(
            r#"
G = 1.25
def make(c=0.5):
    cell = 3.0
    def step(a, b, box, table):
        t = a * b
        box.append(t)
        table["t"] = t
        r = (a * b) + (a - b) * (t + 1.0) - (G * c) * (cell / 2.0)
        u = t * 1.0
        box[0] += a * b
        return r, u is t, t
    return step
step = make()
x, y = 1.5, 2.5
box, table = [0.0], {}
runs = [step(x, y, box, table) for _ in range(200)]
class F(float):
    pass
f = F(2.0)
sub = (f + 1.0, type(f + 1.0).__name__, f * f)
results = repr((runs[0], runs[-1] == runs[0], x, y, G, box[1], box[-1], table, len(box),
                box[0], sub))
"#,
            |vm, scope| {
                let results: String = global(vm, scope, "results");
                let t = 1.5_f64 * 2.5;
                let r = (1.5 * 2.5) + (1.5 - 2.5) * (t + 1.0) - (1.25 * 0.5) * (3.0 / 2.0);
                let box0 = (0..200).fold(0.0_f64, |acc, _| acc + 1.5 * 2.5);
                assert_eq!(
                    results,
                    format!(
                        "(({r:?}, False, {t:?}), True, 1.5, 2.5, 1.25, {t:?}, {t:?}, \
                         {{'t': {t:?}}}, 201, {box0:?}, (3.0, 'float', 4.0))"
                    )
                );
            },
        );
    }

    /// The same for `+`, `-` and `*` of ints: a temporary takes a result only outside the small-int
    /// cache (a small result is the cached object), an int anything else can see keeps its value,
    /// and results past a machine word still come out right.
    #[test]
    fn int_arithmetic_on_temporaries_leaves_every_visible_int_alone() {
        with_module(
            r#"
G = 1000
def step(a, b, box):
    t = a * b
    box.append(t)
    r = (a * b) + (a - b) * (t + 7) - G * 3
    u = t * 1
    small = (a * b) - (a * b) + 5
    big = (a * b) * (2 ** 62)
    box[0] += a * b
    return r, u is t, t, small is 5, big
x, y = 300, 700
box = [0]
runs = [step(x, y, box) for _ in range(200)]
results = repr((runs[0], runs[-1] == runs[0], x, y, G, box[1], box[-1], len(box), box[0]))
"#,
            |vm, scope| {
                let results: String = global(vm, scope, "results");
                let t: i128 = 300 * 700;
                let r = t + (300 - 700) * (t + 7) - 1000 * 3;
                let big = t * (1_i128 << 62);
                assert_eq!(
                    results,
                    format!(
                        "(({r}, False, {t}, True, {big}), True, 300, 700, 1000, {t}, {t}, 201, {})",
                        200 * t
                    )
                );
            },
        );
    }

    /// Comparisons made inside the VM (tuple and list elements, sort keys, dict keys, `in`, `index`,
    /// `max`) give what Python's operators give: `str` in code point order, surrogates included,
    /// ints of any size, floats as IEEE 754 (a NaN unequal and unordered, `-0.0 == 0.0`) with an
    /// object identical to itself, and subclasses and mixed types through their own methods.
    #[test]
    fn comparisons_inside_containers_and_sorts_follow_python() {
        with_module(
            r#"
nan = float("nan")
class S(str):
    def __eq__(self, other):
        return True
    __hash__ = str.__hash__
class F(float):
    def __lt__(self, other):
        return True
words = ["z", "\u00e9", "\ud7ff", "\ud800", "\ue000", "a" * 3, "aa"]
keys = [(w[0], -len(w), i * 0.5) for i, w in enumerate(words)]
big = [(10**30 + 1, "a"), (10**30, "b"), (-(10**30), "c"), (10**30, "a")]
table = {("x" + "y", 1): "first", ("q", 2.5): "second"}
results = repr((
    sorted(words),
    [w for _, _, w in sorted((k[0], k[1], w) for k, w in zip(keys, words))],
    sorted(big),
    (nan,) < (1.0,), (1.0,) < (nan,), [nan] == [nan], [float("nan")] == [float("nan")],
    (0.0,) == (-0.0,), (1.5, "b") < (1.5, "c"), (2, 1.0) <= (2, 1.0),
    ["a" + "b", "cd"].index("c" + "d"), ("q" + "", 2.5) in table, table[("xy", 1)],
    max([("b", 1), ("b", 2), ("a", 9)]), min(["b" + "b", "ba", "bab"]),
    [True].index(1), (1,) == (True,), ["y"].count(S("x")), (F(1.0),) < (F(0.5),),
    sorted([3, -(2**70), 2**70, 0, -1]), (-(10**20),) > (-(10**19),),
    [words[3] < words[4], words[1] > words[0], words[2] <= words[3], "aa" >= "aaa", nan < nan,
     nan != nan, -0.0 < 0.0, 2**70 > 2**70 - 1],
))
"#,
            |vm, scope| {
                let results: String = global(vm, scope, "results");
                // CPython 3.11's repr of the same tuple.
                let cpython = concat!(
                    r"(['aa', 'aaa', 'z', 'é', '\ud7ff', '\ud800', '\ue000'], ",
                    r"['aaa', 'aa', 'z', 'é', '\ud7ff', '\ud800', '\ue000'], ",
                    "[(-1000000000000000000000000000000, 'c'), (1000000000000000000000000000000, 'a'), ",
                    "(1000000000000000000000000000000, 'b'), (1000000000000000000000000000001, 'a')], ",
                    "False, False, True, False, True, True, True, 1, True, 'first', ('b', 2), 'ba', ",
                    "0, True, 1, True, [-1180591620717411303424, -1, 0, 3, 1180591620717411303424], ",
                    "False, [True, True, True, False, False, True, False, True])"
                );
                assert_eq!(results, cpython);
            },
        );
    }

    /// The regex engine polls for signals every few thousand backtracking steps, as CPython's does, so
    /// that a time limit ends a catastrophic pattern (tests/sandbox.rs has those). A signal
    /// whose handling raises nothing must leave the match going where it was: with such signals
    /// arriving all through them, patterns that backtrack hard give CPython 3.11's answers.
    #[test]
    fn regex_answers_stand_when_signals_that_raise_nothing_arrive_mid_match() {
        use std::sync::atomic::{AtomicBool, Ordering};
        std::thread::Builder::new()
            .stack_size(SANDBOX_STACK_BYTES)
            .spawn(|| {
                let sandbox = SandboxVm::build(1000).unwrap();
                let stop = Arc::new(AtomicBool::new(false));
                let nudger = {
                    let (stop, tx) = (stop.clone(), sandbox.signal_tx.clone());
                    std::thread::spawn(move || {
                        let mut sent = 0u32;
                        while !stop.load(Ordering::Relaxed) {
                            let _ = tx.send(Box::new(|_| Ok(())));
                            sent += 1;
                            std::thread::sleep(std::time::Duration::from_micros(100));
                        }
                        sent
                    })
                };
                let results: String = sandbox.interp.enter(|vm| {
                    let source = r#"
import re
p = re.compile(r"(?:a+)+b")
s = "a" * 19 + "!aab" + "a" * 18 + "b"
results = repr((
    p.findall(s), p.sub("-", s), p.split(s), bool(re.match(r"(a+)+b", "a" * 20)),
    re.search(r"(x+x+)+y", "x" * 18 + "y").span(), re.fullmatch(r"(a*)*b", "a" * 19 + "b").span(),
    [m.span() for m in p.finditer(s)], p.scanner(s).search().span(), p.subn("", s)[1],
))
"#;
                    global(vm, &run_module(vm, source), "results")
                });
                stop.store(true, Ordering::Relaxed);
                let sent = nudger.join().unwrap();
                sandbox.finalize();
                // CPython 3.11's repr of the same tuple.
                let cpython = concat!(
                    "(['aab', 'aaaaaaaaaaaaaaaaaab'], 'aaaaaaaaaaaaaaaaaaa!--', ",
                    "['aaaaaaaaaaaaaaaaaaa!', '', ''], False, (0, 19), (0, 20), ",
                    "[(20, 23), (23, 42)], (20, 23), 2)"
                );
                assert_eq!(results, cpython);
                assert!(sent > 10, "only {sent} signals arrived during the matches");
            })
            .unwrap()
            .join()
            .unwrap();
    }

    /// `sum` of exact ints, bools and floats totals them in a machine number, as CPython's `sum` does;
    /// what leaves that path (an overflow past 64 bits, an item of another type or a subclass with its
    /// own `__add__`/`__radd__`, an int a float cannot hold exactly) continues with `+`, so every
    /// result, type and error is what adding left to right gives.
    #[test]
    fn sum_gives_what_adding_left_to_right_gives() {
        with_module(
            r#"
import itertools
class I(int):
    def __add__(self, other):
        return "I+"
    __radd__ = __add__
class F(float):
    def __radd__(self, other):
        return "F+"
def gen(n):
    for i in range(n):
        yield i * 3 - 7
big = 2**63 - 1
results = repr((
    sum(range(1000)), sum(gen(500)), sum([]), sum([], 5), sum([True, True, False]), sum([1, True], 0),
    sum([big, 1]), sum([big, 1, -2]), sum([-big, -1, -1]), sum([2**70, -(2**70), 3]),
    sum([1, 2.5, 3]), sum([0.1] * 10), sum([0.5, 1, 2**60]), sum([1.5, 2**80]),
    sum([], 0.0), sum([], -0.0), sum([-0.0], -0.0), sum([float("inf"), 1]), sum([1e308, 1e308]),
    sum([1, 2], 0.5), sum([0.25, 0.5], 1), sum([True, 0.5]), sum([0.5, True]),
    sum([1, I(2)]), sum([1.0, F(2.0)]), sum([1, F(2.0)]), sum([[1], [2]], []), sum([(1,), (2,)], ()),
    sum([], I(5)), sum([1], I(5)), sum([1.5, 2.5], F(0.5)), sum(x * 0.5 for x in range(100)),
    sum([1 + 2j, 3], 0j), sum([0.5, 1 + 1j]), sum(iter([3, 4]), -7), type(sum([True, True])),
    type(sum([], 0.0)), type(sum([2, 3.0])), sum([10**20, 0.5]), sum([2**53 + 1, 0.0]), sum([0.0, 2**53 + 1]),
))
try:
    sum([1, "a"])
except TypeError as e:
    results += " | " + str(e)
try:
    sum([1.5, "a"])
except TypeError as e:
    results += " | " + str(e)
try:
    sum([1.5, 10**400])
except OverflowError as e:
    results += " | " + str(e)
try:
    sum(["a", "b"], "")
except TypeError as e:
    results += " | " + str(e)
try:
    sum(5)
except TypeError as e:
    results += " | " + str(e)
"#,
            |vm, scope| {
                let results: String = global(vm, scope, "results");
                // CPython 3.11's output for the same module.
                let cpython = concat!(
                    "(499500, 370750, 0, 5, 2, 2, 9223372036854775808, 9223372036854775806, ",
                    "-9223372036854775809, 3, 6.5, 0.9999999999999999, 1.152921504606847e+18, ",
                    "1.2089258196146292e+24, 0.0, -0.0, -0.0, inf, inf, 3.5, 1.75, 1.5, 1.5, 'I+', 'F+', 'F+', ",
                    "[1, 2], (1, 2), 5, 'I+', 4.5, 2475.0, (4+2j), (1.5+1j), 0, <class 'int'>, ",
                    "<class 'float'>, <class 'float'>, 1e+20, 9007199254740992.0, ",
                    "9007199254740992.0) | unsupported operand type(s) for +: 'int' and 'str' | ",
                    "unsupported operand type(s) for +: 'float' and 'str' | int too large to convert to float | ",
                    "sum() can't sum strings [use ''.join(seq) instead] | 'int' object is not iterable",
                );
                assert_eq!(results, cpython);
            },
        );
    }

    /// `%` and `//` of two compact ints take a specialized site (`BINARY_OP_EXTEND`) instead of the
    /// generic operator dispatch. Once the sites have warmed up on small ints, every sign
    /// combination, the edges of the compact range, big ints, a zero divisor, `bool`, `float` and
    /// `str` operands give what `int.__mod__` / `int.__floordiv__` (or the generic operator) give,
    /// and each quotient and remainder satisfy `a == q * b + r` with `r` taking the divisor's sign.
    #[test]
    fn int_remainder_and_floor_division_keep_their_results_once_specialized() {
        with_module(
            r#"
def mod(a, b):
    return a % b
def div(a, b):
    return a // b
def imod(a, b):
    a %= b
    return a
def idiv(a, b):
    a //= b
    return a
for i in range(300):
    mod(i, 7); div(i, 7); imod(i, 7); idiv(i, 7)
C = 2**30 - 1
pairs = [(7, 3), (-7, 3), (7, -3), (-7, -3), (0, 5), (0, -5), (6, 3), (-6, 3), (C, 7), (-C, 7),
         (C, -C), (-C, C), (5, C), (-5, C), (C, 1), (-C, -1), (2**30, 7), (-2**30, 7), (7, 2**30),
         (2**31, -3), (2**63, -3), (-2**63, -1), (10**30, 7), (-10**30, 10**12 + 1)]
bad = []
for a, b in pairs:
    q, r = div(a, b), mod(a, b)
    if (q, r) != (int.__floordiv__(a, b), int.__mod__(a, b)) or (idiv(a, b), imod(a, b)) != (q, r):
        bad.append((a, b, q, r))
    if a != q * b + r or not (r == 0 or (r < 0) == (b < 0)) or abs(r) >= abs(b):
        bad.append(("identity", a, b, q, r))
zero = 0
for f in (mod, div, imod, idiv):
    for a in (7, -7, 0, 2**40):
        try:
            f(a, 0)
            bad.append(("no error", f.__name__, a))
        except ZeroDivisionError:
            zero += 1
others = [mod(True, 2), div(True, 2), mod(7, True), mod(7.5, 2), div(7.5, 2), mod(-7, 2.5),
          mod("%d-%s", (5, "x")), imod("%05.1f", 2.25)]
bad = repr(bad[:5])
others = repr(others)
sites = [f.__code__ for f in (mod, div, imod, idiv)]
plain = [c.co_code for c in sites]
adaptive = [c._co_code_adaptive for c in sites]
"#,
            |vm, scope| {
                let bad: String = global(vm, scope, "bad");
                assert_eq!(bad, "[]");
                let zero: i64 = global(vm, scope, "zero");
                assert_eq!(zero, 16);
                let others: String = global(vm, scope, "others");
                assert_eq!(others, "[1, 0, 0, 1.5, 3.0, 0.5, '5-x', '002.2']");
                let plain: Vec<Vec<u8>> = global(vm, scope, "plain");
                let adaptive: Vec<Vec<u8>> = global(vm, scope, "adaptive");
                let binary_op = rustpython_vm::bytecode::Opcode::BinaryOp as u8;
                let extend = rustpython_vm::bytecode::Opcode::BinaryOpExtend as u8;
                for (plain, adaptive) in plain.iter().zip(&adaptive) {
                    let sites: Vec<usize> = (0..plain.len())
                        .step_by(2)
                        .filter(|&at| plain[at] == binary_op)
                        .collect();
                    assert_eq!(sites.len(), 1, "{plain:?}");
                    assert_eq!(adaptive[sites[0]], extend, "`%` or `//` not specialized");
                }
            },
        );
    }

    /// The specialized operations that replace their operands with their result in place (the int,
    /// float and str binary operations, list, tuple, dict and str subscripts, two-tuple
    /// unpacking) and the builtin method calls that move their arguments off the stack
    /// release each operand exactly once. After the sites have warmed up and run 500 times, every
    /// operand's reference count is what it was before, and every result is right.
    #[test]
    fn specialized_operations_release_their_operands_exactly_once() {
        with_module(
            r#"
import sys
class Box:
    pass
big = 10**20
other = 10**21
f = 1.5
s = "ab"
lst = [big, f, s]
tup = (big, f, s)
d = {s: big}
pair = (big, s)
box = Box()
box.big, box.other, box.f, box.s, box.l, box.t, box.d, box.p = big, other, f, s, lst, tup, d, pair
def ops(o, k):
    # Attribute loads and subscripts push owned references to the watched objects, so each
    # operation below has to release what it consumes itself.
    r = (o.big + o.other, o.big - o.other, o.big * 3, o.f * o.f, o.f + o.f, o.s + o.s,
         o.l[0], o.t[1], o.d[k], o.s[0], o.l[2] + o.s)
    u, w = o.p
    g = o.d.get(o.s, o.big)
    h = o.s.replace(o.s, o.s)
    return r, u, w, g, h
watched = (big, other, f, s, lst, tup, d, pair, box)
before = [sys.getrefcount(o) for o in watched]
results = set()
for i in range(500):
    results.add(repr(ops(box, s)))
after = [sys.getrefcount(o) for o in watched]
counts = repr([b - a for a, b in zip(before, after)])
results = repr(sorted(results))
expected = repr([repr(((big + other, big - other, big * 3, f * f, f + f, s + s, big, f, big, "a",
                        s + s), big, s, big, s))])
adaptive = ops.__code__._co_code_adaptive
"#,
            |vm, scope| {
                use rustpython_vm::bytecode::Opcode;
                assert_released_and_specialized(
                    vm,
                    scope,
                    "[0, 0, 0, 0, 0, 0, 0, 0, 0]",
                    &[
                        Opcode::BinaryOpAddInt,
                        Opcode::BinaryOpSubtractInt,
                        Opcode::BinaryOpMultiplyInt,
                        Opcode::BinaryOpMultiplyFloat,
                        Opcode::BinaryOpAddFloat,
                        Opcode::BinaryOpAddUnicode,
                        Opcode::BinaryOpSubscrListInt,
                        Opcode::BinaryOpSubscrTupleInt,
                        Opcode::BinaryOpSubscrDict,
                        Opcode::BinaryOpSubscrStrInt,
                        Opcode::UnpackSequenceTwoTuple,
                    ],
                );
            },
        );
    }

    /// Builtin calls at specialized sites with positional arguments alone (a method with no
    /// argument or one, a method taking several, a builtin function, a bound builtin) take them
    /// from the stack without an argument vector. They must bind as the general path does, which
    /// `f(*args)` takes: the same results and the same errors, wrong counts and types included.
    /// Every argument and receiver is released exactly once: after 500 runs their reference
    /// counts are what they were.
    #[test]
    fn builtin_calls_bind_positional_arguments_as_the_general_path_does() {
        with_module(
            r#"
import sys
class Box:
    pass
s = "ab12"
digits = "123"
big = 10**20
lst = [3, 1]
d = {s: big}
box = Box()
box.s, box.digits, box.big, box.lst, box.d = s, digits, big, lst, d
box.append = lst.append
def attempt(call):
    try:
        return call()
    except Exception as e:
        return type(e).__name__ + ": " + str(e)
def calls(o):
    # Attribute loads push owned references, so each call must release what it takes.
    return [o.s.isdigit(), o.digits.isdigit(), o.s.upper(), "-".join((o.s, o.s)),
            o.s.replace(o.s, o.digits), o.s.replace(o.s, o.digits, 1), o.s.find(o.digits),
            o.lst.index(3), abs(-o.big), divmod(o.big, 7), o.append(o.big), o.lst.pop(),
            o.d.get(o.s), o.s.startswith(o.s), min(o.big, 3),
            attempt(lambda: "-".join(o.big)), attempt(lambda: o.s.replace(o.s)),
            attempt(lambda: o.s.replace(o.big, o.s)), attempt(lambda: divmod(o.big)),
            attempt(lambda: divmod(o.big, o.s)), attempt(lambda: abs(o.s)),
            attempt(lambda: o.lst.index(o.big)), attempt(lambda: o.d.get()),
            attempt(lambda: o.d.get(o.s, 1, 2)), attempt(lambda: o.s.find(o.big))]
def general(o):
    return [str.isdigit(*(o.s,)), str.isdigit(*(o.digits,)), str.upper(*(o.s,)),
            str.join(*("-", (o.s, o.s))), str.replace(*(o.s, o.s, o.digits)),
            str.replace(*(o.s, o.s, o.digits, 1)), str.find(*(o.s, o.digits)),
            list.index(*(o.lst, 3)), abs(*(-o.big,)), divmod(*(o.big, 7)), o.append(*(o.big,)),
            list.pop(*(o.lst,)), dict.get(*(o.d, o.s)), str.startswith(*(o.s, o.s)),
            min(*(o.big, 3)),
            attempt(lambda: str.join(*("-", o.big))), attempt(lambda: str.replace(*(o.s, o.s))),
            attempt(lambda: str.replace(*(o.s, o.big, o.s))), attempt(lambda: divmod(*(o.big,))),
            attempt(lambda: divmod(*(o.big, o.s))), attempt(lambda: abs(*(o.s,))),
            attempt(lambda: list.index(*(o.lst, o.big))), attempt(lambda: dict.get(*(o.d,))),
            attempt(lambda: dict.get(*(o.d, o.s, 1, 2))), attempt(lambda: str.find(*(o.s, o.big)))]
watched = (s, digits, big, lst, d, box, box.append)
before = [sys.getrefcount(o) for o in watched]
results = set()
for i in range(500):
    results.add(repr(calls(box)))
after = [sys.getrefcount(o) for o in watched]
counts = repr([b - a for a, b in zip(before, after)])
results = repr(sorted(results))
expected = repr([repr(general(box))])
adaptive = calls.__code__._co_code_adaptive
"#,
            |vm, scope| {
                use rustpython_vm::bytecode::Opcode;
                let results = assert_released_and_specialized(
                    vm,
                    scope,
                    "[0, 0, 0, 0, 0, 0, 0]",
                    &[
                        Opcode::CallMethodDescriptorNoargs,
                        Opcode::CallMethodDescriptorO,
                        Opcode::CallMethodDescriptorFast,
                        Opcode::CallBuiltinO,
                        Opcode::CallBuiltinFast,
                    ],
                );
                for text in [
                    "TypeError: divmod expected 2 arguments, got 1",
                    "TypeError: replace expected at least 2 arguments, got 1",
                    "TypeError: bad operand type for abs()",
                    "TypeError: get expected at least 1 argument, got 0",
                    "TypeError: get expected at most 2 arguments, got 3",
                ] {
                    assert!(results.contains(text), "{text} not in {results}");
                }
            },
        );
    }

    /// Binding from a call's positional arguments takes, in order, what a type binds and leaves
    /// the rest for the next parameter: for a `#[derive(FromArgs)]` struct, whose derive now
    /// writes that binding too, and for a type that only binds from a `FuncArgs` (here `KwArgs`,
    /// which takes keywords alone), through the default that builds one and hands back what it
    /// left.
    #[test]
    fn bindings_from_positionals_take_their_own_and_leave_the_rest() {
        use rustpython_vm::function::{FromArgs, KwArgs, PositionalArgs, PositionalIterable};
        on_sandbox_thread(|vm| {
            let first = vm.ctx.new_list(vec![]).into();
            let second = vm.ctx.new_int(2).into();
            let mut slots = [Some(first), Some(second)];
            let mut args = PositionalArgs::new(&mut slots);
            let keywords: KwArgs = KwArgs::from_positionals(vm, &mut args)
                .unwrap_or_else(|_| panic!("binding no keywords failed"));
            assert_eq!(keywords.into_iter().count(), 0);
            assert_eq!(args.len(), 2, "keywords take no positional argument");
            let bound = PositionalIterable::from_positionals(vm, &mut args)
                .unwrap_or_else(|_| panic!("binding failed"));
            let iterable = bound
                .iterable
                .into_option()
                .expect("the first argument is bound");
            assert!(
                iterable
                    .downcast_ref::<rustpython_vm::builtins::PyList>()
                    .is_some()
            );
            assert_eq!(args.len(), 1);
            let left = args.take().expect("the second argument is left");
            assert_eq!(left.try_into_value::<i64>(vm).unwrap(), 2);
            assert!(args.is_empty());
            assert!(args.take().is_none());
        });
    }

    /// Each closure a `def` makes is a new function; made from one code object, they share one
    /// version (as CPython's `co_version`), so a call site specialized for the first still serves
    /// the next instead of failing its guard and falling back to the slow call path for good. What
    /// differs between them (cells, defaults) is read from the function called.
    #[test]
    fn functions_made_from_one_code_share_their_version() {
        use rustpython_vm::{PyRef, builtins::PyFunction};
        let source = "\
def make(i, d=0):
    def f(x=d):
        return x + i
    return f
a, b, c = make(1), make(2, 5), make(3)
c.__defaults__ = (7,)
seen = [g() for _ in range(100) for g in (make(1), a, b, c, make(4, 1))]
";
        with_module(source, |vm, scope| {
            let version = |name: &str| global::<PyRef<PyFunction>>(vm, scope, name).func_version();
            assert_ne!(version("a"), 0);
            assert_eq!(version("a"), version("b"), "two closures of one def");
            assert_ne!(version("c"), version("a"), "new defaults, new version");
            let seen: Vec<i64> = global(vm, scope, "seen");
            assert_eq!(seen, [1, 1, 7, 10, 5].repeat(100));
        });
    }

    /// Calls that reach a function by the general path (a first call, `map`, `f(*args)`) run its frame
    /// on the data stack under the trampoline: callers, tracebacks, the recursion limit and a tracer's
    /// events are what CPython 3.11 gives for the same module.
    #[test]
    fn calls_by_the_general_path_keep_callers_tracebacks_and_trace_events() {
        let source = r#"import sys
def caller_name():
    return sys._getframe(1).f_code.co_name
def via_star(*args):
    return (args, caller_name())
def exact(a, b):
    return (a, b, caller_name(), sys._getframe(1).f_code.co_name)
def boom(a, b):
    raise ValueError(a + b)
def relay(*args):
    return boom(*args)
def names(tb):
    out = []
    while tb is not None:
        out.append(tb.tb_frame.f_code.co_name)
        tb = tb.tb_next
    return out
first = exact(1, 2)
mapped = list(map(exact, [1, 2], [3, 4]))
star = [via_star(), via_star(7, 8), exact(*(5, 6)), exact(*[5], **{'b': 6})]
try:
    relay(1, 2)
except ValueError as e:
    raised = (str(e), names(e.__traceback__))
def deep(n):
    return deep(n + 1)
try:
    list(map(deep, [0]))
    recursion = 'none'
except RecursionError:
    recursion = 'RecursionError'
events = []
def tracer(frame, event, arg):
    if event in ('call', 'return'):
        events.append((event, frame.f_code.co_name))
    return tracer
sys.settrace(tracer)
exact(*(1, 2))
list(map(via_star, [1]))
sys.settrace(None)
result = repr((first, mapped, star, raised, recursion, events))
"#;
        assert_module_result(
            source,
            "((1, 2, 'exact', '<module>'), [(1, 3, 'exact', '<module>'), (2, 4, 'exact', '<module>')], [((), 'via_star'), ((7, 8), 'via_star'), (5, 6, 'exact', '<module>'), (5, 6, 'exact', '<module>')], ('3', ['<module>', 'relay', 'boom']), 'RecursionError', [('call', 'exact'), ('call', 'caller_name'), ('return', 'caller_name'), ('return', 'exact'), ('call', 'via_star'), ('call', 'caller_name'), ('return', 'caller_name'), ('return', 'via_star')])",
        );
    }

    /// A module source that starts with `import sys` and `names(tb)`, the names of a traceback's
    /// frames from the outermost, as the call tests below read them.
    macro_rules! traceback_module {
        ($body:literal) => {
            concat!(
                "import sys\n",
                "def names(tb):\n",
                "    out = []\n",
                "    while tb is not None:\n",
                "        out.append(tb.tb_frame.f_code.co_name)\n",
                "        tb = tb.tb_next\n",
                "    return out\n",
                $body
            )
        };
    }

    /// A call to a Python function from a warmed-up call site, made on the native stack or in its
    /// caller's dispatch loop (once half the native stack is used): a callee's exception reaching a
    /// handler (or a `finally`) in its caller, tracebacks, the frame chain and a frame kept after its
    /// return, the recursion limit and calls after it, calls from a generator body, bound methods, a
    /// tracer switched on in a callee, are what CPython 3.11 gives.
    #[test]
    fn calls_made_in_the_dispatch_loop_behave_as_cpython() {
        let source = traceback_module!(
            r#"def leaf(x):
    if x == 7:
        raise KeyError(x)
    return x * 2
def middle(x):
    try:
        return leaf(x) + 1
    finally:
        log.append(('finally', x))
def top(x):
    try:
        return middle(x)
    except KeyError as e:
        return ('caught', e.args, names(e.__traceback__))
log = []
warm = [top(i) for i in range(10)]
def chain():
    f = sys._getframe()
    out = []
    while f is not None and len(out) < 4:
        out.append(f.f_code.co_name)
        f = f.f_back
    return out
def via_a():
    return chain()
def via_b():
    return via_a()
chains = []
for _ in range(5):
    chains.append(via_b())
def keep():
    return sys._getframe()
def keeper():
    return keep()
kept = [keeper() for _ in range(5)]
backs = [(k.f_code.co_name, k.f_back.f_code.co_name if k.f_back else None) for k in kept]
def deep(n):
    return deep(n + 1)
for _ in range(3):
    try:
        deep(0)
        recursion = None
    except RecursionError:
        recursion = 'RecursionError'
after_recursion = [leaf(i) for i in range(3)]
def gen(xs):
    for x in xs:
        try:
            yield top(x)
        except GeneratorExit:
            raise
def gen_catch(xs):
    for x in xs:
        try:
            yield leaf(x)
        except KeyError:
            yield 'gen caught'
from_gen = list(gen(range(6, 9)))
caught_in_gen = list(gen_catch([5, 6, 7, 8]))
summed = sum(leaf(x) for x in range(7))
class Acc:
    def __init__(self):
        self.total = 0
    def add(self, x):
        self.total += leaf(x)
        return self
a = Acc()
for i in range(7):
    a.add(i)
try:
    a.add(7)
    method_raise = None
except KeyError as e:
    method_raise = names(e.__traceback__)
events = []
def tracer(frame, event, arg):
    if event in ('call', 'return', 'exception'):
        events.append((event, frame.f_code.co_name))
    return tracer
def turn_on():
    sys.settrace(tracer)
    return 1
def outer_on():
    v = turn_on()
    return v + leaf(1)
for _ in range(4):
    outer_on()
    sys.settrace(None)
def unbound_local():
    return missing_name_here
def calls_unbound():
    try:
        return unbound_local()
    except NameError as e:
        return type(e).__name__
unbound = [calls_unbound() for _ in range(4)]
result = repr((warm, log[-3:], chains, backs, recursion, after_recursion, from_gen, caught_in_gen, summed, a.total, method_raise, events, unbound))
"#
        );
        assert_module_result_both_call_ways(
            source,
            "([1, 3, 5, 7, 9, 11, 13, ('caught', (7,), ['top', 'middle', 'leaf']), 17, 19], [('finally', 6), ('finally', 7), ('finally', 8)], [['chain', 'via_a', 'via_b', '<module>'], ['chain', 'via_a', 'via_b', '<module>'], ['chain', 'via_a', 'via_b', '<module>'], ['chain', 'via_a', 'via_b', '<module>'], ['chain', 'via_a', 'via_b', '<module>']], [('keep', 'keeper'), ('keep', 'keeper'), ('keep', 'keeper'), ('keep', 'keeper'), ('keep', 'keeper')], 'RecursionError', [0, 2, 4], [13, ('caught', (7,), ['top', 'middle', 'leaf']), 17], [10, 12, 'gen caught', 16], 42, 42, ['<module>', 'add', 'leaf'], [('call', 'leaf'), ('return', 'leaf'), ('call', 'leaf'), ('return', 'leaf'), ('call', 'leaf'), ('return', 'leaf'), ('call', 'leaf'), ('return', 'leaf')], ['NameError', 'NameError', 'NameError', 'NameError'])",
        );
    }

    /// Calls that bind defaults, keywords, `*args` or `**kwargs`, or go through a bound method
    /// object (bound straight into the callee's frame where nothing can go wrong): a callee's
    /// exception reaching its caller's handler and `finally`, tracebacks, the frame chain, the
    /// recursion limit and calls after it, binding errors, a tracer switched on in a callee, and such
    /// calls from a generator body give what CPython 3.11 gives.
    #[test]
    fn calls_binding_defaults_keywords_and_star_arguments_behave_as_cpython() {
        let source = traceback_module!(
            r#"def leaf(x, scale=2, *, bump=0):
    if x == 7:
        raise KeyError(x)
    return x * scale + bump
def middle(*args, **kwargs):
    try:
        return leaf(*args, **kwargs) + 1
    finally:
        log.append(('finally', args))
def top(x, **kw):
    try:
        return middle(x, bump=kw.get('bump', 0))
    except KeyError as e:
        return ('caught', e.args, names(e.__traceback__))
log = []
warm = [top(i, bump=1) for i in range(10)]
def chain(depth=4):
    f = sys._getframe()
    out = []
    while f is not None and len(out) < depth:
        out.append(f.f_code.co_name)
        f = f.f_back
    return out
def via_a(*a):
    return chain(*a)
def via_b(n=4):
    return via_a(n)
chains = []
for _ in range(4):
    chains.append(via_b())
chains.append(via_b(n=2))
def deep(n, step=1):
    return deep(n + step, step=step)
def deep_star(*a):
    return deep_star(*a)
recursion = []
for f in (deep, deep_star):
    for _ in range(3):
        try:
            f(0)
        except RecursionError:
            recursion.append(f.__name__)
after_recursion = [leaf(i, bump=1) for i in range(3)]
class Acc:
    def __init__(self, start=0):
        self.total = start
    def add(self, x, times=1):
        self.total += leaf(x) * times
        return self
    def add_all(self, *xs, **kw):
        for x in xs:
            self.add(x, **kw)
        return self
a = Acc(start=1)
add = a.add
for i in range(7):
    add(i)
    a.add_all(i, i, times=2)
try:
    add(7, times=3)
    method_raise = None
except KeyError as e:
    method_raise = names(e.__traceback__)
errors = []
def two(a, b):
    return a + b
for _ in range(3):
    for call in (lambda: two(1), lambda: two(1, 2, 3), lambda: two(1, a=2), lambda: leaf(), lambda: add(1, 2, 3), lambda: two(*(1,)), lambda: two(**{'a': 1}), lambda: leaf(1, bump=1, other=2)):
        try:
            call()
        except TypeError as e:
            errors.append(str(e).split('.')[-1])
events = []
def tracer(frame, event, arg):
    if event in ('call', 'return', 'exception'):
        events.append((event, frame.f_code.co_name))
    return tracer
def turn_on(flag=True):
    sys.settrace(tracer)
    return 1
def outer_on(*a):
    v = turn_on()
    return v + leaf(1, bump=a[0])
for _ in range(4):
    outer_on(1)
    sys.settrace(None)
def gen(*xs, scale=1):
    for x in xs:
        yield leaf(x, scale)
from_gen = [list(gen(1, 2, scale=3)) for _ in range(3)]
result = repr((warm, log[-3:], chains, recursion, after_recursion, a.total, method_raise, errors, events, from_gen))
"#
        );
        assert_module_result(
            source,
            "([2, 4, 6, 8, 10, 12, 14, ('caught', (7,), ['top', 'middle', 'leaf']), 18, 20], [('finally', (7,)), ('finally', (8,)), ('finally', (9,))], [['chain', 'via_a', 'via_b', '<module>'], ['chain', 'via_a', 'via_b', '<module>'], ['chain', 'via_a', 'via_b', '<module>'], ['chain', 'via_a', 'via_b', '<module>'], ['chain', 'via_a']], ['deep', 'deep', 'deep', 'deep_star', 'deep_star', 'deep_star'], [1, 3, 5], 211, ['<module>', 'add', 'leaf'], [\"two() missing 1 required positional argument: 'b'\", 'two() takes 2 positional arguments but 3 were given', \"two() got multiple values for argument 'a'\", \"leaf() missing 1 required positional argument: 'x'\", 'add() takes from 2 to 3 positional arguments but 4 were given', \"two() missing 1 required positional argument: 'b'\", \"two() missing 1 required positional argument: 'b'\", \"leaf() got an unexpected keyword argument 'other'\", \"two() missing 1 required positional argument: 'b'\", 'two() takes 2 positional arguments but 3 were given', \"two() got multiple values for argument 'a'\", \"leaf() missing 1 required positional argument: 'x'\", 'add() takes from 2 to 3 positional arguments but 4 were given', \"two() missing 1 required positional argument: 'b'\", \"two() missing 1 required positional argument: 'b'\", \"leaf() got an unexpected keyword argument 'other'\", \"two() missing 1 required positional argument: 'b'\", 'two() takes 2 positional arguments but 3 were given', \"two() got multiple values for argument 'a'\", \"leaf() missing 1 required positional argument: 'x'\", 'add() takes from 2 to 3 positional arguments but 4 were given', \"two() missing 1 required positional argument: 'b'\", \"two() missing 1 required positional argument: 'b'\", \"leaf() got an unexpected keyword argument 'other'\"], [('call', 'leaf'), ('return', 'leaf'), ('call', 'leaf'), ('return', 'leaf'), ('call', 'leaf'), ('return', 'leaf'), ('call', 'leaf'), ('return', 'leaf')], [[3, 6], [3, 6], [3, 6]])",
        );
    }

    /// Python functions called back by built-ins (`sorted(key=)`, `map`, `filter`, `min`/`max`,
    /// a `defaultdict` factory) with defaults, `*args` and keyword-only parameters; sorts by tuple
    /// keys of `str`, `int` (past 64 bits too), `float` (a NaN), `bool`, a `str` subclass and
    /// objects with their own comparisons, of different lengths, forwards and reversed; errors
    /// from a key and from uncomparable keys; and containers freed while `__del__` builds and
    /// frees containers, and a 100,000-deep nesting freed: what CPython 3.11 gives.
    #[test]
    fn builtin_callbacks_tuple_key_sorts_and_container_frees_behave_as_cpython() {
        let source = traceback_module!(
            r#"from collections import defaultdict
def key_default(p, field="team"):
    return (p[field], -p["score"], p["name"])
def key_star(*a, **k):
    return a[0]["name"]
def key_kwonly(p, *, by="age"):
    return p[by]
people = [{"name": "p%d" % ((i * 7919) % 211), "team": "t%d" % (i % 7), "score": (i * 104729) % 10, "age": 20 + (i * 31) % 9} for i in range(60)]
sorts = []
for _ in range(3):
    sorts.append([p["name"] for p in sorted(people, key=key_default)][:8])
    sorts.append([p["name"] for p in sorted(people, key=key_star, reverse=True)][:5])
    sorts.append([p["age"] for p in sorted(people, key=key_kwonly)][:5])
mapped = [list(map(lambda x, y=10: x + y, range(4))), list(map(key_star, people[:3])), list(filter(lambda p, lo=5: p["score"] > lo, people))[:2] == [p for p in people if p["score"] > 5][:2]]
extremes = (min(people, key=key_default)["name"], max(people, key=lambda p, f="age": p[f])["age"])
groups = defaultdict(lambda tag="new": [tag])
groups["a"].append(1)
chain = []
def chain_key(p):
    f = sys._getframe()
    chain.append((f.f_code.co_name, f.f_back.f_code.co_name))
    return p
def sort_with_chain():
    return sorted([2, 1], key=chain_key)
sort_with_chain()
def bad_key(p):
    if p["score"] == 7:
        raise KeyError("seven")
    return p["score"]
def sort_bad():
    return sorted(people, key=bad_key)
try:
    sort_bad()
    raised = None
except KeyError as e:
    raised = names(e.__traceback__)
def deep_key(x):
    return sorted([x], key=deep_key)
try:
    deep_key(1)
    deep = None
except RecursionError:
    deep = "RecursionError"
after_deep = sorted(range(5), key=lambda x: -x)
class Rev:
    eqs = 0
    def __init__(self, v):
        self.v = v
    def __eq__(self, other):
        Rev.eqs += 1
        return self.v == other.v
    def __lt__(self, other):
        return self.v > other.v
nan = float("nan")
tuple_keys = [
    ("b", -3, "x"), ("a", -3, "y"), ("a", -5, "z"), ("a", -3, "x"), ("b", 2**70, "a"), ("b", -2**70, "a"),
    ("b", 2**70 + 1, "a"), ("a", -3), ("a",), ("c", 1.5, "q"), ("c", 1, "q"), ("c", True, "p"), ("c", 2.0, "r"),
    ("\ud800", 0, ""), ("\ue000", 0, ""), ("\uffff", 0, ""), ("\U0001d11e", 0, ""), ("é", 0, ""), ("e", 0, ""),
]
sorted_keys = [sorted(tuple_keys) for _ in range(3)]
floats = sorted([(1.0, "b"), (nan, "a"), (0.5, "c"), (1.0, "a"), (-0.0, "z"), (0.0, "y")])
revs = [t[1] for t in sorted([(1, Rev(3), "a"), (1, Rev(1), "b"), (1, Rev(2), "c"), (0, Rev(9), "d")])]
rev_values = [r.v for r in revs]
class S(str):
    pass
subs = sorted([(S("b"), 1), (S("a"), 2), ("a", 0)])
errors = []
for bad in ([("a", 1), ("a", "x")], [(1, None), (1, 2)], [(object(),), (object(),)]):
    for _ in range(2):
        try:
            sorted(bad)
        except TypeError as e:
            errors.append(str(e))
stable = [t[2] for t in sorted([(1, "k", i) for i in range(6)] + [(0, "k", 9)], key=lambda t: t[:2])]
rev_stable = [t[2] for t in sorted([(1, "k", i) for i in range(6)], key=lambda t: t[:2], reverse=True)]
freed = []
class Noisy:
    def __init__(self, n):
        self.n = n
    def __del__(self):
        junk = [{"k": [i, (i, str(i))]} for i in range(4)]
        freed.append((self.n, len(junk)))
holder = [{"obj": Noisy(i), "list": [Noisy(10 + i)], "t": (Noisy(20 + i),)} for i in range(3)]
holder = None
nested = []
for i in range(100000):
    nested = [nested, {"i": i}]
nested = None
result = repr((sorts, mapped, extremes, dict(groups), chain, raised, deep, after_deep, sorted_keys[0] == sorted_keys[2], sorted_keys[1], floats[:2], rev_values, Rev.eqs > 0, subs, errors, stable, rev_stable, sorted(freed)))
"#
        );
        assert_module_result(
            source,
            r#"([['p31', 'p62', 'p91', 'p122', 'p153', 'p151', 'p182', 'p2'], ['p96', 'p91', 'p88', 'p83', 'p78'], [20, 20, 20, 20, 20], ['p31', 'p62', 'p91', 'p122', 'p153', 'p151', 'p182', 'p2'], ['p96', 'p91', 'p88', 'p83', 'p78'], [20, 20, 20, 20, 20], ['p31', 'p62', 'p91', 'p122', 'p153', 'p151', 'p182', 'p2'], ['p96', 'p91', 'p88', 'p83', 'p78'], [20, 20, 20, 20, 20]], [[10, 11, 12, 13], ['p0', 'p112', 'p13'], True], ('p31', 28), {'a': ['new', 1]}, [('chain_key', 'sort_with_chain'), ('chain_key', 'sort_with_chain')], ['<module>', 'sort_bad', 'bad_key'], 'RecursionError', [4, 3, 2, 1, 0], True, [('a',), ('a', -5, 'z'), ('a', -3), ('a', -3, 'x'), ('a', -3, 'y'), ('b', -1180591620717411303424, 'a'), ('b', -3, 'x'), ('b', 1180591620717411303424, 'a'), ('b', 1180591620717411303425, 'a'), ('c', True, 'p'), ('c', 1, 'q'), ('c', 1.5, 'q'), ('c', 2.0, 'r'), ('e', 0, ''), ('é', 0, ''), ('\ud800', 0, ''), ('\ue000', 0, ''), ('\uffff', 0, ''), ('𝄞', 0, '')], [(1.0, 'b'), (nan, 'a')], [9, 3, 2, 1], True, [('a', 0), ('a', 2), ('b', 1)], ["'<' not supported between instances of 'str' and 'int'", "'<' not supported between instances of 'str' and 'int'", "'<' not supported between instances of 'int' and 'NoneType'", "'<' not supported between instances of 'int' and 'NoneType'", "'<' not supported between instances of 'object' and 'object'", "'<' not supported between instances of 'object' and 'object'"], [9, 0, 1, 2, 3, 4, 5], [0, 1, 2, 3, 4, 5], [(0, 4), (1, 4), (2, 4), (10, 4), (11, 4), (12, 4), (20, 4), (21, 4), (22, 4)])"#,
        );
    }

    /// Dict keys that are exact `str`s and `int`s (equal but not identical, past 64 bits, the `-1`
    /// hash) and `str` subclasses with their own `__hash__` or `__eq__`, which must keep them:
    /// what CPython 3.11 gives.
    #[test]
    fn dict_keys_of_str_and_int_and_their_subclasses_hash_and_compare_as_cpython() {
        assert_module_result(
            r#"class H(str):
    def __hash__(self):
        return 7
class E(str):
    def __eq__(self, other):
        return True
    __hash__ = str.__hash__
d = {}
for i in range(200):
    d["k" + str(i)] = i
found = [d.get("k" + str(i)) for i in (0, 7, 199, 200)]
d2 = {H("x"): 1, "y": 2}
subclass = (d2.get("x"), d2.get(H("x")), d2.get(H("y")), hash(H("q")))
d3 = {"a": 1}
eq_sub = (d3.get(E("a")), d3.get(E("b")), E("zz") in {"zz": 0})
ints = [hash(v) for v in (0, 1, -1, -2, 2**61 - 1, 2**61, -(2**61), 2**64, -(2**64), 2**63 - 1, -(2**63), 10**30)]
big = {2**64: "a", -1: "b", -2: "c", 2**61 - 1: "d"}
bigs = (big[2**64], big[-1], big[-2], big[0] if 0 in big else None, big.get(2**61 - 1), len({-1, -2, 0, 2**61 - 1, 2**61}))
surrogates = len({"\ud800", "\ud800" + "", "\udfff", "\U0001d11e", "é", "e\u0301"})
mixed = {1: "int", 1.0: "float", True: "bool", "1": "str"}
result = repr((found, subclass, eq_sub, ints, bigs, surrogates, mixed, sorted(d)[:3]))
"#,
            r#"([0, 7, 199, None], (None, 1, None, 7), (1, None, True), [0, 1, -2, -2, 0, 1, -2, 8, -8, 3, -4, 465258685558744706], ('a', 'b', 'c', None, 'd', 5), 5, {1: 'bool', '1': 'str'}, ['k0', 'k1', 'k10'])"#,
        );
    }

    /// `sys.monitoring` sees what CPython 3.13 reports for the same module, here once a function has
    /// run long enough to specialize: its start and return, every line (the straight-line
    /// instructions that begin one run through the instrumented path), the calls it makes, and a
    /// raise in a callee and in its caller; and nothing once its events are switched off again.
    #[test]
    fn sys_monitoring_reports_what_cpython_reports() {
        let source = r#"import sys
mon = sys.monitoring
E = mon.events
TOOL = 3
mon.use_tool_id(TOOL, "probe")
seen = []
def on_start(code, offset):
    seen.append(('start', code.co_name))
def on_return(code, offset, value):
    seen.append(('return', code.co_name, value))
def on_line(code, line):
    seen.append(('line', code.co_name, line - code.co_firstlineno))
def on_call(code, offset, callable, arg0):
    name = getattr(callable, '__name__', None)
    if name in ('leaf', 'len'):
        seen.append(('call', code.co_name, name))
def on_raise(code, offset, exc):
    seen.append(('raise', code.co_name, type(exc).__name__))
mon.register_callback(TOOL, E.PY_START, on_start)
mon.register_callback(TOOL, E.PY_RETURN, on_return)
mon.register_callback(TOOL, E.LINE, on_line)
mon.register_callback(TOOL, E.CALL, on_call)
mon.register_callback(TOOL, E.RAISE, on_raise)
def leaf(x):
    return x * 2
def work(xs):
    total = 0
    for x in xs:
        y = x + 1
        total += leaf(y)
    n = len(xs)
    pair = (total, n)
    a, b = pair
    return a - b
def fails(d):
    return d['missing']
warm = [work([1, 2]) for _ in range(40)]
mon.set_local_events(TOOL, work.__code__, E.PY_START | E.PY_RETURN | E.LINE | E.CALL)
mon.set_events(TOOL, E.RAISE)
traced = work([3, 4])
try:
    fails({})
except KeyError:
    pass
mon.set_local_events(TOOL, work.__code__, 0)
mon.set_events(TOOL, 0)
after = work([5])
mon.free_tool_id(TOOL)
result = repr((warm[-1], traced, after, seen))
"#;
        assert_module_result(
            source,
            "(8, 16, 11, [('start', 'work'), ('line', 'work', 1), ('line', 'work', 2), ('line', 'work', 3), ('line', 'work', 4), ('call', 'work', 'leaf'), ('line', 'work', 2), ('line', 'work', 3), ('line', 'work', 4), ('call', 'work', 'leaf'), ('line', 'work', 2), ('line', 'work', 5), ('call', 'work', 'len'), ('line', 'work', 6), ('line', 'work', 7), ('line', 'work', 8), ('return', 'work', 16), ('raise', 'fails', 'KeyError'), ('raise', '<module>', 'KeyError')])",
        );
    }

    /// A generator resumed from native code (`next`, `sum`, `list`, `str.join`, `send`) runs as CPython
    /// 3.11 runs it: its return value, the end, re-entry, PEP 479, its own handled exception kept apart
    /// from its caller's, `yield from`, a fresh generator refusing a value, and `gi_running`.
    #[test]
    fn generators_resumed_from_native_code_behave_as_cpython() {
        let source = r#"import sys
def count(n):
    for i in range(n):
        yield i
    return 'done'
g = count(3)
steps = [next(g), next(g), next(g)]
try:
    next(g)
    stop = None
except StopIteration as e:
    stop = e.value
after_end = next(g, 'exhausted')
def selfish():
    yield next(me)
me = selfish()
try:
    next(me)
    reentry = None
except ValueError as e:
    reentry = str(e)
def leaks():
    yield 1
    raise StopIteration('inner')
try:
    list(leaks())
    pep479 = None
except RuntimeError as e:
    pep479 = (str(e), type(e.__cause__).__name__)
def handled():
    try:
        raise KeyError('k')
    except KeyError:
        yield sys.exc_info()[0].__name__
        yield sys.exc_info()[0].__name__
    yield sys.exc_info()[0]
h = handled()
exc_states = [next(h)]
try:
    raise IndexError('outer')
except IndexError:
    exc_states.append(next(h))
    exc_states.append(sys.exc_info()[0].__name__)
exc_states.append(next(h))
def inner():
    yield 1
    yield 2
    return 3
def outer():
    r = yield from inner()
    yield r
totals = (sum(x * x for x in range(10)), ''.join(str(i) for i in range(5)), list(outer()), sum(outer()), max(x % 7 for x in range(20)))
def echo():
    got = yield 'start'
    while True:
        got = yield got
e = echo()
sent = [next(e), e.send('a'), next(e), e.send('b')]
try:
    count(2).send('x')
    fresh_send = None
except TypeError as err:
    fresh_send = str(err)
running = []
def watcher():
    running.append(watched.gi_running)
    yield 1
watched = watcher()
next(watched)
running.append(watched.gi_running)
result = repr((steps, stop, after_end, reentry, pep479, exc_states, totals, sent, fresh_send, running))
"#;
        assert_module_result(
            source,
            r#"([0, 1, 2], 'done', 'exhausted', 'generator already executing', ('generator raised StopIteration', 'StopIteration'), ['KeyError', 'KeyError', 'IndexError', None], (285, '01234', [1, 2, 3], 6, 6), ['start', 'a', None, 'b'], "can't send non-None value to a just-started generator", [True, False])"#,
        );
    }

    /// `sum` takes a generator's items at its `yield` without suspending it per item
    /// (`yield_drain`), and nothing a snippet can see differs from CPython's item-by-item resumes:
    /// an item the machine total cannot take (a 64-bit overflow, an object with `__radd__`, a
    /// `str`) suspends the generator there, with `gi_running` false while `+` runs Python, and a
    /// failing `+` leaves it resumable at the next item; an exception from the body closes it;
    /// nested and delegating generators, the caller's handled exception, re-entry, a generator
    /// that never yields, and a trace function and `sys.monitoring`, which see every suspension
    /// and resumption. CPython 3.13's output for the same module (3.11's, but for `sys.monitoring`).
    #[test]
    fn generators_summed_in_their_own_frame_behave_as_resumed_per_item() {
        let source = r#"import sys
log = []
class Loud:
    def __radd__(self, other):
        log.append(('radd', other, g.gi_running, g2 and g2.gi_running))
        return other + 0.5
def items():
    try:
        yield 1
        yield True
        yield 2**63 - 1
        yield 5
        yield 2.5
        yield 2**60
        yield Loud()
        yield 0.25
        log.append('body-after-loud')
        yield 'x'
        log.append('resumed-after-x')
        yield 3
    finally:
        log.append('finally')
g2 = None
g = items()
try:
    sum(g)
except TypeError as e:
    log.append(repr(e))
log.append(next(g))
log.append(next(g, 'end'))
def items2():
    yield 1
    yield 2
    yield Loud()
    yield 0.25
    yield Loud()
    yield 1
    yield 2**53 + 1
    log.append('before-x')
    yield 'x'
    log.append('after-x')
    yield 4
g2 = items2()
try:
    sum(g2)
except TypeError as e:
    log.append(repr(e))
log.append((next(g2), next(g2, 'end')))
def raises():
    yield 1
    yield 2
    raise KeyError('mid')
r = raises()
try:
    sum(r)
except KeyError as e:
    log.append(('raised', str(e), next(r, 'closed')))
def inner(n):
    for i in range(n):
        yield i
def nested():
    for n in range(4):
        yield sum(inner(n)) + sum(x * 0.5 for x in inner(n))
def delegating():
    yield 100
    total = yield from inner(5)
    yield from (sum(inner(3)) for _ in range(2))
def exc_seen():
    for _ in range(3):
        yield 1 if sys.exc_info()[0] is KeyError else 100
try:
    raise KeyError('outer')
except KeyError:
    handled = sum(exc_seen())
def me_again():
    yield 1
    yield sum(me)
me = 0
me = me_again()
try:
    sum(me)
except ValueError as e:
    log.append(repr(e))
def watcher():
    for _ in range(3):
        yield int(w.gi_running)
w = watcher()
def one_line():
    yield 1; yield 2; yield 3
def early():
    return
    yield 1
result = repr((sum(nested()), sum(delegating()), handled, sum(w), sum(one_line(), 10), sum(early()), sum(early(), 2.5), sum((x for x in [2**64, -2**64, 1])), sum(x / 4 for x in range(9)), log))
def traced_gen():
    for i in range(3):
        yield i
events = []
def tracer(frame, event, arg):
    if frame.f_code is traced_gen.__code__:
        events.append((event, arg if event == 'return' else None))
    return tracer
sys.settrace(tracer)
traced_total = sum(traced_gen())
sys.settrace(None)
mon = sys.monitoring
mon.use_tool_id(4, 'drain')
seen = []
mon.register_callback(4, mon.events.PY_YIELD, lambda code, off, val: seen.append(('yield', val)))
mon.register_callback(4, mon.events.PY_RESUME, lambda code, off: seen.append('resume'))
mon.set_local_events(4, traced_gen.__code__, mon.events.PY_YIELD | mon.events.PY_RESUME)
monitored_total = sum(traced_gen())
mon.set_local_events(4, traced_gen.__code__, 0)
mon.free_tool_id(4)
result += ' | ' + repr((traced_total, events, monitored_total, seen, sum(traced_gen())))
"#;
        assert_module_result(
            source,
            r#"(6.0, 116, 3, 3, 16, 0, 2.5, 1, 9.0, [('radd', 1.0376293541461623e+19, False, None), 'body-after-loud', 'TypeError("unsupported operand type(s) for +: \'float\' and \'str\'")', 'resumed-after-x', 3, 'finally', 'end', ('radd', 3, False, False), ('radd', 3.75, False, False), 'before-x', 'TypeError("unsupported operand type(s) for +: \'float\' and \'str\'")', 'after-x', (4, 'end'), ('raised', "'mid'", 'closed'), "ValueError('generator already executing')"]) | (3, [('call', None), ('line', None), ('line', None), ('return', 0), ('call', None), ('line', None), ('line', None), ('return', 1), ('call', None), ('line', None), ('line', None), ('return', 2), ('call', None), ('line', None), ('return', None)], 3, [('yield', 0), 'resume', ('yield', 1), 'resume', ('yield', 2), 'resume'], 3)"#,
        );
    }

    /// `list()`, `list.extend`, `tuple()`, `sorted()` and `str.join` take a generator's items at its
    /// `yield` without suspending it per item (`yield_drain`), as CPython's item-by-item resumes
    /// would give them: `extend` appends each item as it comes, so the generator sees the list grow
    /// and can take from it; an item `join` refuses leaves the generator suspended after it; an
    /// exception from the body closes it; re-entry is refused; items that compare in Python are
    /// sorted after they are all in. CPython 3.11's (and 3.13's) output for the same module.
    #[test]
    fn generators_collected_in_their_own_frame_behave_as_resumed_per_item() {
        let source = r#"log = []
def gen(n):
    for i in range(n):
        yield str(i)
lst = [0]
def peeking():
    for i in range(4):
        log.append(len(lst))
        yield i
lst.extend(peeking())
def growing():
    for i in range(3):
        yield lst.pop(0)
lst.extend(growing())
class Weird:
    def __lt__(self, other):
        log.append('lt')
        return False
def mixed():
    yield 3
    yield 1
    yield 2
def bad_join():
    yield 'a'
    yield 1
    log.append('unreached')
b = bad_join()
try:
    '-'.join(b)
except TypeError as e:
    log.append(str(e))
log.append(next(b, 'closed?'))
def boom():
    yield 1
    raise ValueError('boom')
for make in (list, tuple, sorted, lambda g: '-'.join(map(str, g))):
    bb = boom()
    try:
        make(bb)
    except ValueError as e:
        log.append((str(e), next(bb, 'closed')))
def selfref():
    yield 1
    yield list(me)
me = selfref()
try:
    list(me)
except ValueError as e:
    log.append(str(e))
t = tuple(x * 2 for x in range(5))
j = ', '.join(gen(4))
s = sorted(x % 3 for x in range(7))
l = list(gen(3))
e = list(x for x in ())
sw = sorted(Weird() for _ in range(2))
result = repr((lst, t, j, s, l, e, len(sw), log, tuple(x for x in 'ab'), ''.join(c for c in 'xyz' if c != 'y')))
"#;
        assert_module_result(
            source,
            r#"([2, 3, 0, 0, 1], (0, 2, 4, 6, 8), '0, 1, 2, 3', [0, 0, 0, 1, 1, 2, 2], ['0', '1', '2'], [], 2, [1, 2, 3, 4, 'unreached', 'sequence item 1: expected str instance, int found', 'closed?', ('boom', 'closed'), ('boom', 'closed'), ('boom', 'closed'), ('boom', 'closed'), 'generator already executing', 'lt'], ('a', 'b'), 'xz')"#,
        );
    }

    /// `any` and `all` pass over a generator's items of a truth known without Python (`None`, exact
    /// bools, ints, floats and strs) at its `yield` (`yield_drain`), and test every other item as
    /// CPython does: `__bool__` and `__len__` run with the generator suspended after that item, an
    /// int subclass's own `__bool__` is asked, the generator stops at the item that decides, and an
    /// exception from the body or from `__bool__` is raised where CPython raises it. CPython 3.11's
    /// (and 3.13's) output for the same module.
    #[test]
    fn any_and_all_of_a_generator_test_each_item_as_cpython() {
        let source = r#"log = []
class Truth:
    def __init__(self, v):
        self.v = v
    def __bool__(self):
        log.append(('bool', self.v, g.gi_running))
        return self.v
class Sized:
    def __len__(self):
        log.append(('len', g.gi_running))
        return 0
class Odd(int):
    def __bool__(self):
        log.append('odd')
        return False
def items():
    for x in (0, 0.0, -0.0, '', None, False, 0 * 10**30, Sized(), Odd(5), Truth(False), 10**30, 'tail'):
        log.append(('made', type(x).__name__))
        yield x
    log.append('end')
g = items()
first = any(g)
after = next(g)
g = items()
everything = all(x for x in [1, 2.5, 'a', True, float('nan'), -1, 10**40])
g = (x for x in [1, 'a', Truth(True), 0.0, 'never'])
failed = all(g)
rest = list(g)
try:
    any({}['k'] if x else 0 for x in (0, 1))
except KeyError as e:
    log.append(repr(e))
class Bad:
    def __bool__(self):
        raise ValueError('no truth')
g = (x for x in [True, Bad(), 'after'])
try:
    all(g)
except ValueError as e:
    log.append((repr(e), next(g)))
try:
    any(5)
except TypeError as e:
    log.append(str(e))
result = repr((first, after, everything, failed, rest, any([]), all([]), any(x for x in ()), all(x for x in ()), any(iter([0, 0, 3])), all(iter([1, 0])), log))
"#;
        assert_module_result(
            source,
            r#"(True, 'tail', True, False, ['never'], False, True, False, True, True, False, [('made', 'int'), ('made', 'float'), ('made', 'float'), ('made', 'str'), ('made', 'NoneType'), ('made', 'bool'), ('made', 'int'), ('made', 'Sized'), ('len', False), ('made', 'Odd'), 'odd', ('made', 'Truth'), ('bool', False, False), ('made', 'int'), ('made', 'str'), ('bool', True, False), "KeyError('k')", ("ValueError('no truth')", 'after'), "'int' object is not iterable"])"#,
        );
    }

    /// `max` and `min` of one iterable without a key compare the items of the extreme's own exact
    /// type (int, float, str) as that type does, at a generator's `yield` (`yield_drain`), and every
    /// other item by rich comparison as CPython does: with the generator suspended after it (Python
    /// comparisons see `gi_running` false), a NaN never winning, the first of equal items kept, a
    /// failed comparison leaving the generator resumable, and `key`/`default` as before. CPython
    /// 3.13's output for the same module (3.11 words the empty case differently).
    #[test]
    fn max_and_min_of_a_generator_compare_as_cpython() {
        let source = r#"g = None
log = []
class Loud:
    def __init__(self, v):
        self.v = v
    def __gt__(self, other):
        log.append(('gt', self.v, g.gi_running))
        return self.v > (other.v if isinstance(other, Loud) else other)
    def __lt__(self, other):
        log.append(('lt', self.v, g.gi_running))
        return self.v < (other.v if isinstance(other, Loud) else other)
    def __repr__(self):
        return 'Loud(%r)' % self.v
def gen(xs):
    for x in xs:
        log.append(('made', x if not isinstance(x, Loud) else 'loud'))
        yield x
g = None
nan = float('nan')
a = 'ab' * 3
b = 'ab' * 3
first_equal = max(gen([a, b])) is a
results = [
    max(gen([3, 9, 2, 9, -1])), min(gen([3, 9, 2, -1, 2])), max(gen([2**70, 5, -2**80])), min(gen([2**70, 5, -2**80])),
    max(gen([1.5, nan, 2.5])), max(gen([nan, 1.5, 2.5])), min(gen([0.0, -0.0])), max(gen([-0.0, 0.0])),
    max(gen(['b', 'abc', 'é', 'z'])), min(gen(['b', 'abc', 'é', 'z'])), max(gen([1, 2.5, 2])), min(gen([3, True, 0.5])),
    max(gen([1, True])), max(gen([(1, 2), (1, 3)])), max(gen([]), default='none'), min(gen([4, 1, 7]), key=lambda v: -v),
    max(x * x for x in range(-5, 4)), min(str(x) for x in range(12)), first_equal,
]
g = gen([1, Loud(5), 3, 7, Loud(6)])
results.append(max(g))
g = gen([9, 2, Loud(1), 0])
results.append(min(g))
g = gen([1, 'a', 2, 3])
try:
    max(g)
except TypeError as e:
    results.append((str(e), next(g)))
try:
    min({'a': 1}[k] for k in 'ab')
except KeyError as e:
    results.append(repr(e))
try:
    max(x for x in ())
except ValueError as e:
    results.append(str(e))
result = repr((results, log))
"#;
        assert_module_result(
            source,
            r#"([9, -1, 1180591620717411303424, -1208925819614629174706176, 2.5, nan, 0.0, -0.0, 'é', 'abc', 2.5, 0.5, 1, (1, 3), 'none', 7, 25, '0', True, 7, 0, ("'>' not supported between instances of 'str' and 'int'", 2), "KeyError('b')", 'max() iterable argument is empty'], [('made', 'ababab'), ('made', 'ababab'), ('made', 3), ('made', 9), ('made', 2), ('made', 9), ('made', -1), ('made', 3), ('made', 9), ('made', 2), ('made', -1), ('made', 2), ('made', 1180591620717411303424), ('made', 5), ('made', -1208925819614629174706176), ('made', 1180591620717411303424), ('made', 5), ('made', -1208925819614629174706176), ('made', 1.5), ('made', nan), ('made', 2.5), ('made', nan), ('made', 1.5), ('made', 2.5), ('made', 0.0), ('made', -0.0), ('made', -0.0), ('made', 0.0), ('made', 'b'), ('made', 'abc'), ('made', 'é'), ('made', 'z'), ('made', 'b'), ('made', 'abc'), ('made', 'é'), ('made', 'z'), ('made', 1), ('made', 2.5), ('made', 2), ('made', 3), ('made', True), ('made', 0.5), ('made', 1), ('made', True), ('made', (1, 2)), ('made', (1, 3)), ('made', 4), ('made', 1), ('made', 7), ('made', 1), ('made', 'loud'), ('gt', 5, False), ('made', 3), ('lt', 5, False), ('made', 7), ('lt', 5, False), ('made', 'loud'), ('gt', 6, False), ('made', 9), ('made', 2), ('made', 'loud'), ('lt', 1, False), ('made', 0), ('gt', 1, False), ('made', 1), ('made', 'a'), ('made', 2)])"#,
        );
    }

    /// A dict display (`{k: v, ...}`) is built presized: keys keep their first object and last value,
    /// an unhashable key is the `TypeError` it is, and the dict grows, shrinks and keeps its order
    /// afterwards as CPython 3.11's does.
    #[test]
    fn dict_displays_build_and_grow_as_cpython() {
        let source = r#"class K:
    def __init__(self, n):
        self.n = n
    def __hash__(self):
        return 1
    def __eq__(self, other):
        return isinstance(other, K)
    def __repr__(self):
        return f"K{self.n}"
dup = {1: 'a', 2: 'b', 1: 'c'}
colliding = {K(1): 'x', K(2): 'y', 3: 'z'}
kept_key = list(colliding)[0].n
wide = {'a': 1, 'b': 2, 'c': 3, 'd': 4, 'e': 5, 'f': 6, 'g': 7, 'h': 8, 'i': 9, 'j': 10,
        'k': 11, 'l': 12, 'm': 13, 'n': 14, 'o': 15, 'p': 16, 'q': 17, 'r': 18, 's': 19, 't': 20}
try:
    bad = {1: 'a', []: 'b', 3: 'c'}
    err = None
except TypeError as e:
    err = str(e)
a, b = 'x', 'y'
repeated = {a: 1, b: 2, a: 3}
row = {"id": 7, "name": "row-7", "tags": ["a"], "score": 3.5, "ok": True}
for i in range(40):
    row[i] = i
for i in range(0, 40, 2):
    del row[i]
row["id"] = 8
five = {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}
five["f"] = 6
del five["a"]
result = repr((dup, colliding, kept_key, list(wide.items())[::5], len(wide), err, repeated,
               list(row.items())[:6], len(row), five, {}))
"#;
        assert_module_result(
            source,
            r#"({1: 'c', 2: 'b'}, {K1: 'y', 3: 'z'}, 1, [('a', 1), ('f', 6), ('k', 11), ('p', 16)], 20, "unhashable type: 'list'", {'x': 3, 'y': 2}, [('id', 8), ('name', 'row-7'), ('tags', ['a']), ('score', 3.5), ('ok', True), (1, 1)], 25, {'b': 2, 'c': 3, 'd': 4, 'e': 5, 'f': 6}, {})"#,
        );
    }

    /// `f(*args)` with a tuple subclass iterates it, as CPython's `CALL_FUNCTION_EX` turns anything but
    /// an exact tuple into one with `PySequence_Tuple`: the subclass's own `__iter__` decides the
    /// arguments, with keywords or without.
    #[test]
    fn star_args_from_a_tuple_subclass_go_through_its_iter() {
        let source = r#"class T(tuple):
    def __iter__(self):
        return iter([9])
def f(*a, **k):
    return a
result = repr((f(*T((1, 2))), f(*T((1, 2)), k=1), f(0, *T((1, 2))), list(T((1, 2))), tuple(T((1, 2)))))
"#;
        assert_module_result(source, "((9,), (9,), (0, 9), [9], (9,))");
    }

    /// The instructions the dispatch loop runs without its jump and result checks (loads and
    /// stores of locals, specialized arithmetic, subscripts, attribute and global loads, unpacking)
    /// raise, fall back and go on as CPython's do: errors from specialized sites after warm-up, caught
    /// in the same frame with their line numbers, unbound locals and free variables, and the values
    /// of a loop that goes past their cache entries.
    #[test]
    fn straight_line_instructions_raise_and_fall_back_as_cpython() {
        let source = r#"class P:
    def __init__(self, x):
        self.x = x
class S:
    __slots__ = ('v',)
    def __init__(self, v):
        self.v = v
G = 5
def site(xs, d, p, s, t, f, k):
    out = []
    for i in range(len(xs)):
        try:
            a = xs[i] + i * 2 - 1
            b = f * 1.5 + f - 0.25
            c = t[i % 2] + d[k]
            q, r = t
            xs[i] = a + p.x + s.v + G
            d[k] = c
            out.append((a, b, c, q, r, p.x, s.v, len(out)))
        except Exception as e:
            out.append((type(e).__name__, str(e), e.__traceback__.tb_lineno))
    return out
def unbound(flag):
    if flag:
        u = 1
    try:
        return u
    except UnboundLocalError as e:
        return (type(e).__name__, e.__traceback__.tb_lineno)
def free(flag):
    if flag:
        w = 2
    def inner():
        return w
    try:
        return inner()
    except NameError as e:
        return (type(e).__name__, e.__traceback__.tb_next.tb_lineno)
warm = None
for n in range(60):
    warm = site([1, 2, 3], {'k': 1}, P(2), S(3), (4, 5), 0.5, 'k')
adaptive = site.__code__._co_code_adaptive
results = [warm]
results.append(site([1, 2.5, 'x'], {'k': 1}, P(2), S(3), (4, 5), 0.5, 'k'))
results.append(site([1, 2], {}, P(2), S(3), (4, 5), 0.5, 'k'))
results.append(site([1, 2], {'k': 1}, P(2), S(3), (4,), 0.5, 'k'))
results.append(site([1, 2], {'k': 1}, object(), S(3), (4, 5), 0.5, 'k'))
results.append(site([1, 2], {'k': 1}, P(2), S(3), (4, 5), 2, 'k'))
results.append(site([1, 2], {'k': 1}, P(2), S(3), [4, 5], 'f', 'k'))
del G
results.append(site([1], {'k': 1}, P(2), S(3), (4, 5), 0.5, 'k'))
G = 7
results.append(site([10**20, 2], {'k': 1.5}, P(2), S(3), (4, 5), 0.5, 'k'))
results.append([unbound(n % 2) for n in range(4)] + [free(n % 2) for n in range(4)])
def fresh(n):
    return (n, [n] * 2, str(n))
def unpack_tuples(rows):
    out = []
    for row in rows:
        try:
            x, y, z = row
            u, v, w = fresh(len(out))
            out.append((z, y, x, w, v, u))
        except ValueError as e:
            out.append(str(e))
    return out
def unpack_lists(rows):
    out = []
    for row in rows:
        try:
            x, y, z = row
            out.append((z, y, x))
        except ValueError as e:
            out.append(str(e))
    return out
for n in range(60):
    unpack_tuples([(1, 2, 3), ('a', 'b', 'c')])
    unpack_lists([[1, 2, 3], ['a', 'b', 'c']])
adaptive += unpack_tuples.__code__._co_code_adaptive + unpack_lists.__code__._co_code_adaptive
results.append(unpack_tuples([(1, 2, 3), (1, 2), [7, 8, 9], 'xyz', (None, (), [])]))
results.append(unpack_lists([[1, 2, 3], [1, 2], [], (7, 8, 9), [None, (), []]]))
result = repr(results)
"#;
        with_module(source, |vm, scope| {
            use rustpython_vm::bytecode::Opcode;
            let result: String = global(vm, scope, "result");
            assert_eq!(
                result,
                r#"[[(0, 1.0, 5, 4, 5, 2, 3, 0), (3, 1.0, 10, 4, 5, 2, 3, 1), (6, 1.0, 14, 4, 5, 2, 3, 2)], [(0, 1.0, 5, 4, 5, 2, 3, 0), (3.5, 1.0, 10, 4, 5, 2, 3, 1), ('TypeError', 'can only concatenate str (not "int") to str', 13)], [('KeyError', "'k'", 15), ('KeyError', "'k'", 15)], [('ValueError', 'not enough values to unpack (expected 2, got 1)', 16), ('IndexError', 'tuple index out of range', 15)], [('AttributeError', "'object' object has no attribute 'x'", 17), ('AttributeError', "'object' object has no attribute 'x'", 17)], [(0, 4.75, 5, 4, 5, 2, 3, 0), (3, 4.75, 10, 4, 5, 2, 3, 1)], [('TypeError', "can't multiply sequence by non-int of type 'float'", 14), ('TypeError', "can't multiply sequence by non-int of type 'float'", 14)], [('NameError', "name 'G' is not defined", 17)], [(99999999999999999999, 1.0, 5.5, 4, 5, 2, 3, 0), (3, 1.0, 10.5, 4, 5, 2, 3, 1)], [('UnboundLocalError', 27), 1, ('UnboundLocalError', 27), 1, ('NameError', 34), 2, ('NameError', 34), 2], [(3, 2, 1, '0', [0, 0], 0), 'not enough values to unpack (expected 3, got 2)', (9, 8, 7, '2', [2, 2], 2), ('z', 'y', 'x', '3', [3, 3], 3), ([], (), None, '4', [4, 4], 4)], [(3, 2, 1), 'not enough values to unpack (expected 3, got 2)', 'not enough values to unpack (expected 3, got 0)', (9, 8, 7), ([], (), None)]]"#
            );
            // The warmed-up sites run the specialized forms the dispatch loop takes straight on.
            let adaptive: Vec<u8> = global(vm, scope, "adaptive");
            for op in [
                Opcode::BinaryOpAddInt,
                Opcode::BinaryOpSubtractInt,
                Opcode::BinaryOpMultiplyInt,
                Opcode::BinaryOpAddFloat,
                Opcode::BinaryOpSubtractFloat,
                Opcode::BinaryOpMultiplyFloat,
                Opcode::BinaryOpSubscrListInt,
                Opcode::BinaryOpSubscrTupleInt,
                Opcode::BinaryOpSubscrDict,
                Opcode::StoreSubscrListInt,
                Opcode::StoreSubscrDict,
                Opcode::UnpackSequenceTwoTuple,
                Opcode::UnpackSequenceTuple,
                Opcode::UnpackSequenceList,
                Opcode::LoadAttrWithHint,
                Opcode::LoadAttrSlot,
                Opcode::LoadGlobalModule,
                Opcode::LoadGlobalBuiltin,
                Opcode::StoreFast,
                Opcode::LoadFastBorrow,
            ] {
                assert!(
                    adaptive.iter().step_by(2).any(|&unit| unit == op as u8),
                    "{op:?} not among the site's instructions: {adaptive:?}"
                );
            }
        });
    }
}
