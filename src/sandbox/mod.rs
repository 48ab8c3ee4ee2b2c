//! Everything that knows about RustPython. The rest of the crate talks to the sandbox in plain data:
//! a run request in, a reply out, host calls through a [`HostChannel`].

mod convert;
mod externals;
#[doc(hidden)]
pub mod fuzzing;
#[cfg(target_os = "linux")]
mod hugepages;
mod imports;
mod interpreter;
#[cfg(target_os = "linux")]
mod jail;
mod limits;
mod memory;
#[cfg(target_os = "linux")]
mod process;
#[cfg(target_os = "linux")]
mod protocol;
mod snippet;
mod syntax;

/// The name of the threads that run in-process VMs (a panic there is the run's error).
pub(crate) const SANDBOX_THREAD: &str = "toolplane-sandbox";
#[cfg(target_os = "linux")]
mod worker;

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

pub use externals::HostChannel;
pub use imports::ALLOWED_IMPORTS;
pub use limits::request_interrupt;
pub use memory::CountingAllocator;
#[cfg(target_os = "linux")]
pub(crate) use process::ProcessEngine;

/// Whether the zygote moves onto transparent huge pages here, or why not (`toolplane doctor`).
#[cfg(all(target_os = "linux", feature = "cli"))]
pub(crate) fn huge_pages_availability() -> Result<(), String> {
    hugepages::availability()
}

/// What the process engine's jail holds here (`toolplane doctor`): the allowlist's size, or why the
/// filters cannot be made on this machine.
#[cfg(all(target_os = "linux", feature = "cli"))]
pub(crate) fn jail_summary() -> Result<String, String> {
    jail::Jail::new().map(|jail| jail.summary())
}

/// The worker executable process isolation would use, or why there is none.
pub(crate) fn worker_executable(
    configured: Option<&std::path::Path>,
) -> Result<std::path::PathBuf, String> {
    #[cfg(target_os = "linux")]
    return process::worker_executable(configured);
    #[cfg(not(target_os = "linux"))]
    {
        let _ = configured;
        Err("process isolation needs Linux".into())
    }
}
pub(crate) use snippet::Bindings;
pub use snippet::{SESSION_DISPLAY_NAME, SNIPPET_DISPLAY_NAME, SNIPPET_FILENAME};
#[cfg(target_os = "linux")]
pub use worker::worker_main_if_requested;

/// Runs the worker side of process isolation when this process was started as a toolplane worker,
/// and never returns then; otherwise returns at once. Call it first thing in `main` of an application
/// that embeds toolplane with process isolation and should serve as its own worker executable.
///
/// ```
/// toolplane::worker_main_if_requested(); // a no-op in a process that is not a worker
/// ```
#[cfg(not(target_os = "linux"))]
pub fn worker_main_if_requested() {}

use crate::capabilities::{ARTIFACTS_SAVE, Bridge, HostError};
use crate::execution::ExecutionResult;

/// The limits one run is held to.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub(crate) struct RunLimits {
    pub timeout: Duration,
    pub max_output_bytes: usize,
    pub recursion_limit: usize,
    pub max_memory_mb: usize,
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

/// One snippet to run, with the bridge that serves its host calls.
pub(crate) struct RunRequest {
    pub spec: RunSpec,
    pub bridge: Bridge,
}

/// What a run produced: one shape from the VM to the runtime, in both engines and across the process
/// line (the child sends it whole). The runtime turns `saved_artifacts` into the result's list.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct RunReport {
    pub result: ExecutionResult,
    /// `await reset_session()` was called in this run.
    pub reset_requested: bool,
    /// The run ended at a limit (time or memory), not at an error of the snippet's own.
    pub limit_hit: bool,
    /// Handles of the artifacts this run saved, in order (the host's dispatcher knows them).
    #[serde(skip)]
    pub saved_artifacts: Vec<String>,
}

