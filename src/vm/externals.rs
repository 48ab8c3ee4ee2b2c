//! The native side of the externals: `_toolplane_host`, the only module that talks to the host.
//!
//! Per-run state lives in a thread-local (a VM is thread-affine and runs one snippet at a time), not in
//! closures: RustPython leaks every native closure it wraps.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use rustpython_vm::builtins::{PyBaseExceptionRef, PyDict, PyStr};
use rustpython_vm::{AsObject, PyObjectRef, PyResult, VirtualMachine};

use super::convert::{
    Mode, ToJsonError, encoded_or_fallback, from_json_text, native_or_fallback, to_json,
    to_json_between, type_name,
};
use super::limits::RunFlags;
use crate::capabilities::{BuiltinBase, HostError, RESULTS_SAVE};
use crate::stores::{RESULTS_DISABLED, non_json_message};

/// The sandbox's end of the bridge: submit a call (dispatch starts now), then wait for its reply.
/// The in-process engine answers from the bridge directly; a worker process answers over a pipe.
pub trait HostChannel {
    /// Starts a call; `params` is JSON text.
    fn submit(&mut self, ticket: u64, name: &str, params: String);
    /// The reply of a submitted call: JSON text, or the host's error.
    fn wait(&mut self, ticket: u64) -> Result<String, HostError>;
}

pub(crate) struct RunState {
    pub channel: Box<dyn HostChannel>,
    pub local_failures: HashMap<u64, HostError>,
    /// Tickets of calls started and not awaited yet: at most `max_pending_calls`.
    pub pending_calls: std::collections::HashSet<u64>,
    pub max_pending_calls: usize,
    pub results_enabled: bool,
    pub artifacts_enabled: bool,
    pub flags: Arc<RunFlags>,
    pub output: OutputCapture,
    /// `await reset_session()` was called in this run.
    pub reset_requested: bool,
}

/// Captured stdout/stderr of a run, within one byte budget shared by both streams.
#[derive(Debug, Default)]
pub(crate) struct OutputCapture {
    pub stdout: String,
    pub stderr: String,
    pub limit: usize,
    pub used: usize,
    pub exceeded: bool,
    /// After the run: writes (from teardown) are dropped silently.
    pub closed: bool,
}

impl OutputCapture {
    pub(crate) fn new(limit: usize) -> Self {
        Self {
            limit,
            ..Self::default()
        }
    }
}

/// The message of a call past `[limits] max_pending_calls` (raised as `RuntimeError` where the call is
/// made; the host refuses one the same way).
pub(crate) fn too_many_pending_calls(cap: usize) -> String {
    format!(
        "too many host calls pending: this run has started {cap} calls it has not awaited \
         ([limits] max_pending_calls); await some before starting more"
    )
}

/// The message of the output limit.
pub(crate) fn output_limit_message(limit: usize) -> String {
    format!(
        "captured stdout/stderr exceeded the per-run output limit of {limit} bytes ([limits] max_output_bytes); \
         print less data or summarize it, then re-run"
    )
}

/// Stops capturing and returns (stdout, stderr, exceeded).
pub(crate) fn close_output() -> (String, String, bool) {
    RUN.with(|r| match r.borrow_mut().as_mut() {
        Some(state) => {
            let out = &mut state.output;
            out.closed = true;
            (
                std::mem::take(&mut out.stdout),
                std::mem::take(&mut out.stderr),
                out.exceeded,
            )
        }
        None => Default::default(),
    })
}

fn write_stream(
    text: rustpython_vm::builtins::PyStrRef,
    to_stderr: bool,
    vm: &VirtualMachine,
) -> PyResult<usize> {
    let chars = text.char_len();
    let outcome = RUN.with(|r| {
        let mut run = r.borrow_mut();
        let Some(state) = run.as_mut() else {
            return Ok(());
        };
        let out = &mut state.output;
        if out.closed {
            return Ok(());
        }
        let size = text.byte_len();
        if out.used + size > out.limit {
            out.exceeded = true;
            return Err(out.limit);
        }
        out.used += size;
        let target = if to_stderr {
            &mut out.stderr
        } else {
            &mut out.stdout
        };
        target.push_str(&text.as_wtf8().to_string_lossy());
        Ok(())
    });
    match outcome {
        Ok(()) => Ok(chars),
        Err(limit) => Err(vm.new_memory_error(output_limit_message(limit))),
    }
}

static NEXT_TICKET: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

