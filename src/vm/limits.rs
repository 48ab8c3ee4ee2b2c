//! Time limits inside the VM: a watchdog thread and a sticky interrupt.
//!
//! The VM checks for interrupts (its user-signal channel) where CPython checks its eval breaker: on every
//! backward jump and at every `RESUME` (a frame's entry, a generator's resumption), which any run that does
//! not end passes again and again. The interrupt re-queues itself each time it fires, so a snippet that
//! catches `BaseException` in a loop is interrupted again at its next check, until the run is over. The eval-breaker flag is process-global, so another VM
//! can consume our wake-up; the watchdog therefore re-sends every few milliseconds past the deadline.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rustpython_vm::VirtualMachine;
use rustpython_vm::builtins::PyBaseExceptionRef;
use rustpython_vm::signal::{UserSignal, UserSignalSender};

/// Set by [`request_interrupt`]; the watchdog of the running VM turns it into a `KeyboardInterrupt`.
static INTERRUPT: AtomicBool = AtomicBool::new(false);

/// Interrupts the snippets running in this process: each ends with `KeyboardInterrupt` within ~10 ms
/// (at its next instruction). Only an atomic store, so it is safe to call from a signal handler — a
/// REPL's SIGINT handler, or a worker's. A request made while nothing runs is dropped when the next run
/// starts.
///
/// ```
/// toolplane::sandbox::request_interrupt(); // nothing runs: no effect on later runs
/// let runtime = toolplane::Toolplane::new(Default::default()).unwrap();
/// assert!(runtime.execute("return 1", None).unwrap().ok());
/// ```
pub fn request_interrupt() {
    INTERRUPT.store(true, Ordering::SeqCst);
}

/// Flags one run shares with its watchdog.
#[derive(Debug)]
pub(crate) struct RunFlags {
    timeout: Duration,
    deadline: Instant,
    finished: AtomicBool,
    timed_out: AtomicBool,
    interrupted: AtomicBool,
    /// Its caller cancelled it ([`crate::CancelToken`]).
    cancelled: AtomicBool,
    pub(crate) memory: Arc<super::memory::MemoryAccount>,
    memory_limit_mb: usize,
    /// The account is a session's, cumulative over its runs.
    session: bool,
    /// The run may save results (its timeout message then suggests saving partial ones).
    results_enabled: bool,
}

impl RunFlags {
    /// Flags of a run held to `timeout` and `memory_limit_mb`, charged to `session_account` (a session's
    /// cumulative account) or to a new account of its own.
    pub(crate) fn new(
        timeout: Duration,
        memory_limit_mb: usize,
        session_account: Option<Arc<super::memory::MemoryAccount>>,
    ) -> Self {
        let limit_bytes = memory_limit_mb.saturating_mul(1 << 20);
        let session = session_account.is_some();
        let memory = session_account
            .unwrap_or_else(|| Arc::new(super::memory::MemoryAccount::new(limit_bytes)));
        memory.begin_run(limit_bytes);
        Self {
            timeout,
            deadline: Instant::now() + timeout,
            finished: AtomicBool::new(false),
            timed_out: AtomicBool::new(false),
            interrupted: AtomicBool::new(false),
            cancelled: AtomicBool::new(false),
            memory,
            memory_limit_mb,
            session,
            results_enabled: true,
        }
    }

    /// The same flags for a run whose result store is `on` or off.
    pub(crate) fn with_results_enabled(mut self, on: bool) -> Self {
        self.results_enabled = on;
        self
    }

    pub(crate) fn memory_exceeded(&self) -> bool {
        self.memory.exceeded()
    }

    pub(crate) fn memory_message(&self) -> String {
        memory_message(self.memory_limit_mb, self.session)
    }

    /// Stops the run at its next instruction, as its time limit would (the watchdog sees it within a
    /// tick).
    pub(crate) fn cancel(&self) {
        self.cancelled.store(true, Ordering::SeqCst);
    }