impl RunReport {
    fn of(result: ExecutionResult) -> Self {
        Self {
            result,
            reset_requested: false,
            limit_hit: false,
            saved_artifacts: Vec::new(),
        }
    }
}

/// The host side of a run's calls, in either engine: the bridge, plus the list of saved artifacts.
pub(crate) struct Dispatcher {
    bridge: Bridge,
    saved_artifacts: Vec<String>,
}

impl Dispatcher {
    pub(crate) fn new(bridge: Bridge) -> Self {
        Self {
            bridge,
            saved_artifacts: Vec::new(),
        }
    }

    /// Starts one host call: the answer now (`Some`), or later through `on_done` (an async tool).
    pub(crate) fn submit(
        &mut self,
        name: &str,
        params: &str,
        on_done: impl FnOnce(Result<String, HostError>) + Send + 'static,
    ) -> Option<Result<String, HostError>> {
        let reply = self.bridge.submit(name, params, on_done)?;
        if name == ARTIFACTS_SAVE
            && let Ok(text) = &reply
            && let Ok(handle) = serde_json::from_str::<String>(text)
        {
            self.saved_artifacts.push(handle);
        }
        Some(reply)
    }

    pub(crate) fn into_saved_artifacts(self) -> Vec<String> {
        self.saved_artifacts
    }
}

type Answer = (u64, Result<String, HostError>);

/// The in-process channel: every call goes straight to the bridge; async tools answer on `later`.
struct DirectChannel {
    dispatcher: Rc<RefCell<Dispatcher>>,
    replies: std::collections::HashMap<u64, Result<String, HostError>>,
    later: (mpsc::Sender<Answer>, mpsc::Receiver<Answer>),
    /// Tickets of async calls not answered yet.
    pending: std::collections::HashSet<u64>,
    /// The run's time limit: waiting for a tool never outlasts it.
    deadline: Instant,
    timeout: Duration,
}

impl DirectChannel {
    fn new(dispatcher: Rc<RefCell<Dispatcher>>, timeout: Duration) -> Self {
        Self {
            dispatcher,
            replies: Default::default(),
            later: mpsc::channel(),
            pending: Default::default(),
            deadline: Instant::now() + timeout,
            timeout,
        }
    }
}

impl HostChannel for DirectChannel {
    fn submit(&mut self, ticket: u64, name: &str, params: String) {
        let tx = self.later.0.clone();
        let answered = self
            .dispatcher
            .borrow_mut()
            .submit(name, &params, move |reply| {
                let _ = tx.send((ticket, reply));
            });
        match answered {
            Some(reply) => {
                self.replies.insert(ticket, reply);
            }
            None => {
                self.pending.insert(ticket);
            }
        }
    }

    fn wait(&mut self, ticket: u64) -> Result<String, HostError> {
        if let Some(reply) = self.replies.remove(&ticket) {
            return reply;
        }
        if !self.pending.contains(&ticket) {
            return Err(HostError::runtime(format!(
                "no host call with ticket {ticket}"
            )));
        }
        loop {
            let left = self.deadline.saturating_duration_since(Instant::now());
            match self.later.1.recv_timeout(left) {
                Ok((t, reply)) => {
                    self.pending.remove(&t);
                    if t == ticket {
                        return reply;
                    }
                    self.replies.insert(t, reply);
                }
                Err(_) => {
                    return Err(HostError::new(
                        crate::capabilities::BuiltinBase::TimeoutError,
                        limits::timeout_message(self.timeout),
                    ));
                }
            }
        }
    }
}

/// The reply of a run whose sandbox could not start (`SandboxError`).
pub(crate) fn start_failure(text: &str) -> RunReport {
    failed_reply(
        "SandboxError",
        format!("the sandbox could not start: {text}"),
    )
}

fn build_failure(started: Instant, text: &str) -> RunReport {
    let mut reply = start_failure(text);
    reply.result.duration_ms = started.elapsed().as_secs_f64() * 1000.0;
    reply
}

