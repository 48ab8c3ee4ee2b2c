//! The host side of process isolation: a zygote process per runtime, a small pool of pre-forked,
//! pre-warmed children for fresh runs, and session holders with a standby for rollback.
//!
//! The host owns the stores and the registry: a child's externals arrive here as `Call` frames and are
//! answered by the same [`Dispatcher`] the in-process engine uses. Limits the child cannot enforce on
//! itself are enforced from here: a deadline past the time limit (SIGKILL → `TimeoutError`), and every
//! way a child can die (abort, segfault, out of memory) becomes a structured error.

use std::collections::{HashMap, VecDeque};
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Condvar, Mutex, Weak, mpsc};
use std::time::{Duration, Instant};

use nix::sys::signal::Signal;

use super::TEST_HOOKS_ENV;
use super::jail;
use super::protocol::{
    self, Attachment, EXIT_ABORTED, EXIT_FORBIDDEN_SYSCALL, EXIT_NO_JAIL, EXIT_OUT_OF_MEMORY,
    FromChild, FromZygote, NO_HUGE_PAGES_ENV, PROTOCOL_VERSION, RECURSION_ENV, ToChild, ToZygote,
    WORKER_ENV,
};
use super::{Dispatcher, HeldReply, RunReport, RunRequest, SANDBOX_STACK_BYTES};
use crate::capabilities::HostError;
use crate::execution::ExecutionResult;
use crate::vm::{memory_message, timeout_message};

/// Idle, pre-warmed children kept ready for fresh runs.
const POOL_SIZE: usize = 2;
/// How long the zygote may take to start (build the VM, import, warm up).
const ZYGOTE_START_TIMEOUT: Duration = Duration::from_secs(20);
/// How long a fork request may take.
const FORK_TIMEOUT: Duration = Duration::from_secs(10);
/// How long to wait for the exit status of a child that hung up without a reply.
const EXIT_STATUS_WAIT: Duration = Duration::from_secs(2);
/// Exit statuses kept for lookup (older ones are dropped).
const EXITS_KEPT: usize = 512;

/// The grace past the time limit before the host kills a child that did not stop by itself (a native
/// operation the in-VM interrupt cannot reach): a quarter of the limit, between 0.2 s and 1 s.
fn hard_grace(timeout: Duration) -> Duration {
    (timeout / 4).clamp(Duration::from_millis(200), Duration::from_secs(1))
}

/// Finds the worker executable: `configured`, then `TOOLPLANE_WORKER_EXE` if it names a file, then this
/// executable if it called `worker_main_if_requested`, then `toolplane` on `PATH`. A variable that names
/// no file is an error only for an executable that cannot serve itself: a stale one (this repository's
/// `.cargo/config.toml` names a binary a fresh clone has not built yet) must not stop an application that
/// asks to be its own worker.
pub(crate) fn worker_executable(configured: Option<&Path>) -> Result<PathBuf, String> {
    let named = configured
        .map(|path| (path.to_path_buf(), "[toolplane] worker_path"))
        .or_else(|| {
            std::env::var_os("TOOLPLANE_WORKER_EXE")
                .map(|path| (path.into(), "TOOLPLANE_WORKER_EXE"))
        });
    if let Some((path, _)) = &named
        && path.is_file()
    {
        return Ok(path.clone());
    }
    let serves_itself = configured.is_none() && super::worker::current_exe_is_worker();
    if serves_itself && let Ok(exe) = std::env::current_exe() {
        return Ok(exe);
    }
    if let Some((path, source)) = named {
        return Err(format!(
            "the worker executable {} ({source}) is not a file: point it at a toolplane binary, call \
             toolplane::worker_main_if_requested() at the top of main and leave it unset, or use \
             isolation = \"in-process\"",
            path.display()
        ));
    }
    if let Some(paths) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&paths) {
            let candidate = dir.join("toolplane");
            if candidate.is_file() {
                return Ok(candidate);
            }
        }
    }
    Err("no worker executable for process isolation: set [toolplane] worker_path or TOOLPLANE_WORKER_EXE \
         to a toolplane binary, call toolplane::worker_main_if_requested() at the top of main, or use \
         isolation = \"in-process\""
        .into())
}

