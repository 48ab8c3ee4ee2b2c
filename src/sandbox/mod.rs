//! Everything that knows about RustPython. The rest of the crate talks to the sandbox in plain data:
//! a [`RunRequest`] in, a [`RunReply`] out, host calls through a [`HostChannel`].

mod convert;
mod externals;
mod interpreter;
mod limits;
mod memory;
mod snippet;

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

pub use externals::HostChannel;
pub use interpreter::ALLOWED_IMPORTS;
pub use memory::CountingAllocator;
pub(crate) use snippet::Bindings;
pub use snippet::SNIPPET_FILENAME;

use crate::capabilities::{ARTIFACTS_SAVE, Bridge, HostError};
use crate::execution::{BACKEND_NAME, ExecutionResult};

/// The limits one run is held to.
#[derive(Debug, Clone)]
pub(crate) struct RunLimits {
    pub timeout: Duration,
    pub max_output_bytes: usize,
    pub recursion_limit: usize,
    pub max_memory_mb: usize,
}

/// One snippet to run, with everything the sandbox needs to know.
pub(crate) struct RunRequest {
    pub code: String,
    pub inputs: serde_json::Map<String, serde_json::Value>,
    pub bindings: Bindings,
    pub limits: RunLimits,
    pub bridge: Bridge,
}

/// What a run produced, before the runtime adds the artifact list.
pub(crate) struct RunReply {
    pub result: ExecutionResult,
    /// Handles of the artifacts this run saved, in order.
    pub saved_artifacts: Vec<String>,
}

/// The in-process channel: every call goes straight to the bridge.
struct DirectChannel {
    bridge: Bridge,
    replies: std::collections::HashMap<u64, Result<String, HostError>>,
    saved_artifacts: Rc<RefCell<Vec<String>>>,
}

impl HostChannel for DirectChannel {
    fn submit(&mut self, ticket: u64, name: &str, params: String) {
        let reply = self.bridge.call(name, &params);
        if name == ARTIFACTS_SAVE
            && let Ok(text) = &reply
            && let Ok(handle) = serde_json::from_str::<String>(text)
        {
            self.saved_artifacts.borrow_mut().push(handle);
        }
        self.replies.insert(ticket, reply);
    }

    fn wait(&mut self, ticket: u64) -> Result<String, HostError> {
        self.replies.remove(&ticket).unwrap_or_else(|| {
            Err(HostError::runtime(format!(
                "no host call with ticket {ticket}"
            )))
        })
    }
}

fn build_failure(started: Instant, text: &str) -> RunReply {
    let mut result = ExecutionResult::failed(
        "SandboxError",
        format!("the sandbox could not start: {text}"),
        0.0,
    );
    result.duration_ms = started.elapsed().as_secs_f64() * 1000.0;
    RunReply {
        result,
        saved_artifacts: Vec::new(),
    }
}

/// Runs `request` in `sandbox` with its run state, watchdog and output capture installed; `teardown`
/// runs before the watchdog stops, so `__del__` or atexit code cannot hang the thread. Returns the reply
/// and whether the snippet asked for a session reset.
fn run_in(
    sandbox: &interpreter::SandboxVm,
    request: &RunRequest,
    mode: snippet::Mode<'_>,
    started: Instant,
    teardown: impl FnOnce(),
) -> (RunReply, bool) {
    let flags = Arc::new(limits::RunFlags::new(
        request.limits.timeout,
        request.limits.max_memory_mb,
    ));
    let saved_artifacts = Rc::new(RefCell::new(Vec::new()));
    externals::begin_run(externals::RunState {
        channel: Box::new(DirectChannel {
            bridge: request.bridge.clone(),
            replies: Default::default(),
            saved_artifacts: saved_artifacts.clone(),
        }),
        next_ticket: 0,
        local_failures: Default::default(),
        results_enabled: request.bridge.results().is_enabled(),
        artifacts_enabled: request.bridge.artifacts().is_enabled(),
        flags: flags.clone(),
        output: externals::OutputCapture::new(request.limits.max_output_bytes),
        reset_requested: false,
    });
    let watchdog = limits::Watchdog::start(flags.clone(), sandbox.signal_tx.clone());
    memory::start_tracking(&flags.memory);
    let output = snippet::run_snippet(
        sandbox,
        &request.code,
        &request.inputs,
        &request.bindings,
        request.limits.max_output_bytes,
        &flags,
        mode,
    );
    memory::stop_tracking();
    let duration_ms = started.elapsed().as_secs_f64() * 1000.0;
    teardown();
    drop(watchdog);
    let reset_requested = externals::end_run().is_some_and(|state| state.reset_requested);
    let saved_artifacts = saved_artifacts.take();
    let reply = RunReply {
        result: ExecutionResult {
            value: output.value,
            stdout: output.stdout,
            stderr: output.stderr,
            duration_ms,
            backend: BACKEND_NAME.into(),
            error: output.error,
            artifacts: Vec::new(),
        },
        saved_artifacts,
    };
    (reply, reset_requested)
}

/// Runs one snippet in a fresh interpreter on the current thread (which must have a large stack).
pub(crate) fn run_fresh(request: RunRequest) -> RunReply {
    let started = Instant::now();
    let sandbox = match interpreter::build(request.limits.recursion_limit) {
        Ok(vm) => vm,
        Err(text) => return build_failure(started, &text),
    };
    let interp = &sandbox.interp;
    let teardown = || {
        interp.enter(|vm| vm.state.atexit_funcs.lock().clear());
    };
    let (reply, _) = run_in(&sandbox, &request, snippet::Mode::Fresh, started, teardown);
    sandbox.interp.finalize(None);
    reply
}

