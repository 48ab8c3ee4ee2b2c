//! The in-process engine: a long-lived sandbox thread per runtime (fresh runs) or per session, whose
//! VMs run on the caller's process; host calls go straight to the bridge.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

use super::{
    Dispatcher, HeldReply, RunRequest, SANDBOX_STACK_BYTES, SANDBOX_THREAD, failed_reply,
    start_failure,
};
use crate::capabilities::HostError;
use crate::vm::{
    HostChannel, Janitor, RunReport, SandboxVm, Scope, SessionNamespace, SpareVm, run_in,
    timeout_message,
};

type Answer = (u64, Result<String, HostError>, Option<HeldReply>);

/// The ticket of the answer a cancel sends a run waiting for an async tool (tickets count from 0).
const CANCELLED_TICKET: u64 = u64::MAX;

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
    /// Whether the run may save results (what its timeout message suggests).
    results_enabled: bool,
    /// The run was cancelled: no wait blocks any more.
    cancelled: bool,
}

impl DirectChannel {
    fn new(dispatcher: Rc<RefCell<Dispatcher>>, timeout: Duration, results_enabled: bool) -> Self {
        Self {
            dispatcher,
            replies: Default::default(),
            later: mpsc::channel(),
            pending: Default::default(),
            deadline: Instant::now() + timeout,
            timeout,
            results_enabled,
            cancelled: false,
        }
    }
}

impl HostChannel for DirectChannel {
    fn submit(&mut self, ticket: u64, name: &str, params: String) {
        let tx = self.later.0.clone();
        let answered = self
            .dispatcher
            .borrow_mut()
            .submit(name, &params, move |reply, held| {
                let _ = tx.send((ticket, reply, Some(held)));
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
            if self.cancelled {
                // The watchdog interrupts the run at its next instruction.
                return Err(HostError::runtime(crate::cancel::CANCELLED_MESSAGE));
            }
            let left = self.deadline.saturating_duration_since(Instant::now());
            match self.later.1.recv_timeout(left) {
                Ok((CANCELLED_TICKET, ..)) => self.cancelled = true,
                Ok((t, reply, held)) => {
                    self.pending.remove(&t);
                    // The reply is the run's now: charged to its memory (it was made on another
                    // thread), and no longer pending.
                    if let Ok(text) = &reply {
                        crate::vm::adopt_foreign_allocation(text.capacity());
                    }
                    drop(held);
                    if t == ticket {
                        return reply;
                    }
                    self.replies.insert(t, reply);
                }
                Err(_) => {
                    return Err(HostError::new(
                        crate::capabilities::BuiltinBase::TimeoutError,
                        timeout_message(self.timeout, self.results_enabled),
                    ));
                }
            }
        }
    }
}

fn build_failure(started: Instant, text: &str) -> RunReport {
    let mut reply = start_failure(text);
    reply.result.duration_ms = started.elapsed().as_secs_f64() * 1000.0;
    reply
}

/// Runs `request` in `sandbox` with the in-process channel.
fn run_direct(sandbox: &SandboxVm, request: RunRequest, scope: Scope<'_>) -> RunReport {
    let dispatcher = Rc::new(RefCell::new(Dispatcher::new(
        request.bridge,
        &request.spec.limits,
    )));
    let channel = Box::new(DirectChannel::new(
        dispatcher.clone(),
        request.spec.limits.timeout,
        request.spec.results_enabled,
    ));
    // A run waiting for an async tool is woken by a cancel, not only at its deadline.
    let _wake_on_cancel = {
        let wake = channel.later.0.clone();
        request.cancel.arm(move || {
            let _ = wake.send((CANCELLED_TICKET, Ok(String::new()), None));
        })
    };
    let mut report = run_in(sandbox, &request.spec, channel, scope, &request.cancel);
    report.saved_artifacts = Rc::try_unwrap(dispatcher)
        .map(|d| d.into_inner().into_saved_artifacts())
        .unwrap_or_default();
    report
}

/// Runs one snippet in a fresh interpreter on the current thread (which must have a large stack): the
/// spare one if it was built with this run's recursion limit, else a new one. Returns the reply and the
/// used interpreter, which the caller finalizes after replying. `role` says whether it will be the only
/// interpreter of this thread.
fn run_fresh(
    request: RunRequest,
    spare: Option<SpareVm>,
    role: ThreadRole,
) -> (RunReport, Option<SandboxVm>) {
    let started = Instant::now();
    let recursion_limit = request.spec.limits.recursion_limit;
    let sandbox = match spare {
        Some(spare) if spare.recursion_limit == recursion_limit => spare.sandbox,
        other => {
            if let Some(unfit) = other {
                unfit.sandbox.finalize();
            }
            let built = match role {
                ThreadRole::FirstRunOnly => SandboxVm::build_alone(recursion_limit),
                ThreadRole::Lasting => SandboxVm::build(recursion_limit),
            };
            match built {
                Ok(vm) => vm,
                Err(text) => return (build_failure(started, &text), None),
            }
        }
    };
    let mut reply = run_direct(&sandbox, request, Scope::Fresh);
    reply.result.duration_ms = started.elapsed().as_secs_f64() * 1000.0;
    (reply, Some(sandbox))
}

/// A session's VM and the namespace that persists across its runs.
struct SessionVm {
    sandbox: SandboxVm,
    namespace: SessionNamespace,
}

impl SessionVm {
    fn build(recursion_limit: usize) -> Result<Self, String> {
        let sandbox = SandboxVm::build(recursion_limit)?;
        let namespace = SessionNamespace::new(&sandbox)?;
        Ok(Self { sandbox, namespace })
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
    let reply = run_direct(&live.sandbox, request, Scope::Session(&live.namespace));
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

/// A long-lived, large-stack worker thread that runs snippets in process, one at a time: each in a
/// fresh interpreter, or all in one session interpreter. VMs are thread-affine, and a thread per run
/// would leak RustPython's per-thread type objects; only a fresh-run engine's first run has a thread
/// of its own ([`ThreadRole::FirstRunOnly`]), so each engine leaks them at most twice.
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
        let first = match kind {
            WorkerKind::Fresh => ThreadRole::FirstRunOnly,
            WorkerKind::Session => ThreadRole::Lasting,
        };
        Self::spawn_thread(kind, first, rx)?;
        Ok(tx)
    }