/// Runs `spec` in `sandbox` with its run state, watchdog and output capture installed, host calls going
/// to `channel`.
fn run_in(
    sandbox: &interpreter::SandboxVm,
    spec: &RunSpec,
    channel: Box<dyn HostChannel>,
    session_account: Option<Arc<memory::MemoryAccount>>,
    mode: snippet::Mode<'_>,
) -> RunReport {
    let started = Instant::now();
    let flags = Arc::new(limits::RunFlags::new(
        spec.limits.timeout,
        spec.limits.max_memory_mb,
        session_account,
    ));
    let run = externals::ActiveRun::begin(externals::RunState {
        channel,
        local_failures: Default::default(),
        results_enabled: spec.results_enabled,
        artifacts_enabled: spec.artifacts_enabled,
        flags: flags.clone(),
        output: externals::OutputCapture::new(spec.limits.max_output_bytes),
        reset_requested: false,
    });
    let watchdog = limits::Watchdog::start(flags.clone(), sandbox.signal_tx.clone());
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
    drop(watchdog);
    RunReport {
        result,
        reset_requested: run.finish().is_some_and(|state| state.reset_requested),
        limit_hit: flags.timed_out() || flags.memory_exceeded(),
        saved_artifacts: Vec::new(),
    }
}

/// Runs `request` in `sandbox` with the in-process channel.
fn run_direct(
    sandbox: &interpreter::SandboxVm,
    request: RunRequest,
    session_account: Option<Arc<memory::MemoryAccount>>,
    mode: snippet::Mode<'_>,
) -> RunReport {
    let dispatcher = Rc::new(RefCell::new(Dispatcher::new(request.bridge)));
    let channel = Box::new(DirectChannel::new(
        dispatcher.clone(),
        request.spec.limits.timeout,
    ));
    let mut report = run_in(sandbox, &request.spec, channel, session_account, mode);
    report.saved_artifacts = Rc::try_unwrap(dispatcher)
        .map(|d| d.into_inner().into_saved_artifacts())
        .unwrap_or_default();
    report
}

/// A fresh interpreter built ahead of its run, while the sandbox thread was idle: a fresh run then
/// waits for its snippet only, not for the ~10 ms build. No run has touched it.
struct SpareVm {
    recursion_limit: usize,
    sandbox: interpreter::SandboxVm,
}

impl SpareVm {
    fn build(recursion_limit: usize) -> Option<Self> {
        let sandbox = interpreter::build(recursion_limit).ok()?;
        Some(Self {
            recursion_limit,
            sandbox,
        })
    }
}

/// Runs one snippet in a fresh interpreter on the current thread (which must have a large stack): the
/// spare one if it was built with this run's recursion limit, else a new one. Returns the reply and the
/// used interpreter, which the caller finalizes after replying.
fn run_fresh(
    request: RunRequest,
    spare: Option<SpareVm>,
) -> (RunReport, Option<interpreter::SandboxVm>) {
    let started = Instant::now();
    let recursion_limit = request.spec.limits.recursion_limit;
    let sandbox = match spare {
        Some(spare) if spare.recursion_limit == recursion_limit => spare.sandbox,
        other => {
            if let Some(unfit) = other {
                unfit.sandbox.finalize();
            }
            match interpreter::build(recursion_limit) {
                Ok(vm) => vm,
                Err(text) => return (build_failure(started, &text), None),
            }
        }
    };
    let mut reply = run_direct(&sandbox, request, None, snippet::Mode::Fresh);
    reply.result.duration_ms = started.elapsed().as_secs_f64() * 1000.0;
    (reply, Some(sandbox))
}