thread_local! {
    static RUN: RefCell<Option<RunState>> = const { RefCell::new(None) };
    /// `[limits] max_recursion_depth` of the VMs on this thread: `sys.setrecursionlimit` cannot go above it.
    static MAX_RECURSION: std::cell::Cell<usize> = const { std::cell::Cell::new(1000) };
}

/// Sets the recursion ceiling of VMs built on this thread.
pub(crate) fn set_max_recursion(limit: usize) {
    MAX_RECURSION.with(|m| m.set(limit));
}

/// The run in progress on this thread: installs its state, and removes it when dropped, on every
/// path (a panic's unwinding included), so no state outlives its run.
#[must_use = "the run's state is removed when the guard is dropped"]
pub(crate) struct ActiveRun {
    /// `!Send`: the guard must end on the thread whose state it installed.
    _thread_bound: std::marker::PhantomData<*const ()>,
}

impl ActiveRun {
    /// Installs the state of the run about to start on this thread.
    pub(crate) fn begin(state: RunState) -> Self {
        let previous = RUN.with(|r| r.borrow_mut().replace(state));
        drop(previous);
        Self {
            _thread_bound: std::marker::PhantomData,
        }
    }

    /// Ends the run and hands back its state.
    pub(crate) fn finish(self) -> Option<RunState> {
        RUN.with(|r| r.borrow_mut().take())
    }
}

impl Drop for ActiveRun {
    fn drop(&mut self) {
        // Taken out first and dropped outside the borrow: a channel's drop may run host code.
        let state = RUN.try_with(|r| r.borrow_mut().take()).ok().flatten();
        drop(state);
    }
}

fn with_run<T>(vm: &VirtualMachine, f: impl FnOnce(&mut RunState) -> T) -> PyResult<T> {
    RUN.with(|r| match r.borrow_mut().as_mut() {
        Some(state) => Ok(f(state)),
        None => {
            Err(vm.new_runtime_error("toolplane externals are only available while a snippet runs"))
        }
    })
}

/// The Python exception for a host error.
pub(crate) fn refuse_code_error(vm: &VirtualMachine) -> PyBaseExceptionRef {
    vm.new_type_error(
        "code objects cannot be built or modified in the toolplane sandbox; compile() source text instead",
    )
}

pub(crate) fn host_error_to_py(vm: &VirtualMachine, err: &HostError) -> PyBaseExceptionRef {
    let excs = &vm.ctx.exceptions;
    let class = match err.base {
        BuiltinBase::ValueError => excs.value_error,
        BuiltinBase::PermissionError => excs.permission_error,
        BuiltinBase::LookupError => excs.lookup_error,
        BuiltinBase::TypeError => excs.type_error,
        BuiltinBase::TimeoutError => excs.timeout_error,
        BuiltinBase::MemoryError => excs.memory_error,
        BuiltinBase::RuntimeError => excs.runtime_error,
        BuiltinBase::FileNotFoundError => excs.file_not_found_error,
    };
    vm.new_exception_msg(class.to_owned(), err.message.as_str().into())
}

/// Converts a call's params to JSON text, with the store's own texts for `save_result`.
fn params_json(
    vm: &VirtualMachine,
    results_enabled: bool,
    name: &str,
    params: &PyObjectRef,
) -> Result<String, HostError> {
    if name == RESULTS_SAVE {
        if !results_enabled {
            return Err(HostError::value(RESULTS_DISABLED));
        }
        let dict = params.downcast_ref::<PyDict>();
        let get = |key: &str| dict.and_then(|d| d.get_item_opt(key, vm).ok().flatten());
        let label = get("label").filter(|l| !vm.is_none(l));
        let label_json = match &label {
            None => "null".to_string(),
            Some(l) if l.downcast_ref::<PyStr>().is_some() => {
                to_json(vm, l, Mode::Strict).map_err(|e| HostError::value(e.detail(vm)))?
            }
            Some(l) => {
                return Err(HostError::value(format!(
                    "result label must be a string, got '{}'",
                    type_name(l)
                )));
            }
        };
        let value = get("value").ok_or_else(|| {
            HostError::type_error("save_result() missing required argument: 'value'")
        })?;
        let suffix = format!(", \"label\": {label_json}}}");
        return to_json_between(vm, &value, Mode::Strict, "{\"value\": ", &suffix).map_err(|e| {
            match e {
                ToJsonError::Raised(exc) => raised_to_host(vm, &exc),
                other => HostError::value(non_json_message(&type_name(&value), &other.detail(vm))),
            }
        });
    }
    to_json(vm, params, Mode::Strict).map_err(|e| match e {
        ToJsonError::Raised(exc) => raised_to_host(vm, &exc),
        other => HostError::type_error(format!(
            "params for {name} are not JSON-serializable ({})",
            other.detail(vm)
        )),
    })
}

