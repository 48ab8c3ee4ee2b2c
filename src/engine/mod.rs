//! The engines: where a run's VM lives. In process (a sandbox thread of this process,
//! `in_process.rs`), or in a forked child of a zygote process (the process engine: its host side in
//! `process.rs` and `protocol.rs`, its worker side — zygote, child, session holder and standby, jail,
//! huge pages — in `worker.rs`, `jail.rs` and `hugepages.rs`). Both drive the VM room (`crate::vm`)
//! with a `RunSpec` and get a `RunReport` back; neither imports RustPython. The worker executable also
//! starts stdio MCP servers in jails of their own (`server_jail.rs`).

#[cfg(target_os = "linux")]
mod hugepages;
mod in_process;
#[cfg(target_os = "linux")]
pub(crate) mod jail;
#[cfg(target_os = "linux")]
mod process;
#[cfg(target_os = "linux")]
mod protocol;
#[cfg(target_os = "linux")]
pub(crate) mod server_jail;
#[cfg(target_os = "linux")]
mod worker;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::capabilities::{ARTIFACTS_SAVE, Bridge, HostError, Submitted};
use crate::execution::ExecutionResult;
use crate::vm::{RunReport, RunSpec};

pub(crate) use in_process::InProcessEngine;
#[cfg(target_os = "linux")]
pub(crate) use process::ProcessEngine;

/// Set (to anything) in the host's environment to give the zygote's interpreters the test hooks
/// (`_toolplane_host._jail_probe`, `_panic_probe`; the CLI's in-process runs get the panic probe):
/// for this crate's own tests only.
pub(crate) const TEST_HOOKS_ENV: &str = "TOOLPLANE_TEST_HOOKS";

/// The name of the threads that run in-process VMs (a panic there is the run's error).
pub(crate) const SANDBOX_THREAD: &str = "toolplane-sandbox";

pub(crate) use crate::vm::SANDBOX_STACK_BYTES;

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
#[cfg(target_os = "linux")]
pub(crate) use protocol::WORKER_ENV;
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

/// One snippet to run, with the bridge that serves its host calls and the token that cancels it.
pub(crate) struct RunRequest {
    pub spec: RunSpec,
    pub bridge: Bridge,
    pub cancel: crate::cancel::CancelToken,
}

/// The host side of a run's calls, in either engine: the bridge, the list of saved artifacts, and the
/// async tools still running. Dropped when the run is over, however it ended: the tools still running
/// are aborted then (their futures dropped; an MCP server's call is cancelled).
pub(crate) struct Dispatcher {
    bridge: Bridge,
    saved_artifacts: Vec<String>,
    in_flight: Vec<tokio::task::AbortHandle>,
    /// `[limits] max_pending_calls`: the sandbox refuses more un-awaited calls itself; this holds
    /// whatever a worker sends.
    max_in_flight: usize,
    pending_replies: PendingReplies,
}

/// The bytes of async tools' replies that have arrived and are not yet the run's (in process: not
/// yet awaited; with process isolation: not yet written to the child). They count against the run's
/// memory limit: a reply that does not fit beside the others is a `MemoryError` instead, so replies
/// a run never awaits cannot grow the host past it.
#[derive(Clone)]
struct PendingReplies {
    held: Arc<AtomicUsize>,
    limit: usize,
}

/// One admitted reply's share of [`PendingReplies`], given back when it is dropped (the reply was
/// delivered, or dropped undelivered).
pub(crate) struct HeldReply {
    held: Arc<AtomicUsize>,
    bytes: usize,
}

impl Drop for HeldReply {
    fn drop(&mut self) {
        self.held.fetch_sub(self.bytes, Ordering::Relaxed);
    }
}

impl PendingReplies {
    fn new(limit: usize) -> Self {
        Self {
            held: Arc::default(),
            limit,
        }
    }

    fn admit(
        &self,
        name: &str,
        reply: Result<String, HostError>,
    ) -> (Result<String, HostError>, HeldReply) {
        let bytes = match &reply {
            Ok(text) => text.capacity(),
            Err(error) => error.message.capacity(),
        };
        let before = self.held.fetch_add(bytes, Ordering::Relaxed);
        if before.saturating_add(bytes) <= self.limit {
            let held = self.held.clone();
            return (reply, HeldReply { held, bytes });
        }
        self.held.fetch_sub(bytes, Ordering::Relaxed);
        drop(reply);
        let refused = HostError::new(
            crate::capabilities::BuiltinBase::MemoryError,
            format!(
                "the reply of {} ({bytes} bytes) does not fit in the run's memory limit of {} MiB \
                 beside the {before} bytes of replies it has not awaited yet ([limits] max_memory_mb)",
                name,
                self.limit >> 20
            ),
        );
        let held = HeldReply {
            held: self.held.clone(),
            bytes: 0,
        };
        (Err(refused), held)
    }
}