    pub(crate) fn cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst)
    }

    /// The exception for whichever limit tripped (a cancel wins, then time), or the interrupt. A
    /// cancel is a `KeyboardInterrupt` inside the run, which `except Exception` does not catch; the
    /// run's result then says `CancelledError`.
    pub(crate) fn limit_exception(&self, vm: &VirtualMachine) -> PyBaseExceptionRef {
        if self.cancelled() {
            vm.new_exception_msg(
                vm.ctx.exceptions.keyboard_interrupt.to_owned(),
                crate::cancel::CANCELLED_MESSAGE.into(),
            )
        } else if self.timed_out() {
            self.timeout_exception(vm)
        } else if !self.memory_exceeded() && self.interrupted.load(Ordering::SeqCst) {
            vm.new_exception_msg(
                vm.ctx.exceptions.keyboard_interrupt.to_owned(),
                "interrupted".into(),
            )
        } else {
            vm.new_exception_msg(
                vm.ctx.exceptions.memory_error.to_owned(),
                self.memory_message().into(),
            )
        }
    }

    pub(crate) fn timed_out(&self) -> bool {
        self.timed_out.load(Ordering::SeqCst)
    }

    pub(crate) fn finished(&self) -> bool {
        self.finished.load(Ordering::SeqCst)
    }

    /// Marks the run over: pending interrupts become no-ops.
    pub(crate) fn finish(&self) {
        self.finished.store(true, Ordering::SeqCst);
    }

    pub(crate) fn timeout_message(&self) -> String {
        timeout_message(self.timeout, self.results_enabled)
    }

    pub(crate) fn timeout_exception(&self, vm: &VirtualMachine) -> PyBaseExceptionRef {
        vm.new_exception_msg(
            vm.ctx.exceptions.timeout_error.to_owned(),
            self.timeout_message().into(),
        )
    }
}

/// The message of the time limit, wherever it is enforced (in the VM, or by the host's kill). Where
/// the result store is off (MCP over HTTP) it does not suggest saving partial results.
pub(crate) fn timeout_message(timeout: Duration, results_enabled: bool) -> String {
    let seconds = format_seconds(timeout.as_secs_f64());
    if results_enabled {
        format!(
            "execution timed out after {seconds}s ([limits] timeout_seconds); make the snippet do less per \
             run, or save partial results with save_result and continue in another run"
        )
    } else {
        format!(
            "execution timed out after {seconds}s ([limits] timeout_seconds); make the snippet do less per \
             run, or split the work over several runs"
        )
    }
}

/// The message of the memory limit: a run's own, or a session's cumulative cap.
pub(crate) fn memory_message(limit_mb: usize, session: bool) -> String {
    if session {
        return format!(
            "the session holds more than its memory cap of {limit_mb} MiB ([session] max_memory_mb, cumulative \
             over its runs); del large variables or call reset_session(), and save_result what you need first"
        );
    }
    format!(
        "the run used more than its memory limit of {limit_mb} MiB ([limits] max_memory_mb); work on smaller \
         pieces (save_result them as you go) or raise the limit"
    )
}

/// Seconds as Python's `%g` would show them (`30`, `0.5`).
pub(crate) fn format_seconds(seconds: f64) -> String {
    if seconds.fract() == 0.0 && seconds.abs() < 1e15 {
        format!("{}", seconds as i64)
    } else {
        format!("{seconds}")
    }
}

fn sticky_interrupt(tx: UserSignalSender, flags: Arc<RunFlags>) -> UserSignal {
    Box::new(move |vm: &VirtualMachine| {
        if flags.finished() {
            return Ok(());
        }
        // Re-arm first, so an `except BaseException:` handler is interrupted at its next instruction.
        let _ = tx.send(sticky_interrupt(tx.clone(), flags.clone()));
        Err(flags.limit_exception(vm))
    })
}

/// What a thread's watchdog service shares with its thread.
#[derive(Default)]
struct Slot {
    /// The run being watched, and the channel to interrupt its VM.
    run: Option<(Arc<RunFlags>, UserSignalSender)>,
    /// The thread is waiting without a timeout: a new run must wake it.
    idle: bool,
    stop: bool,
}

type Shared = Arc<(Mutex<Slot>, Condvar)>;

/// One watchdog thread per VM thread, kept across runs: starting a thread per run cost more than the
/// run itself (a session run is a fraction of a millisecond).
struct Service {
    shared: Shared,
    thread: Option<JoinHandle<()>>,
    /// The process that started the thread. After a fork the thread is gone; the copy is abandoned.
    pid: u32,
}