    /// Starts a sandbox thread serving `jobs`. A thread hands `jobs` on to a new thread and ends when
    /// its VM panicked (RustPython's per-thread state, its frame chain and collector lists, is not
    /// unwind-safe, and the next interpreter built on that thread crashed), and after the one run of a
    /// [`ThreadRole::FirstRunOnly`] thread.
    fn spawn_thread(
        kind: WorkerKind,
        role: ThreadRole,
        jobs: mpsc::Receiver<Job>,
    ) -> std::io::Result<()> {
        std::thread::Builder::new()
            .name(SANDBOX_THREAD.into())
            .stack_size(SANDBOX_STACK_BYTES)
            .spawn(move || {
                if let Some(jobs) = serve_jobs(kind, role, jobs) {
                    // If no thread can be started, `jobs` goes and the caller hears the thread is gone.
                    let _ = Self::spawn_thread(kind, ThreadRole::Lasting, jobs);
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

/// What a sandbox thread is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ThreadRole {
    /// The first thread of a fresh-run engine: it serves one run and hands the jobs on. With one
    /// interpreter on the thread, nothing a run does to the types RustPython shares between a thread's
    /// interpreters reaches another run, so it needs no [`Janitor`], whose interpreter would otherwise
    /// be built first: the first run (a CLI's only one) waits for one interpreter instead of two.
    FirstRunOnly,
    /// Serves every job until the engine goes; a fresh-run thread keeps a [`Janitor`].
    Lasting,
}

/// Serves jobs on this sandbox thread until the engine goes (`None`), until the one run of a
/// [`ThreadRole::FirstRunOnly`] thread is over, or until a VM panics: then the receiver is handed back
/// for a new thread, and nothing built on this thread is touched again by a run (after a panic its
/// interpreters are leaked, not finalized: that would run Python code on the damaged thread state).
fn serve_jobs(
    kind: WorkerKind,
    role: ThreadRole,
    jobs: mpsc::Receiver<Job>,
) -> Option<mpsc::Receiver<Job>> {
    let mut session: Option<SessionVm> = None;
    let mut spare: Option<SpareVm> = None;
    let mut janitor = match (kind, role) {
        (WorkerKind::Fresh, ThreadRole::Lasting) => Janitor::new(),
        _ => Janitor::none(),
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
            WorkerKind::Fresh => run_fresh(request, spare.take(), role),
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
        if role == ThreadRole::FirstRunOnly {
            return Some(jobs);
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
/// snippets back to back, short enough not to steal a core from an MCP server's own threads (a longer
/// spin doubled an MCP session run's time on two cores).
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