/// Keeps the objects that finalized interpreters leave behind out of later garbage collections.
///
/// RustPython's collector lists are shared by all interpreters of a thread (per thread in our build,
/// without its `threading` feature): the ~1,100 objects each finalized fresh interpreter leaks (`import
/// json` in the run) stay in them, and every later collection walked them, so finalizing the n-th
/// interpreter took 7 ms + ~1.5 ms × n. An interpreter of the thread's own that never runs a snippet
/// adopts them with one full collection (freeing what it can) and freezes the survivors, as
/// `gc.freeze()` does: they leave the walked lists. A snippet's collections see only its own
/// interpreter's objects, so no run reaches them.
struct Janitor(Option<interpreter::SandboxVm>);

impl Janitor {
    /// Built before the thread's first fresh interpreter: it loads every native module, so that the
    /// heap types RustPython shares between the thread's interpreters are made (and recorded, to be
    /// frozen) here, where no snippet runs.
    fn new() -> Self {
        let janitor = interpreter::build(1000).ok();
        if let Some(janitor) = &janitor {
            janitor.interp.enter(interpreter::record_shared_heap_types);
        }
        Self(janitor)
    }

    fn set_aside_leftovers(&mut self) {
        if let Some(janitor) = &self.0 {
            // Freeing a leftover can run a snippet's `__del__`: held to a limit like the finalize.
            janitor.collect_garbage();
            janitor.interp.enter(|vm| vm.state.gc.freeze());
        }
    }

    /// With the thread: hands the frozen leftovers back to the collector, which frees what it can.
    fn end(self) {
        if let Some(janitor) = self.0 {
            janitor.interp.enter(|vm| vm.state.gc.unfreeze());
            janitor.finalize();
        }
    }
}

/// A session's VM and the namespace that persists across its runs.
struct SessionVm {
    sandbox: interpreter::SandboxVm,
    globals: rustpython_vm::builtins::PyDictRef,
    /// What the session's namespace holds, across its runs (`[session] max_memory_mb`).
    memory: Arc<memory::MemoryAccount>,
}

impl SessionVm {
    fn build(recursion_limit: usize) -> Result<Self, String> {
        let sandbox = interpreter::build(recursion_limit)?;
        let globals = sandbox
            .interp
            .enter(|vm| snippet::new_session_globals(vm, &sandbox))
            .map_err(|_| "could not create the session namespace".to_string())?;
        Ok(Self {
            sandbox,
            globals,
            memory: Arc::new(memory::MemoryAccount::new(0)),
        })
    }

    fn close(self) {
        self.sandbox.finalize();
    }
}

/// Runs one snippet in the session, building its VM first if needed; a requested reset drops the VM
/// after the run, so the next run starts on a fresh namespace.
fn run_session(session: &mut Option<SessionVm>, request: RunRequest) -> RunReport {
    let started = Instant::now();
    if session.is_none() {
        match SessionVm::build(request.spec.limits.recursion_limit) {
            Ok(vm) => *session = Some(vm),
            Err(text) => return build_failure(started, &text),
        }
    }
    let Some(live) = session.as_ref() else {
        return build_failure(started, "no session VM");
    };
    let reply = run_direct(
        &live.sandbox,
        request,
        Some(live.memory.clone()),
        snippet::Mode::Session(&live.globals),
    );
    if reply.reset_requested
        && let Some(old) = session.take()
    {
        old.close();
    }
    reply
}