fn raised_to_host(vm: &VirtualMachine, exc: &PyBaseExceptionRef) -> HostError {
    let message = exc
        .as_object()
        .str(vm)
        .map(|s| s.to_string())
        .unwrap_or_default();
    HostError::value(format!("{}: {message}", exc.class().name()))
}

#[rustpython_vm::pymodule]
pub(crate) mod _toolplane_host {
    use super::*;

    // The namespace's names, from `crate::namespace`: the shim reads them here.
    #[pyattr]
    const RESULTS_SAVE: &str = crate::namespace::RESULTS_SAVE;
    #[pyattr]
    const RESULTS_LOAD: &str = crate::namespace::RESULTS_LOAD;
    #[pyattr]
    const ARTIFACTS_SAVE: &str = crate::namespace::ARTIFACTS_SAVE;
    #[pyattr]
    const ARTIFACTS_LOAD: &str = crate::namespace::ARTIFACTS_LOAD;

    /// The store functions every snippet has, by name.
    #[pyattr(name = "STORE_SUGAR")]
    fn store_sugar(vm: &VirtualMachine) -> rustpython_vm::builtins::PyTupleRef {
        vm.ctx.new_tuple(
            crate::namespace::STORE_SUGAR
                .iter()
                .map(|name| vm.ctx.new_str(*name).into())
                .collect(),
        )
    }

    /// Starts a host call and returns its ticket. Problems with the arguments are kept and raised
    /// when the call is awaited, like any host error.
    #[pyfunction]
    fn submit(
        name: rustpython_vm::builtins::PyStrRef,
        params: PyObjectRef,
        vm: &VirtualMachine,
    ) -> PyResult<u64> {
        // Tickets are unique for the life of the process, not per run: a late answer to a call of an
        // earlier run of a session must never be taken for the answer to a call of this one.
        let ticket = NEXT_TICKET.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let full = with_run(vm, |s| {
            let full = s.pending_calls.len() >= s.max_pending_calls;
            if !full {
                s.pending_calls.insert(ticket);
            }
            full.then_some(s.max_pending_calls)
        })?;
        if let Some(cap) = full {
            return Err(vm.new_runtime_error(too_many_pending_calls(cap)));
        }
        if name.byte_len() > crate::capabilities::MAX_CAPABILITY_NAME_BYTES {
            // Not copied: a snippet's name of any size must not cost the host its size again.
            let chars = name.as_wtf8().code_points().map(|c| c.to_char_lossy());
            let error = crate::capabilities::unknown_long_capability(chars, name.byte_len());
            with_run(vm, |s| s.local_failures.insert(ticket, error))?;
            return Ok(ticket);
        }
        let name = name.to_string();
        // Convert outside the RUN borrow: conversion may run Python code (isoformat).
        let results_enabled = with_run(vm, |s| s.results_enabled)?;
        let converted = params_json(vm, results_enabled, &name, &params);
        with_run(vm, |s| match converted {
            Ok(json) => s.channel.submit(ticket, &name, json),
            Err(err) => {
                s.local_failures.insert(ticket, err);
            }
        })?;
        Ok(ticket)
    }

    /// Waits for a call's reply: the JSON result as Python objects, or the host's error raised as
    /// its builtin.
    #[pyfunction]
    fn wait(ticket: u64, vm: &VirtualMachine) -> PyResult {
        let reply = with_run(vm, |s| {
            s.pending_calls.remove(&ticket);
            match s.local_failures.remove(&ticket) {
                Some(err) => Err(err),
                None => s.channel.wait(ticket),
            }
        })?;
        match reply {
            Ok(text) => from_json_text(vm, &text),
            Err(err) => Err(host_error_to_py(vm, &err)),
        }
    }

    /// `sys.stdout.write`: captured, within the run's output budget.
    #[pyfunction]
    fn write_stdout(
        text: rustpython_vm::builtins::PyStrRef,
        vm: &VirtualMachine,
    ) -> PyResult<usize> {
        write_stream(text, false, vm)
    }

    /// `sys.stderr.write`.
    #[pyfunction]
    fn write_stderr(
        text: rustpython_vm::builtins::PyStrRef,
        vm: &VirtualMachine,
    ) -> PyResult<usize> {
        write_stream(text, true, vm)
    }