/// A session's VM and the namespace that persists across its runs.
struct SessionVm {
    sandbox: interpreter::SandboxVm,
    globals: rustpython_vm::builtins::PyDictRef,
}

impl SessionVm {
    fn build(recursion_limit: usize) -> Result<Self, String> {
        let sandbox = interpreter::build(recursion_limit)?;
        let globals = sandbox
            .interp
            .enter(|vm| snippet::new_session_globals(vm, &sandbox))
            .map_err(|_| "could not create the session namespace".to_string())?;
        Ok(Self { sandbox, globals })
    }

    fn close(self) {
        self.sandbox
            .interp
            .enter(|vm| vm.state.atexit_funcs.lock().clear());
        self.sandbox.interp.finalize(None);
    }
}

/// Runs one snippet in the session, building its VM first if needed; a requested reset drops the VM
/// after the run, so the next run starts on a fresh namespace.
fn run_session(session: &mut Option<SessionVm>, request: RunRequest) -> RunReply {
    let started = Instant::now();
    if session.is_none() {
        match SessionVm::build(request.limits.recursion_limit) {
            Ok(vm) => *session = Some(vm),
            Err(text) => return build_failure(started, &text),
        }
    }
    let Some(live) = session.as_ref() else {
        return build_failure(started, "no session VM");
    };
    let (reply, reset) = run_in(
        &live.sandbox,
        &request,
        snippet::Mode::Session(&live.globals),
        started,
        || {},
    );
    if reset && let Some(old) = session.take() {
        old.close();
    }
    reply
}

enum Job {
    Run(RunRequest, mpsc::Sender<RunReply>),
    ResetSession,
}

/// Whether a worker runs each snippet in a fresh VM or keeps one session VM.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum WorkerKind {
    Fresh,
    Session,
}
/// Stack size of sandbox threads: deep enough that RustPython's own recursion checks always fire
/// before the native stack runs out.
const SANDBOX_STACK_BYTES: usize = 256 << 20;

/// A long-lived, large-stack worker thread that runs snippets in process, one at a time: each in a
/// fresh interpreter, or all in one session interpreter. VMs are thread-affine, and a thread per run
/// would leak RustPython's per-thread type objects.
#[derive(Debug)]
pub(crate) struct InProcessEngine {
    kind: WorkerKind,
    worker: Mutex<Option<mpsc::Sender<Job>>>,
}

impl InProcessEngine {
    /// An engine that gives every run a fresh VM.
    pub(crate) fn fresh() -> Self {
        Self {
            kind: WorkerKind::Fresh,
            worker: Mutex::new(None),
        }
    }

    /// An engine that keeps one session VM across runs.
    pub(crate) fn session() -> Self {
        Self {
            kind: WorkerKind::Session,
            worker: Mutex::new(None),
        }
    }

    /// Drops the session's namespace (the next run starts fresh).
    pub(crate) fn reset_session(&self) {
        if let Some(worker) = self
            .worker
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
        {
            let _ = worker.send(Job::ResetSession);
        }
    }

    fn spawn_worker(kind: WorkerKind) -> std::io::Result<mpsc::Sender<Job>> {
        let (tx, rx) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("toolplane-sandbox".into())
            .stack_size(SANDBOX_STACK_BYTES)
            .spawn(move || {
                let mut session: Option<SessionVm> = None;
                for job in rx {
                    let (request, reply) = match job {
                        Job::Run(request, reply) => (request, reply),
                        Job::ResetSession => {
                            if let Some(old) = session.take() {
                                old.close();
                            }
                            continue;
                        }
                    };
                    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match kind {
                        WorkerKind::Fresh => run_fresh(request),
                        WorkerKind::Session => run_session(&mut session, request),
                    }));
                    if outcome.is_err() {
                        // A VM that panicked mid-run is not trusted again.
                        session = None;
                    }
                    let reply_value = outcome.unwrap_or_else(|panic| {
                        let what = panic
                            .downcast_ref::<&str>()
                            .map(|s| s.to_string())
                            .or_else(|| panic.downcast_ref::<String>().cloned())
                            .unwrap_or_default();
                        externals::end_run();
                        failed_reply(
                            "SandboxCrashedError",
                            format!("the sandbox failed inside the VM ({what}); host-side effects of this run stand"),
                        )
                    });
                    let _ = reply.send(reply_value);
                }
            })?;
        Ok(tx)
    }

    /// Runs a snippet on the worker thread and waits for its reply.
    pub(crate) fn run(&self, request: RunRequest) -> RunReply {
        let (reply_tx, reply_rx) = mpsc::channel();
        {
            let mut worker = self.worker.lock().unwrap_or_else(|e| e.into_inner());
            if worker.is_none() {
                match Self::spawn_worker(self.kind) {
                    Ok(tx) => *worker = Some(tx),
                    Err(e) => {
                        return failed_reply(
                            "SandboxError",
                            format!("could not start the sandbox thread: {e}"),
                        );
                    }
                }
            }
            if worker
                .as_ref()
                .is_none_or(|w| w.send(Job::Run(request, reply_tx)).is_err())
            {
                *worker = None;
                return failed_reply(
                    "SandboxCrashedError",
                    "the sandbox thread is gone; execute again to retry".into(),
                );
            }
        }
        reply_rx.recv().unwrap_or_else(|_| {
            *self.worker.lock().unwrap_or_else(|e| e.into_inner()) = None;
            failed_reply(
                "SandboxCrashedError",
                "the sandbox thread stopped during the run; host-side effects of this run stand"
                    .into(),
            )
        })
    }
}

fn failed_reply(error_type: &str, message: String) -> RunReply {
    RunReply {
        result: ExecutionResult::failed(error_type, message, 0.0),
        saved_artifacts: Vec::new(),
    }
}