impl Drop for Dispatcher {
    fn drop(&mut self) {
        for call in &self.in_flight {
            call.abort();
        }
    }
}

impl Dispatcher {
    pub(crate) fn new(bridge: Bridge, limits: &crate::vm::RunLimits) -> Self {
        Self {
            bridge,
            saved_artifacts: Vec::new(),
            in_flight: Vec::new(),
            max_in_flight: limits.max_pending_calls,
            pending_replies: PendingReplies::new(limits.max_memory_mb.saturating_mul(1 << 20)),
        }
    }

    /// Starts one host call: the answer now (`Some`), or later through `on_done` (an async tool), with
    /// its share of the run's pending replies, to drop once the run has it.
    pub(crate) fn submit(
        &mut self,
        name: &str,
        params: &str,
        on_done: impl FnOnce(Result<String, HostError>, HeldReply) + Send + 'static,
    ) -> Option<Result<String, HostError>> {
        let on_done = {
            let (pending, name) = (self.pending_replies.clone(), name.to_string());
            move |reply| {
                let (reply, held) = pending.admit(&name, reply);
                on_done(reply, held);
            }
        };
        // Finished calls need no abort: keep the list to the calls still running.
        self.in_flight.retain(|c| !c.is_finished());
        if self.in_flight.len() >= self.max_in_flight {
            return Some(Err(HostError::runtime(crate::vm::too_many_pending_calls(
                self.max_in_flight,
            ))));
        }
        let reply = match self.bridge.audit().cloned() {
            None => self.bridge.submit(name, params, on_done),
            Some(log) => {
                let started = std::time::Instant::now();
                let (capability, run_id) =
                    (name.to_string(), self.bridge.run_id().map(str::to_string));
                let binary = crate::audit::cli_binary(name, params);
                let audited = move |reply: &Result<String, HostError>| {
                    let error = reply.as_ref().err().map(|e| e.base.python_name());
                    let cli = binary
                        .as_deref()
                        .map(|binary| (binary, reply.as_ref().ok().map(String::as_str)));
                    crate::audit::dispatched(
                        &log,
                        run_id.as_deref(),
                        &capability,
                        started,
                        error,
                        cli,
                    );
                };
                let audited_later = audited.clone();
                match self.bridge.submit(name, params, move |reply| {
                    audited_later(&reply);
                    on_done(reply);
                }) {
                    Submitted::Answered(reply) => {
                        audited(&reply);
                        Submitted::Answered(reply)
                    }
                    pending => pending,
                }
            }
        };
        let reply = match reply {
            Submitted::Answered(reply) => reply,
            Submitted::Pending(call) => {
                self.in_flight.push(call);
                return None;
            }
        };
        if name == ARTIFACTS_SAVE
            && let Ok(text) = &reply
            && let Ok(handle) = serde_json::from_str::<String>(text)
        {
            self.saved_artifacts.push(handle);
        }
        Some(reply)
    }

    pub(crate) fn into_saved_artifacts(mut self) -> Vec<String> {
        std::mem::take(&mut self.saved_artifacts)
    }
}

/// The reply of a run whose sandbox could not start (`SandboxError`).
pub(crate) fn start_failure(text: &str) -> RunReport {
    failed_reply(
        "SandboxError",
        format!("the sandbox could not start: {text}"),
    )
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

/// The worker processes of process isolation: a zygote per worker executable and recursion limit,
/// and the children it forks for runs. Each runtime has its own unless it is built with
/// [`ToolplaneBuilder::workers`](crate::ToolplaneBuilder::workers): runtimes given clones of one
/// `Workers` share its zygotes (one process and its warm interpreter instead of one per runtime), while
/// every run still gets a fresh child and every runtime keeps its own stores. The processes end when
/// the last runtime holding them is dropped, or at [`Toolplane::shutdown`](crate::Toolplane::shutdown)
/// of any of them (the others' next runs start new ones).
///
/// ```
/// use toolplane::{Toolplane, Workers};
/// let workers = Workers::new();
/// let a = Toolplane::builder().workers(&workers).build().unwrap();
/// let b = Toolplane::builder().workers(&workers).build().unwrap();
/// assert_eq!(a.execute("return 1", None).unwrap().value.get(), "1");
/// assert_eq!(b.execute("return 2", None).unwrap().value.get(), "2");
/// ```
#[derive(Debug, Clone, Default)]
pub struct Workers {
    #[cfg(target_os = "linux")]
    zygote: Arc<process::ZygoteHandle>,
}

impl Workers {
    /// Worker processes none of which have started yet: the first process-isolated run of a runtime
    /// built with them starts its zygote.
    pub fn new() -> Self {
        Self::default()
    }

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