    /// `sys.setrecursionlimit`, clamped to `[limits] max_recursion_depth`.
    #[pyfunction]
    fn setrecursionlimit(limit: i64, vm: &VirtualMachine) -> PyResult<()> {
        if limit < 1 {
            return Err(vm.new_value_error("recursion limit must be greater than or equal to one"));
        }
        let ceiling = MAX_RECURSION.with(|m| m.get());
        let limit = usize::try_from(limit).unwrap_or(usize::MAX).min(ceiling);
        if limit <= vm.current_recursion_depth() {
            return Err(vm.new_recursion_error(format!(
                "cannot set the recursion limit to {limit} at the recursion depth {}: the limit is too low",
                vm.current_recursion_depth()
            )));
        }
        vm.recursion_limit.set(limit);
        Ok(())
    }

    /// Test hook: issues a system call the process engine's jail forbids (`socket`, `openat`, `kill`),
    /// so tests can see the jail stop the child. Raises unless the zygote was started with
    /// `TOOLPLANE_TEST_HOOKS` in the host's environment (never the case in process or elsewhere).
    #[pyfunction]
    fn _jail_probe(name: rustpython_vm::builtins::PyStrRef, vm: &VirtualMachine) -> PyResult<i64> {
        #[cfg(target_os = "linux")]
        if super::super::test_hooks::enabled() {
            return super::super::test_hooks::issue_forbidden_call(name.as_ref())
                .map_err(|e| vm.new_value_error(e));
        }
        let _ = name;
        Err(vm.new_runtime_error("test hooks are off"))
    }

    /// Test hook: panics inside the VM, so tests can see a run's panic reported and its engine carry
    /// on. Raises unless the hooks are on (`test_hooks`).
    #[pyfunction]
    fn _panic_probe(vm: &VirtualMachine) -> PyResult<()> {
        if super::super::test_hooks::panic_probe_enabled() {
            panic!("test hook: a panic inside the VM");
        }
        Err(vm.new_runtime_error("test hooks are off"))
    }