/// How a child ended, as the zygote saw it.
#[derive(Debug, Clone, Copy)]
struct ExitStatus {
    code: Option<i32>,
    signal: Option<i32>,
}

/// What the control reader shares with the rest of the engine.
#[derive(Default)]
struct ZygoteState {
    exits: HashMap<i32, ExitStatus>,
    order: VecDeque<i32>,
    dead: bool,
}

/// One running zygote and its pool of idle children.
struct Zygote {
    /// The zygote process (taken when it is stopped).
    process: Mutex<Option<Child>>,
    /// Fork requests are sent under this lock, and their `Forked` answers come back in order.
    control: Mutex<(UnixStream, mpsc::Receiver<i32>)>,
    state: Mutex<ZygoteState>,
    exited: Condvar,
    pool: Mutex<Pool>,
    /// Signalled when the pool gains a child or its refill ends.
    pool_changed: Condvar,
    refill: Mutex<Option<mpsc::Sender<()>>>,
}

/// Idle pre-forked children, and whether a refill is under way.
#[derive(Default)]
struct Pool {
    ready: VecDeque<ChildLine>,
    refilling: bool,
}

/// The host's end of one child.
struct ChildLine {
    pid: i32,
    stream: UnixStream,
}

impl Zygote {
    fn spawn(exe: &Path, recursion_limit: usize) -> Result<Arc<Self>, String> {
        let (host_end, zygote_end) =
            UnixStream::pair().map_err(|e| format!("socketpair failed: {e}"))?;
        let mut command = Command::new(exe);
        command
            .env_clear()
            .env(WORKER_ENV, "zygote")
            // Snippets see UTC as local time, whatever the host's zone (docs/sandbox.md).
            .env("TZ", "UTC")
            .env(RECURSION_ENV, recursion_limit.to_string())
            .envs(std::env::var_os(NO_HUGE_PAGES_ENV).map(|v| (NO_HUGE_PAGES_ENV, v)))
            .envs(
                std::env::var_os(TEST_HOOKS_ENV)
                    .or_else(|| crate::vm::panic_probe_enabled().then(|| "1".into()))
                    .map(|v| (TEST_HOOKS_ENV, v)),
            )
            .stdin(Stdio::from(OwnedFd::from(zygote_end)))
            .stdout(Stdio::null())
            .stderr(if std::env::var_os("TOOLPLANE_WORKER_DEBUG").is_some() {
                Stdio::inherit()
            } else {
                Stdio::null()
            });
        // SAFETY: pre_exec runs between fork and exec; setrlimit is async-signal-safe. The main thread's
        // stack grows up to RLIMIT_STACK, and the VM runs on it: give it the sandbox thread's size.
        unsafe {
            command.pre_exec(|| {
                let stack = libc::rlimit {
                    rlim_cur: SANDBOX_STACK_BYTES as u64,
                    rlim_max: libc::RLIM_INFINITY,
                };
                libc::setrlimit(libc::RLIMIT_STACK, &stack);
                Ok(())
            });
        }
        let mut process = command
            .spawn()
            .map_err(|e| format!("could not start the worker {}: {e}", exe.display()))?;
        // Ask for the first child at once: the zygote serves it before its idle-time warm-up, so a
        // one-run process (the CLI) does not wait for imports it may never use.
        let (first_host, first_child) =
            UnixStream::pair().map_err(|e| format!("socketpair failed: {e}"))?;
        protocol::send(
            &host_end,
            &ToZygote::Fork {
                session: false,
                waiting: true,
            },
            Some(first_child.as_raw_fd()),
        )
        .map_err(|e| format!("could not reach the worker {}: {e}", exe.display()))?;
        drop(first_child);
        host_end
            .set_read_timeout(Some(ZYGOTE_START_TIMEOUT))
            .map_err(|e| e.to_string())?;
        let hello = protocol::recv::<FromZygote>(&host_end);
        match hello {
            Ok((FromZygote::Hello { protocol, .. }, _)) if protocol == PROTOCOL_VERSION => {}
            Ok((FromZygote::Hello { protocol, version }, _)) => {
                let _ = process.kill();
                let _ = process.wait();
                return Err(format!(
                    "the worker {} is toolplane {version} (protocol {protocol}); this host needs protocol \
                     {PROTOCOL_VERSION}: point worker_path at a matching toolplane binary",
                    exe.display()
                ));
            }
            _ => {
                let _ = process.kill();
                let _ = process.wait();
                return Err(format!(
                    "{} did not start as a toolplane worker (is it a toolplane binary, or an application \
                     that calls toolplane::worker_main_if_requested() first thing in main?)",
                    exe.display()
                ));
            }
        }
        let first = match protocol::recv::<FromZygote>(&host_end) {
            Ok((FromZygote::Forked { pid }, _)) => Some(ChildLine {
                pid,
                stream: first_host,
            }),
            _ => None,
        };
        host_end.set_read_timeout(None).map_err(|e| e.to_string())?;
        let reader = host_end.try_clone().map_err(|e| e.to_string())?;
        let (forked_tx, forked_rx) = mpsc::channel();
        let zygote = Arc::new(Self {
            process: Mutex::new(Some(process)),
            control: Mutex::new((host_end, forked_rx)),
            state: Mutex::new(ZygoteState::default()),
            exited: Condvar::new(),
            pool: Mutex::new(Pool {
                ready: first.into_iter().collect(),
                refilling: false,
            }),
            pool_changed: Condvar::new(),
            refill: Mutex::new(None),
        });
        let weak = Arc::downgrade(&zygote);
        std::thread::Builder::new()
            .name("toolplane-zygote-reader".into())
            .spawn(move || read_control(reader, forked_tx, weak))
            .map_err(|e| e.to_string())?;
        let (refill_tx, refill_rx) = mpsc::channel();
        *lock(&zygote.refill) = Some(refill_tx.clone());
        let weak = Arc::downgrade(&zygote);
        std::thread::Builder::new()
            .name("toolplane-pool".into())
            .spawn(move || keep_pool_filled(weak, refill_rx))
            .map_err(|e| e.to_string())?;
        Ok(zygote)
    }