thread_local! {
    static SERVICE: std::cell::RefCell<Option<Service>> = const { std::cell::RefCell::new(None) };
}

fn service() -> Option<Shared> {
    SERVICE.with(|cell| {
        let mut cell = cell.borrow_mut();
        if cell.as_ref().is_some_and(|s| s.pid != std::process::id()) {
            // Forked from the process that owns the thread: neither touch nor drop its state.
            std::mem::forget(cell.take());
        }
        if cell.is_none() {
            let shared: Shared = Arc::default();
            let thread = {
                let shared = shared.clone();
                std::thread::Builder::new()
                    .name("toolplane-watchdog".into())
                    .spawn(move || serve(&shared))
                    .ok()?
            };
            *cell = Some(Service {
                shared,
                thread: Some(thread),
                pid: std::process::id(),
            });
        }
        cell.as_ref().map(|s| s.shared.clone())
    })
}

impl Drop for Service {
    fn drop(&mut self) {
        let (lock, cvar) = &*self.shared;
        lock.lock().unwrap_or_else(|e| e.into_inner()).stop = true;
        cvar.notify_all();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Stops this thread's watchdog service, if it has one: a zygote must be single-threaded when it forks.
pub(crate) fn stop_watchdog() {
    if let Some(service) = SERVICE.with(|cell| cell.borrow_mut().take()) {
        if service.pid == std::process::id() {
            drop(service);
        } else {
            std::mem::forget(service);
        }
    }
}

/// How often the watchdog looks at the memory account before the deadline.
const MEMORY_POLL: Duration = Duration::from_millis(10);
/// How often it re-sends the interrupt past the limit, until the run is over.
const INTERRUPT_RESEND: Duration = Duration::from_millis(5);

fn serve(shared: &Shared) {
    let (lock, cvar) = &**shared;
    let mut slot = lock.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        if slot.stop {
            return;
        }
        let Some((flags, tx)) = slot.run.clone() else {
            slot.idle = true;
            slot = cvar.wait(slot).unwrap_or_else(|e| e.into_inner());
            slot.idle = false;
            continue;
        };
        let now = Instant::now();
        if !flags.timed_out() && now >= flags.deadline {
            flags.timed_out.store(true, Ordering::SeqCst);
        }
        if INTERRUPT.swap(false, Ordering::SeqCst) {
            flags.interrupted.store(true, Ordering::SeqCst);
        }
        let pause = if flags.timed_out()
            || flags.cancelled()
            || flags.memory_exceeded()
            || flags.interrupted.load(Ordering::SeqCst)
        {
            let _ = tx.send(sticky_interrupt(tx.clone(), flags.clone()));
            INTERRUPT_RESEND
        } else {
            (flags.deadline - now).min(MEMORY_POLL)
        };
        slot = cvar
            .wait_timeout(slot, pause)
            .unwrap_or_else(|e| e.into_inner())
            .0;
    }
}

/// The watchdog of one run; dropping it ends the watch (the service thread stays for the next run).
pub(crate) struct Watchdog {
    flags: Arc<RunFlags>,
    shared: Option<Shared>,
}

impl Watchdog {
    /// Starts watching: past the deadline (or over the memory budget), the run is interrupted at its
    /// next instruction, again and again, until it finishes.
    pub(crate) fn start(flags: Arc<RunFlags>, tx: UserSignalSender) -> Self {
        // An interrupt asked for while nothing ran is not this run's.
        INTERRUPT.store(false, Ordering::SeqCst);
        let shared = service();
        if let Some(shared) = &shared {
            let (lock, cvar) = &**shared;
            let mut slot = lock.lock().unwrap_or_else(|e| e.into_inner());
            slot.run = Some((flags.clone(), tx));
            if slot.idle {
                cvar.notify_one();
            }
        }
        Self { flags, shared }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.flags.finish();
        if let Some(shared) = &self.shared {
            let mut slot = shared.0.lock().unwrap_or_else(|e| e.into_inner());
            slot.run = None;
            // No wake-up: the thread sees the change at its next tick and goes idle.
        }
    }
}