    /// `sys.unraisablehook` (and `sys.__unraisablehook__`): an exception nobody can catch (a raising
    /// `__del__`) is reported on the run's captured stderr, within its output budget. RustPython's own
    /// hook writes to `sys.stderr` and, when that is unusable (`sys.stderr = None`), to the host
    /// process's stderr.
    #[pyfunction]
    fn unraisable_hook(args: PyObjectRef, vm: &VirtualMachine) -> PyResult<()> {
        let text_of = |name: &'static str| -> Option<String> {
            let value = args.get_attr(name, vm).ok()?;
            if vm.is_none(&value) {
                return None;
            }
            Some(
                value
                    .str(vm)
                    .map_or_else(|_| "<str() failed>".into(), |s| s.to_string()),
            )
        };
        let mut text = match (text_of("err_msg"), args.get_attr("object", vm)) {
            (Some(message), _) => format!("{message}: "),
            (None, Ok(object)) if !vm.is_none(&object) => format!(
                "Exception ignored in: {}\n",
                object
                    .repr(vm)
                    .map_or_else(|_| "<object repr failed>".into(), |r| r.to_string())
            ),
            _ => String::new(),
        };
        let kind = args
            .get_attr("exc_type", vm)
            .ok()
            .and_then(|t| t.get_attr("__name__", vm).ok())
            .and_then(|n| n.str(vm).ok())
            .map_or_else(|| "Exception".to_string(), |n| n.to_string());
        match text_of("exc_value").filter(|m| !m.is_empty()) {
            Some(message) => text.push_str(&format!("{kind}: {message}\n")),
            None => text.push_str(&format!("{kind}\n")),
        }
        // Over the budget the run is flagged as over its output limit; nothing is raised here.
        let _ = write_stream(vm.ctx.new_str(text), true, vm);
        Ok(())
    }

    /// `reset_session()`: the session's variables are cleared after this run.
    #[pyfunction]
    fn request_reset(vm: &VirtualMachine) -> PyResult<()> {
        with_run(vm, |s| s.reset_requested = true)
    }

    /// `flush()` of the captured streams: nothing to do.
    #[pyfunction]
    fn flush() {}

    /// Whether this run may save artifacts (so the sugar can refuse before encoding the bytes).
    #[pyfunction]
    fn artifacts_enabled(vm: &VirtualMachine) -> PyResult<bool> {
        with_run(vm, |s| s.artifacts_enabled)
    }

    /// The sandbox's `open`: there is no filesystem.
    #[pyfunction]
    fn sandbox_open(_args: rustpython_vm::function::FuncArgs, vm: &VirtualMachine) -> PyResult {
        Err(vm.new_exception_msg(
            vm.ctx.exceptions.permission_error.to_owned(),
            "open() is not available in the toolplane sandbox: there is no host filesystem; \
             use save_artifact/load_artifact for files"
                .into(),
        ))
    }

    /// `json.dumps(obj)` with default arguments, natively: the text, or `NotImplemented` when the value
    /// needs the json module's own encoder (non-finite floats, subclasses, lone surrogates, errors).
    #[pyfunction]
    fn json_dumps(obj: PyObjectRef, vm: &VirtualMachine) -> PyResult {
        encoded_or_fallback(vm, to_json(vm, &obj, Mode::JsonModule))
    }

    /// `json.loads(text)` for a str of plain JSON, natively: the value, or `NotImplemented` when the
    /// json module's own decoder must decide (bytes, NaN/Infinity, surrogate escapes, errors).
    #[pyfunction]
    fn json_loads(text: PyObjectRef, vm: &VirtualMachine) -> PyResult {
        let Some(text) = text.downcast_ref::<PyStr>().and_then(|s| s.to_str()) else {
            return Ok(vm.ctx.not_implemented());
        };
        if text.contains("\\ud") || text.contains("\\uD") {
            return Ok(vm.ctx.not_implemented());
        }
        native_or_fallback(vm, from_json_text(vm, text))
    }

    /// Stands in for `code.__new__`, `code.replace` and `code.__replace__`: a code object built from
    /// arbitrary bytecode crashes RustPython's interpreter (a segfault, found by the escape suite).
    #[pyfunction]
    fn refuse_code_objects(
        _args: rustpython_vm::function::FuncArgs,
        vm: &VirtualMachine,
    ) -> PyResult {
        Err(super::refuse_code_error(vm))
    }

    /// `time.sleep`, in short slices so the run's deadline can end it.
    #[pyfunction]
    fn sleep(seconds: PyObjectRef, vm: &VirtualMachine) -> PyResult<()> {
        let seconds: f64 = match seconds.try_float(vm) {
            Ok(f) => f.to_f64(),
            Err(_) => {
                return Err(vm.new_type_error(format!(
                    "'{}' object cannot be interpreted as an integer or float",
                    type_name(&seconds)
                )));
            }
        };
        if seconds.is_nan() {
            return Err(vm.new_value_error("Invalid value NaN (not a number)"));
        }
        if seconds < 0.0 {
            return Err(vm.new_value_error("sleep length must be non-negative"));
        }
        let Some(flags) = RUN.with(|r| r.borrow().as_ref().map(|s| s.flags.clone())) else {
            // Outside a run (a `__del__` while a session resets or an interpreter ends) no limit is
            // armed that this loop would see, and nothing waits for the sleeper: no time passes.
            return Ok(());
        };
        let end = std::time::Instant::now() + std::time::Duration::from_secs_f64(seconds.min(1e9));
        loop {
            if flags.timed_out() || flags.memory_exceeded() {
                return Err(flags.limit_exception(vm));
            }
            let now = std::time::Instant::now();
            if now >= end {
                return Ok(());
            }
            std::thread::sleep((end - now).min(std::time::Duration::from_millis(10)));
        }
    }
}

/// A `marshal` without its risk: importlib imports the module, but a sandbox has no bytecode to load,
/// and `loads` of crafted bytes is a classic way to crash a VM.
#[rustpython_vm::pymodule(name = "marshal")]
pub(crate) mod safe_marshal {
    use rustpython_vm::{PyResult, VirtualMachine, function::FuncArgs};

    #[pyattr]
    #[allow(non_upper_case_globals)]
    const version: u32 = 4;

    fn refuse(what: &str, vm: &VirtualMachine) -> PyResult {
        Err(vm.new_exception_msg(
            vm.ctx.exceptions.permission_error.to_owned(),
            format!("marshal.{what} is not available in the toolplane sandbox").into(),
        ))
    }

    #[pyfunction]
    fn loads(_args: FuncArgs, vm: &VirtualMachine) -> PyResult {
        refuse("loads", vm)
    }

    #[pyfunction]
    fn load(_args: FuncArgs, vm: &VirtualMachine) -> PyResult {
        refuse("load", vm)
    }

    #[pyfunction]
    fn dumps(_args: FuncArgs, vm: &VirtualMachine) -> PyResult {
        refuse("dumps", vm)
    }

    #[pyfunction]
    fn dump(_args: FuncArgs, vm: &VirtualMachine) -> PyResult {
        refuse("dump", vm)
    }
}