    fn is_dead(&self) -> bool {
        lock(&self.state).dead
    }

    /// Asks the zygote for a child serving a new socket; `waiting`: a run waits for it.
    fn fork(&self, session: bool, waiting: bool) -> io::Result<ChildLine> {
        let (host_end, child_end) = UnixStream::pair()?;
        let control = lock(&self.control);
        protocol::send(
            &control.0,
            &ToZygote::Fork { session, waiting },
            Some(child_end.as_raw_fd()),
        )?;
        drop(child_end);
        let pid = control
            .1
            .recv_timeout(FORK_TIMEOUT)
            .map_err(|_| io::Error::other("the zygote did not fork"))?;
        Ok(ChildLine {
            pid,
            stream: host_end,
        })
    }

    /// An idle pre-warmed child, or a new one. While a refill is under way its next child is taken
    /// rather than a fork of our own: that request would queue behind the refill's, and a run waiting
    /// back to back would wait for two forks.
    fn take_fresh_child(&self) -> io::Result<ChildLine> {
        let deadline = Instant::now() + FORK_TIMEOUT;
        let mut pool = lock(&self.pool);
        loop {
            if let Some(line) = pool.ready.pop_front() {
                return Ok(line);
            }
            let now = Instant::now();
            if !pool.refilling || now >= deadline || self.is_dead() {
                break;
            }
            pool = self
                .pool_changed
                .wait_timeout(pool, deadline - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        drop(pool);
        self.fork(false, true)
    }

    /// Tops the pool up in the background (called after a run, so refills never compete with one).
    fn refill_pool(&self) {
        if let Some(tx) = lock(&self.refill).as_ref() {
            lock(&self.pool).refilling = true;
            if tx.send(()).is_err() {
                lock(&self.pool).refilling = false;
            }
        }
    }

    /// The exit status of `pid`, waiting up to `wait` for the zygote to report it.
    fn exit_status(&self, pid: i32, wait: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + wait;
        let mut state = lock(&self.state);
        loop {
            if let Some(status) = state.exits.get(&pid) {
                return Some(*status);
            }
            let now = Instant::now();
            if state.dead || now >= deadline {
                return None;
            }
            state = self
                .exited
                .wait_timeout(state, deadline - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

impl Zygote {
    /// Kills the zygote now; the children it forked that are still serving die with it (they asked
    /// the kernel for that: `PR_SET_PDEATHSIG`).
    fn stop(&self) {
        let Some(mut process) = lock(&self.process).take() else {
            return;
        };
        lock(&self.state).dead = true;
        let _ = process.kill();
        let _ = process.wait();
    }
}

impl Drop for Zygote {
    fn drop(&mut self) {
        let Some(mut process) = lock(&self.process).take() else {
            return;
        };
        let _ = process.kill();
        // Reaping waits for the zygote's exit teardown (about a millisecond): do it off the caller's
        // path. If the host exits first, init reaps it.
        let _ = std::thread::Builder::new()
            .name("toolplane-reaper".into())
            .spawn(move || process.wait());
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

fn read_control(reader: UnixStream, forked: mpsc::Sender<i32>, zygote: Weak<Zygote>) {
    loop {
        let message = protocol::recv::<FromZygote>(&reader);
        let Some(zygote) = zygote.upgrade() else {
            return;
        };
        match message {
            Ok((FromZygote::Forked { pid }, _)) => {
                let _ = forked.send(pid);
            }
            Ok((FromZygote::Exited { pid, code, signal }, _)) => {
                let mut state = lock(&zygote.state);
                state.exits.insert(pid, ExitStatus { code, signal });
                state.order.push_back(pid);
                while state.order.len() > EXITS_KEPT {
                    if let Some(old) = state.order.pop_front() {
                        state.exits.remove(&old);
                    }
                }
                zygote.exited.notify_all();
            }
            Ok((FromZygote::Hello { .. }, _)) => {}
            Err(_) => {
                lock(&zygote.state).dead = true;
                zygote.exited.notify_all();
                return;
            }
        }
    }
}

fn keep_pool_filled(zygote: Weak<Zygote>, wake: mpsc::Receiver<()>) {
    while wake.recv().is_ok() {
        let Some(zygote) = zygote.upgrade() else {
            return;
        };
        loop {
            if zygote.is_dead() || lock(&zygote.pool).ready.len() >= POOL_SIZE {
                break;
            }
            match zygote.fork(false, false) {
                Ok(line) => {
                    lock(&zygote.pool).ready.push_back(line);
                    zygote.pool_changed.notify_one();
                }
                Err(_) => break,
            }
        }
        lock(&zygote.pool).refilling = false;
        zygote.pool_changed.notify_all();
    }
}

/// The zygotes of one `Workers`: one per worker executable and recursion limit (the limit an
/// interpreter is built with), each started on first use and restarted if it dies.
#[derive(Default)]
pub(crate) struct ZygoteHandle {
    zygotes: Mutex<Vec<ZygoteSlot>>,
}

struct ZygoteSlot {
    exe: PathBuf,
    recursion_limit: usize,
    zygote: Arc<Zygote>,
}

impl std::fmt::Debug for ZygoteHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ZygoteHandle")
    }
}

impl ZygoteHandle {
    /// Stops every zygote, and the children serving runs; the next run starts a new one.
    pub(crate) fn stop(&self) {
        let stopped = std::mem::take(&mut *lock(&self.zygotes));
        for slot in stopped {
            slot.zygote.stop();
        }
    }

    fn get(&self, exe: &Path, recursion_limit: usize) -> Result<Arc<Zygote>, String> {
        let mut zygotes = lock(&self.zygotes);
        zygotes.retain(|slot| !slot.zygote.is_dead());
        if let Some(slot) = zygotes
            .iter()
            .find(|slot| slot.exe == exe && slot.recursion_limit == recursion_limit)
        {
            return Ok(slot.zygote.clone());
        }
        let zygote = Zygote::spawn(exe, recursion_limit)?;
        zygotes.push(ZygoteSlot {
            exe: exe.to_path_buf(),
            recursion_limit,
            zygote: zygote.clone(),
        });
        Ok(zygote)
    }
}

/// A session's processes: the holder serving runs and the standby to roll back to.
struct SessionLines {
    holder: ChildLine,
    standby: Option<ChildLine>,
    zygote: Arc<Zygote>,
}

/// Runs snippets in worker processes: each fresh run in a child of the zygote, or all runs of one
/// session in a holder process.
pub(crate) struct ProcessEngine {
    zygote: Arc<ZygoteHandle>,
    exe: PathBuf,
    recursion_limit: usize,
    /// `Some` for a session engine: its processes, once started.
    session: Option<Mutex<Option<SessionLines>>>,
}

impl std::fmt::Debug for ProcessEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProcessEngine")
            .field("exe", &self.exe)
            .field("session", &self.session.is_some())
            .finish()
    }
}

/// How driving a run over a line ended.
enum Drive {
    Done(Box<RunReport>),
    /// The hard deadline passed; the child was killed.
    Killed,
    /// The line broke without a reply: the child died.
    Died(io::Error),
    /// The child made a system call its jail forbids (this number), and ended.
    Forbidden(i64),
    /// The run was cancelled; the child was killed.
    Cancelled,
}

fn is_timeout(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
    )
}

/// Closes a run's writer for late (async) replies when the run's drive ends, however it ends.
struct CloseOnDrop(Arc<Mutex<Option<UnixStream>>>);

impl Drop for CloseOnDrop {
    fn drop(&mut self) {
        *lock(&self.0) = None;
    }
}

/// How long the host polls for a snippet's next tool call after answering one, before it sleeps.
const NEXT_CALL_SPIN: Duration = Duration::from_micros(50);

/// Appended to the error of a session run that was rolled back.
const ROLLED_BACK: &str = " The session's variables were rolled back to their state before this run; \
                           saved results, artifacts and tool calls made before it stopped stand.";
/// Appended instead when there was no standby to roll back to.
const RESET_INSTEAD: &str = " The session could not be rolled back and was reset: the next run starts \
                             on a fresh namespace; saved results and artifacts stand.";

impl ProcessEngine {
    /// An engine for fresh runs, sharing `zygote` with the runtime's other engines.
    pub(crate) fn fresh(zygote: Arc<ZygoteHandle>, exe: PathBuf, recursion_limit: usize) -> Self {
        Self {
            zygote,
            exe,
            recursion_limit,
            session: None,
        }
    }

    /// An engine for one session.
    pub(crate) fn session(zygote: Arc<ZygoteHandle>, exe: PathBuf, recursion_limit: usize) -> Self {
        Self {
            zygote,
            exe,
            recursion_limit,
            session: Some(Mutex::new(None)),
        }
    }

    /// Drops the session's processes: the next run starts on a fresh namespace.
    pub(crate) fn reset_session(&self) {
        if let Some(session) = &self.session {
            *lock(session) = None;
        }
    }

    /// Starts the zygote now rather than on the first run.
    pub(crate) fn prestart(&self) -> Result<(), String> {
        self.zygote.get(&self.exe, self.recursion_limit).map(|_| ())
    }

    pub(crate) fn run(&self, request: RunRequest) -> RunReport {
        let started = Instant::now();
        let zygote = match self.zygote.get(&self.exe, self.recursion_limit) {
            Ok(zygote) => zygote,
            Err(text) => return super::start_failure(&text),
        };
        let mut dispatcher = Dispatcher::new(request.bridge.clone(), &request.spec.limits);
        let mut result = match &self.session {
            None => run_fresh(&zygote, &request, &mut dispatcher),
            Some(session) => run_session(&zygote, &mut lock(session), &request, &mut dispatcher),
        };
        // Results the host made up (a kill, a crash) have no duration of the child's.
        if result.duration_ms == 0.0 {
            result.duration_ms = started.elapsed().as_secs_f64() * 1000.0;
        }
        let mut report = RunReport::of(result);
        report.saved_artifacts = dispatcher.into_saved_artifacts();
        report
    }
}

fn run_fresh(
    zygote: &Arc<Zygote>,
    request: &RunRequest,
    dispatcher: &mut Dispatcher,
) -> ExecutionResult {
    let line = match zygote.take_fresh_child() {
        Ok(line) => line,
        Err(e) => return super::start_failure(&format!("no sandbox process: {e}")).result,
    };
    let outcome = drive(&line, request, dispatcher, &mut |_, _| {});
    zygote.refill_pool();
    match outcome {
        Drive::Done(report) => report.result,
        other => host_result(other, zygote, &line, request, false),
    }
}

fn run_session(
    zygote: &Arc<Zygote>,
    slot: &mut Option<SessionLines>,
    request: &RunRequest,
    dispatcher: &mut Dispatcher,
) -> ExecutionResult {
    if slot
        .as_ref()
        .is_some_and(|lines| !Arc::ptr_eq(&lines.zygote, zygote))
    {
        // The zygote was restarted: the old session's processes are gone with it.
        *slot = None;
    }
    let lines = match slot {
        Some(lines) => lines,
        None => match zygote.fork(true, true) {
            Ok(holder) => slot.insert(SessionLines {
                holder,
                standby: None,
                zygote: zygote.clone(),
            }),
            Err(e) => {
                return super::start_failure(&format!("no session process: {e}")).result;
            }
        },
    };
    let mut standby = None;
    let outcome = drive(&lines.holder, request, dispatcher, &mut |pid, fd| {
        standby = Some(ChildLine {
            pid,
            stream: UnixStream::from(fd),
        })
    });
    if standby.is_some() {
        lines.standby = standby;
    }
    let mut result = match outcome {
        Drive::Done(report) => {
            if report.reset_requested {
                *slot = None;
            }
            let mut result = report.result;
            if !report.limit_hit {
                return result;
            }
            if let Some(error) = result.error.as_mut()
                && error.error_type == "TimeoutError"
            {
                // The VM's text says the state may be partial; here it is rolled back instead.
                error.message =
                    timeout_message(request.spec.limits.timeout, request.spec.results_enabled);
            }
            result
        }
        other => host_result(other, zygote, &lines.holder, request, true),
    };
    // A limit or a crash: back to the state before the run.
    let note = if roll_back(slot) {
        ROLLED_BACK
    } else {
        RESET_INSTEAD
    };
    if let Some(error) = result.error.as_mut() {
        // The note is a sentence of its own.
        if !error.message.ends_with(['.', '!', '?']) {
            error.message.push('.');
        }
        error.message.push_str(note);
    }
    result
}

/// Kills the session's holder and promotes its standby; `false` (and no session) if there is none.
fn roll_back(slot: &mut Option<SessionLines>) -> bool {
    let Some(lines) = slot.take() else {
        return false;
    };
    kill(lines.holder.pid);
    let Some(standby) = lines.standby else {
        return false;
    };
    if protocol::send(&standby.stream, &ToChild::Promote, None).is_err() {
        return false;
    }
    *slot = Some(SessionLines {
        holder: standby,
        standby: None,
        zygote: lines.zygote,
    });
    true
}

fn kill(pid: i32) {
    if pid > 0 {
        // SAFETY: kill(2) of a child of our zygote; it is not reaped until the zygote sees it exit.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
}

/// The result the host reports for a run the child did not finish: killed at the deadline, or dead.
/// `session`: the child was a session holder (its memory cap is the session's).
fn host_result(
    outcome: Drive,
    zygote: &Zygote,
    line: &ChildLine,
    request: &RunRequest,
    session: bool,
) -> ExecutionResult {
    let limits = &request.spec.limits;
    let stand = "host-side effects of this run (saved results, artifacts, tool calls) stand";
    let (error_type, message) = match outcome {
        Drive::Done(report) => return report.result,
        Drive::Killed => (
            "TimeoutError",
            timeout_message(limits.timeout, request.spec.results_enabled),
        ),
        Drive::Cancelled => (
            crate::cancel::CANCELLED_ERROR,
            format!(
                "{}; the sandbox process was stopped; {stand}",
                crate::cancel::CANCELLED_MESSAGE
            ),
        ),
        Drive::Forbidden(call) => (
            "SandboxCrashedError",
            format!(
                "the sandbox process made a forbidden system call ({}) and was stopped by its jail; the \
                 host is unaffected; {stand}",
                jail::syscall_name(call)
            ),
        ),
        Drive::Died(e) => match zygote.exit_status(line.pid, EXIT_STATUS_WAIT) {
            Some(ExitStatus {
                code: Some(EXIT_OUT_OF_MEMORY),
                ..
            }) => (
                "MemoryError",
                format!(
                    "{}; the sandbox process was stopped there; {stand}",
                    memory_message(limits.max_memory_mb, session)
                ),
            ),
            Some(ExitStatus {
                code: Some(EXIT_NO_JAIL),
                ..
            }) => (
                "SandboxError",
                "the sandbox process could not enter its jail (seccomp filter or capability drop \
                 refused; `toolplane doctor` checks this machine), so it ran nothing"
                    .into(),
            ),
            Some(ExitStatus {
                code: Some(EXIT_FORBIDDEN_SYSCALL),
                ..
            }) => (
                "SandboxCrashedError",
                format!(
                    "the sandbox process made a forbidden system call and was stopped by its jail; the \
                     host is unaffected; {stand}"
                ),
            ),
            Some(ExitStatus { signal, code }) if signal.is_some() || code == Some(EXIT_ABORTED) => {
                let signal = signal.unwrap_or(libc::SIGABRT);
                (
                    "SandboxCrashedError",
                    format!(
                        "the sandbox process was killed by signal {signal} ({}); the host is unaffected; {stand}",
                        Signal::try_from(signal).map_or("unknown signal", Signal::as_str)
                    ),
                )
            }
            Some(ExitStatus { code, .. }) => (
                "SandboxCrashedError",
                format!(
                    "the sandbox process exited (status {}) without finishing the run; {stand}",
                    code.unwrap_or(-1)
                ),
            ),
            None => (
                "SandboxCrashedError",
                format!("the connection to the sandbox process broke ({e}); {stand}"),
            ),
        },
    };
    ExecutionResult::failed(error_type, message, 0.0)
}

/// Where async tools leave their replies for the child: a thread of the run's own writes them, so a
/// child that does not read (it never awaits them) blocks that thread, never the workers of the
/// tools' runtime, which serve every other run's calls. The thread ends when the last sender goes.
type LateReplies = mpsc::Sender<(u64, Result<String, HostError>, HeldReply)>;

/// Starts the run's late-reply writer on a clone of `stream`, which `writer` holds until the run ends.
fn start_late_replies(
    stream: &UnixStream,
    writer: &Arc<Mutex<Option<UnixStream>>>,
) -> io::Result<LateReplies> {
    *lock(writer) = Some(stream.try_clone()?);
    let (queue, replies) = mpsc::channel::<(u64, Result<String, HostError>, HeldReply)>();
    let writer = writer.clone();
    std::thread::Builder::new()
        .name("toolplane-late-replies".into())
        .spawn(move || {
            for (ticket, reply, held) in replies {
                // Closed when the run is over: a late answer must not reach the next run of a
                // session.
                if let Some(stream) = lock(&writer).as_ref() {
                    let reply = reply.map(Attachment::new);
                    let _ = protocol::send(stream, &ToChild::Reply { ticket, reply }, None);
                }
                drop(held);
            }
        })?;
    Ok(queue)
}

/// Sends the run to the child on `line` and serves its calls until it is done, dies, or outlives the
/// hard deadline. `on_standby` receives a session holder's standby lines as they arrive.
fn drive(
    line: &ChildLine,
    request: &RunRequest,
    dispatcher: &mut Dispatcher,
    on_standby: &mut dyn FnMut(i32, OwnedFd),
) -> Drive {
    // Killing the child ends the loop below at once: its line breaks.
    let _kill_on_cancel = {
        let pid = line.pid;
        request.cancel.arm(move || kill(pid))
    };
    match drive_until_done(line, request, dispatcher, on_standby) {
        Drive::Done(report) => Drive::Done(report),
        _ if request.cancel.is_cancelled() => Drive::Cancelled,
        other => other,
    }
}

fn drive_until_done(
    line: &ChildLine,
    request: &RunRequest,
    dispatcher: &mut Dispatcher,
    on_standby: &mut dyn FnMut(i32, OwnedFd),
) -> Drive {
    let limits = &request.spec.limits;
    let deadline = Instant::now() + limits.timeout + hard_grace(limits.timeout);
    let mut answered_call = false;
    // Async tools answer from their runtime's threads: through this writer, which the loop's own
    // replies share so frames never interleave, and which is closed when the run ends (a late answer
    // must not reach the next run of a session).
    let late_writer: Arc<Mutex<Option<UnixStream>>> = Arc::new(Mutex::new(None));
    let _close_late_writer = CloseOnDrop(late_writer.clone());
    let mut late_queue: Option<LateReplies> = None;
    if let Err(e) = protocol::send(
        &line.stream,
        &ToChild::Run(Box::new(request.spec.clone())),
        None,
    ) {
        return Drive::Died(e);
    }
    loop {
        let now = Instant::now();
        if now >= deadline {
            kill(line.pid);
            return Drive::Killed;
        }
        let _ = line.stream.set_read_timeout(Some(deadline - now));
        // Sends are bounded by the deadline too: a child that stops reading (it is busy sending calls
        // it never awaits) must not hang the host.
        let _ = line.stream.set_write_timeout(Some(deadline - now));
        if answered_call {
            // A snippet calling a tool in a loop makes its next call within microseconds.
            protocol::spin_until_readable(&line.stream, NEXT_CALL_SPIN);
        }
        answered_call = false;
        match protocol::recv::<FromChild>(&line.stream) {
            Ok((
                FromChild::Call {
                    ticket,
                    name,
                    params,
                },
                _,
            )) => {
                if late_queue.is_none() {
                    match start_late_replies(&line.stream, &late_writer) {
                        Ok(queue) => late_queue = Some(queue),
                        Err(e) => return Drive::Died(e),
                    }
                }
                let late = late_queue.clone().expect("started above");
                let params = params.into_text();
                let answered = dispatcher.submit(&name, &params, move |reply, held| {
                    let _ = late.send((ticket, reply, held));
                });
                if let Some(reply) = answered {
                    let reply = reply.map(Attachment::new);
                    let guard = lock(&late_writer);
                    let sent =
                        protocol::send(&line.stream, &ToChild::Reply { ticket, reply }, None);
                    drop(guard);
                    match sent {
                        Err(e) if is_timeout(&e) => {
                            kill(line.pid);
                            return Drive::Killed;
                        }
                        // The child may be gone after finishing: calls it never awaited are still
                        // queued ahead of its Done. Keep reading; a broken line shows there.
                        Err(_) | Ok(()) => {}
                    }
                    answered_call = true;
                }
            }
            Ok((FromChild::Done(report), _)) => return Drive::Done(report),
            Ok((FromChild::Standby { pid }, Some(fd))) => on_standby(pid, fd),
            Ok((FromChild::Standby { .. }, None)) => {}
            Ok((FromChild::Forbidden { syscall }, _)) => {
                kill(line.pid);
                return Drive::Forbidden(syscall);
            }
            Err(e) if is_timeout(&e) => {
                kill(line.pid);
                return Drive::Killed;
            }
            Err(e) => return Drive::Died(e),
        }
    }
}