enum Job {
    Run(Box<RunRequest>, mpsc::Sender<RunReport>),
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
pub(crate) const SANDBOX_STACK_BYTES: usize = 256 << 20;

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
        Self::spawn_thread(kind, rx)?;
        Ok(tx)
    }

    /// Starts a sandbox thread serving `jobs`. A thread whose VM panicked hands `jobs` on to a new
    /// thread and ends: RustPython's per-thread state (its frame chain, collector lists) is not
    /// unwind-safe, and the next interpreter built on that thread crashed.
    fn spawn_thread(kind: WorkerKind, jobs: mpsc::Receiver<Job>) -> std::io::Result<()> {
        std::thread::Builder::new()
            .name(SANDBOX_THREAD.into())
            .stack_size(SANDBOX_STACK_BYTES)
            .spawn(move || {
                if let Some(jobs) = serve_jobs(kind, jobs) {
                    // If no thread can be started, `jobs` goes and the caller hears the thread is gone.
                    let _ = Self::spawn_thread(kind, jobs);
                }
            })?;
        Ok(())
    }

    /// Runs a snippet on the worker thread and waits for its reply.
    pub(crate) fn run(&self, request: RunRequest) -> RunReport {
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
                .is_none_or(|w| w.send(Job::Run(Box::new(request), reply_tx)).is_err())
            {
                *worker = None;
                return failed_reply(
                    "SandboxCrashedError",
                    "the sandbox thread is gone; execute again to retry".into(),
                );
            }
        }
        receive_soon(&reply_rx, REPLY_SPIN).unwrap_or_else(|_| {
            *self.worker.lock().unwrap_or_else(|e| e.into_inner()) = None;
            failed_reply(
                "SandboxCrashedError",
                "the sandbox thread stopped during the run; host-side effects of this run stand"
                    .into(),
            )
        })
    }
}

/// Serves jobs on this sandbox thread until the engine goes (`None`), or until a VM panics: then the
/// receiver is handed back for a new thread, and nothing built on this thread is touched again (its
/// interpreters are leaked, not finalized: that would run Python code on the damaged thread state).
fn serve_jobs(kind: WorkerKind, jobs: mpsc::Receiver<Job>) -> Option<mpsc::Receiver<Job>> {
    let mut session: Option<SessionVm> = None;
    let mut spare: Option<SpareVm> = None;
    let mut janitor = match kind {
        WorkerKind::Fresh => Janitor::new(),
        WorkerKind::Session => Janitor(None),
    };
    // Stays awake briefly between jobs: a caller's next run often follows at once.
    while let Ok(job) = receive_soon(&jobs, IDLE_SPIN) {
        let (request, reply) = match job {
            Job::Run(request, reply) => (*request, reply),
            Job::ResetSession => {
                if let Some(old) = session.take() {
                    old.close();
                }
                continue;
            }
        };
        let recursion_limit = request.spec.limits.recursion_limit;
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match kind {
            WorkerKind::Fresh => run_fresh(request, spare.take()),
            WorkerKind::Session => (run_session(&mut session, request), None),
        }));
        let (reply_value, used) = match outcome {
            Ok(done) => done,
            Err(panic) => {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                let _ = reply.send(failed_reply(
                    "SandboxCrashedError",
                    format!(
                        "the sandbox failed inside the VM ({what}); host-side effects of this run stand"
                    ),
                ));
                std::mem::forget((session, spare, janitor));
                return Some(jobs);
            }
        };
        let _ = reply.send(reply_value);
        // After the reply, off the caller's path: the used VM goes, the next run's comes.
        if let Some(used) = used {
            used.finalize();
            janitor.set_aside_leftovers();
        }
        if kind == WorkerKind::Fresh && spare.is_none() {
            spare = SpareVm::build(recursion_limit);
        }
    }
    if let Some(unused) = spare {
        unused.sandbox.finalize();
    }
    janitor.end();
    None
}

/// How long a caller polls for a reply before it sleeps. Most session runs finish within it, and a
/// sleeping caller costs a futex wake-up and a context switch (tens of µs in a VM) on every run.
const REPLY_SPIN: Duration = Duration::from_micros(300);

/// How long a sandbox thread polls for its next job before it sleeps: long enough for a caller running
/// snippets back to back, short enough not to steal a core from an MCP server's own threads (200 µs made
/// an MCP session run 0.6 ms instead of 0.3 ms on 2 vCPUs).
const IDLE_SPIN: Duration = Duration::from_micros(30);

/// `rx.recv()`, polling for up to `spin` first.
fn receive_soon<T>(rx: &mpsc::Receiver<T>, spin: Duration) -> Result<T, mpsc::RecvError> {
    let spin_until = Instant::now() + spin;
    loop {
        match rx.try_recv() {
            Ok(value) => return Ok(value),
            Err(mpsc::TryRecvError::Disconnected) => return Err(mpsc::RecvError),
            Err(mpsc::TryRecvError::Empty) if Instant::now() < spin_until => std::hint::spin_loop(),
            Err(mpsc::TryRecvError::Empty) => return rx.recv(),
        }
    }
}

fn failed_reply(error_type: &str, message: String) -> RunReport {
    RunReport::of(ExecutionResult::failed(error_type, message, 0.0))
}

/// The engine behind a runtime or a session: in process, or in worker processes.
#[derive(Debug)]
pub(crate) enum Engine {
    InProcess(InProcessEngine),
    #[cfg(target_os = "linux")]
    Process(ProcessEngine),
    /// Process isolation was asked for but cannot start (no worker executable): runs fail, saying why.
    Unavailable(String),
}

/// What a runtime's engines share: the zygote of process isolation, started on first use.
#[derive(Debug, Clone, Default)]
pub(crate) struct EngineHost {
    #[cfg(target_os = "linux")]
    zygote: Arc<process::ZygoteHandle>,
}

impl EngineHost {
    /// Stops the worker processes of every engine made here (process isolation); in-process engines
    /// have none.
    pub(crate) fn stop_workers(&self) {
        #[cfg(target_os = "linux")]
        self.zygote.stop();
    }

    /// An engine for `isolation` (fresh runs, or one session when `session`). Process isolation needs a
    /// worker executable; without one, runs fail with a `SandboxError` that says how to provide it.
    pub(crate) fn engine(
        &self,
        isolation: crate::config::Isolation,
        worker_path: Option<&std::path::Path>,
        recursion_limit: usize,
        session: bool,
    ) -> Engine {
        #[cfg(target_os = "linux")]
        if isolation == crate::config::Isolation::Process {
            let exe = match process::worker_executable(worker_path) {
                Ok(exe) => exe,
                Err(text) => return Engine::Unavailable(text),
            };
            let zygote = self.zygote.clone();
            return Engine::Process(if session {
                ProcessEngine::session(zygote, exe, recursion_limit)
            } else {
                ProcessEngine::fresh(zygote, exe, recursion_limit)
            });
        }
        let _ = (isolation, worker_path, recursion_limit);
        Engine::InProcess(if session {
            InProcessEngine::session()
        } else {
            InProcessEngine::fresh()
        })
    }
}

impl Engine {
    pub(crate) fn run(&self, request: RunRequest) -> RunReport {
        match self {
            Engine::InProcess(engine) => engine.run(request),
            #[cfg(target_os = "linux")]
            Engine::Process(engine) => engine.run(request),
            Engine::Unavailable(text) => start_failure(text),
        }
    }

    /// Starts what the first run would otherwise wait for (the zygote of process isolation); an error
    /// says why runs will fail.
    pub(crate) fn prestart(&self) -> Result<(), String> {
        match self {
            Engine::InProcess(_) => Ok(()),
            #[cfg(target_os = "linux")]
            Engine::Process(engine) => engine.prestart(),
            Engine::Unavailable(text) => Err(text.clone()),
        }
    }

    pub(crate) fn reset_session(&self) {
        match self {
            Engine::InProcess(engine) => engine.reset_session(),
            #[cfg(target_os = "linux")]
            Engine::Process(engine) => engine.reset_session(),
            Engine::Unavailable(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Finalizes `rounds` interpreters that imported json, on this thread (RustPython's collector
    /// state is per thread in our build), and returns the oldest generation's count and the frozen
    /// count afterwards.
    fn leftovers_after(rounds: usize, janitor: &mut Option<Janitor>) -> (usize, usize) {
        for _ in 0..rounds {
            let vm = interpreter::build(1000).unwrap();
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
    /// collection walks it: finalizing got 1.5 ms slower per run) unless the janitor freezes it.
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
}
