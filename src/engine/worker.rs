//! The worker side of process isolation: the zygote and the children it forks.
//!
//! The zygote is this executable started with `TOOLPLANE_WORKER=zygote` and a control socket on its
//! stdin. It builds one interpreter, imports the costly stdlib modules, runs a trusted warm-up, and then
//! only forks: each child is a copy of that pristine state (so provably fresh), serves one fresh run (or
//! one session) over its own socket, and exits — its leaks die with it. The zygote stays single-threaded
//! at every fork, never runs a snippet, and reports the exit status of every process of its tree to the
//! host (it is their subreaper).
//!
//! A session child ("holder") keeps its namespace across runs. After each committed run it forks a
//! *standby*, a copy of the session as it is, parked on a socket whose other end goes to the host; when a
//! run hits a limit or the holder dies, the host kills the holder and promotes the standby: a rollback to
//! the state before the run, at the cost of one fork made between runs.

use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, IntoRawFd, OwnedFd, RawFd};
use std::os::unix::net::UnixStream;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

use super::TEST_HOOKS_ENV;
use super::hugepages::HugePageTuner;
use super::jail::{self, Jail, Role};
use super::protocol::{
    self, Attachment, EXIT_NO_JAIL, EXIT_OUT_OF_MEMORY, FromChild, FromZygote, PROTOCOL_VERSION,
    RECURSION_ENV, ToChild, ToZygote, WORKER_ENV,
};
use crate::host_error::HostError;
use crate::vm::{
    HostChannel, RunLimits, RunSpec, SandboxVm, Scope, SessionNamespace, run_in,
    system_alloc_failed,
};

/// Address space a child may use beyond its memory limit: thread stacks, malloc arenas, the VM's own.
const ADDRESS_SPACE_HEADROOM: u64 = 384 << 20;
/// Modules the zygote imports so that children start warm.
const PRE_IMPORTS: &[&str] = &[
    "json",
    "re",
    "datetime",
    "collections",
    "math",
    "itertools",
    "functools",
    "string",
    "textwrap",
    "statistics",
    "decimal",
    "fractions",
    "dataclasses",
    "typing",
    "enum",
    "copy",
    "operator",
    "heapq",
    "bisect",
    "base64",
    "hashlib",
    "uuid",
    "difflib",
    "pprint",
    // Not in the allowlist: what the first lookup of a codec other than UTF-8, ASCII or Latin-1 loads.
    "encodings",
];
/// The trusted snippet a zygote and each pre-forked child run before serving, so the pages a run
/// touches are already theirs (docs/architecture.md, design note 10).
const WARM_UP: &str = "import json\nx = json.dumps({'a': [1 + 1, 'b']})\nreturn json.loads(x)";

static WORKER_CAPABLE: AtomicBool = AtomicBool::new(false);
static SIGCHLD_PIPE: AtomicI32 = AtomicI32::new(-1);

/// Whether this process called [`worker_main_if_requested`], so its own executable can be a worker.
pub(crate) fn current_exe_is_worker() -> bool {
    WORKER_CAPABLE.load(Ordering::Relaxed)
}

/// Runs the worker side of process isolation when this process was started as a toolplane worker, and
/// never returns then; otherwise returns at once (and records that this executable can serve as a
/// worker). Call it first thing in `main` of an application that embeds toolplane with
/// [`crate::Isolation::Process`], before any thread is started:
///
/// ```no_run
/// // first thing in `main`:
/// toolplane::worker_main_if_requested();
/// // ... the application, which may now use Isolation::Process without a separate binary
/// ```
pub fn worker_main_if_requested() {
    WORKER_CAPABLE.store(true, Ordering::Relaxed);
    use super::server_jail::{LAUNCH_MODE, PROBE_MODE, launcher_main};
    // One read of the variable decides the role: a worker never returns from here.
    let Some(mode) = std::env::var_os(WORKER_ENV) else {
        return;
    };
    if mode == LAUNCH_MODE {
        launcher_main(false);
    }
    if mode == PROBE_MODE {
        launcher_main(true);
    }
    if mode == "zygote" {
        let code = match std::panic::catch_unwind(zygote_main) {
            Ok(Ok(())) => 0,
            Ok(Err(e)) => {
                let _ = writeln!(io::stderr(), "toolplane worker: {e}");
                1
            }
            Err(_) => 101,
        };
        // SAFETY: ends the process without unwinding or running destructors, as a worker must.
        unsafe { libc::_exit(code) }
    }
}

/// The host starts the zygote with its control socket on fd 0. It moves to a higher descriptor and
/// /dev/null takes fd 0, so that nothing a snippet reaches through the standard descriptors (0, 1, 2:
/// all /dev/null) is a line to the host.
fn take_control_line_off_stdin() -> io::Result<UnixStream> {
    // SAFETY: fcntl/open/dup2 on descriptors this process owns; fd 0 is the control socket, owned by
    // nothing else, and is replaced (not closed) so that no later open() lands on it.
    unsafe {
        let moved = libc::fcntl(0, libc::F_DUPFD_CLOEXEC, 3);
        if moved < 0 {
            return Err(io::Error::last_os_error());
        }
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR | libc::O_CLOEXEC);
        if null < 0 || libc::dup2(null, 0) < 0 {
            return Err(io::Error::last_os_error());
        }
        libc::close(null);
        Ok(UnixStream::from_raw_fd(moved))
    }
}

fn zygote_main() -> io::Result<()> {
    let control = take_control_line_off_stdin()?;
    let recursion = std::env::var(RECURSION_ENV)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    crate::vm::enable_test_hooks(std::env::var_os(TEST_HOOKS_ENV).is_some());
    // Compiled before the first fork; each child installs it before it runs anything of a snippet's.
    let jail = Jail::new().map_err(|e| io::Error::other(format!("no sandbox jail: {e}")))?;
    jail.confine_zygote()
        .map_err(|e| io::Error::other(format!("no sandbox jail: {e}")))?;
    // The parser's stacker learns where this thread's stack ends (from /proc/self/maps) here, once:
    // children inherit the answer, and their jail allows no open().
    let _ = stacker::remaining_stack();
    // The zygote's interpreter is the only one of its process, and so of every child's.
    let sandbox = SandboxVm::build_alone(recursion).map_err(io::Error::other)?;
    // Imports and the warm-up happen in idle time, once a second child is wanted or the first has
    // ended: the first fork request (a CLI's only run) is served at once by a child of the plain,
    // equally fresh, interpreter, without the warm-up competing with it for the CPU.
    let mut warm_steps = PRE_IMPORTS.len() + 1;
    // After the warm-up, the memory children share moves onto huge pages, a chunk per idle step.
    let mut tuner: Option<HugePageTuner> = None;
    let mut forks = 0usize;
    let mut reaped = false;
    // SAFETY: plain prctl; makes orphaned standbys of dead session holders our children to reap.
    unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) };
    let (sig_read, sig_write) = nix::unistd::pipe().map_err(io::Error::from)?;
    set_nonblocking(sig_read.as_raw_fd());
    set_nonblocking(sig_write.as_raw_fd());
    let sig_write = SigchldPipe::install(sig_write);
    // A terminal's Ctrl-C reaches the whole process group: it interrupts a child's snippet (below), but
    // never the zygote.
    // SAFETY: ignoring a signal.
    unsafe { libc::signal(libc::SIGINT, libc::SIG_IGN) };
    protocol::send(
        &control,
        &FromZygote::Hello {
            protocol: PROTOCOL_VERSION,
            version: env!("CARGO_PKG_VERSION").into(),
        },
        None,
    )?;
    loop {
        let mut fds = [
            libc::pollfd {
                fd: control.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: sig_read.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        let warming = (warm_steps > 0 || tuner.as_ref().is_some_and(HugePageTuner::pending))
            && (forks > 1 || reaped);
        let wait_ms = if warming { 0 } else { 1000 };
        // SAFETY: fds is a valid array of two pollfd.
        let ready = unsafe { libc::poll(fds.as_mut_ptr(), 2, wait_ms) };
        if ready < 0 {
            continue; // EINTR (SIGCHLD)
        }
        if fds[1].revents != 0 {
            drain(sig_read.as_raw_fd());
            reaped |= reap(&control)?;
        }
        if fds[0].revents != 0 {
            match protocol::recv::<ToZygote>(&control) {
                Ok((ToZygote::Fork { session, waiting }, Some(line))) => {
                    // Children of a warmed zygote pre-warm while idle; a cold zygote's would pay its
                    // whole warm-up (imports included) and make a waiting run wait for it.
                    let prewarm = warm_steps == 0 && !waiting;
                    fork_child(
                        &sandbox,
                        &jail,
                        &control,
                        line,
                        session,
                        prewarm,
                        &sig_read,
                        &sig_write.0,
                    )?;
                    forks += 1;
                }
                Ok((ToZygote::Fork { .. }, None)) => {}
                // The host is gone: so are we. Children end when their own sockets close.
                Err(_) => return Ok(()),
            }
        } else if warming {
            if let Some(tuner) = tuner.as_mut() {
                tuner.step();
                continue;
            }
            let step = PRE_IMPORTS.len() + 1 - warm_steps;
            warm_steps -= 1;
            match PRE_IMPORTS.get(step) {
                Some(name) => sandbox.pre_import(name),
                None => {
                    warm_up(&sandbox);
                    tuner = Some(HugePageTuner::plan());
                }
            }
        }
    }
}

/// The write end of the SIGCHLD pipe, published to the signal handler while this guard lives: the
/// handler never writes to the descriptor's number after the pipe is closed (and the number reused).
struct SigchldPipe(OwnedFd);

impl SigchldPipe {
    fn install(write_end: OwnedFd) -> Self {
        SIGCHLD_PIPE.store(write_end.as_raw_fd(), Ordering::SeqCst);
        // SAFETY: the handler only write(2)s one byte to a non-blocking pipe: async-signal-safe.
        unsafe { libc::signal(libc::SIGCHLD, on_sigchld as *const () as libc::sighandler_t) };
        Self(write_end)
    }
}

impl Drop for SigchldPipe {
    fn drop(&mut self) {
        // SAFETY: restores the default disposition; the descriptor closes after this body.
        unsafe { libc::signal(libc::SIGCHLD, libc::SIG_DFL) };
        SIGCHLD_PIPE.store(-1, Ordering::SeqCst);
    }
}

extern "C" fn on_sigchld(_: libc::c_int) {
    let fd = SIGCHLD_PIPE.load(Ordering::Relaxed);
    if fd >= 0 {
        // SAFETY: write(2) of one byte from a static buffer is async-signal-safe.
        unsafe { libc::write(fd, b"c".as_ptr().cast(), 1) };
    }
}

fn set_nonblocking(fd: RawFd) {
    // SAFETY: fcntl on a descriptor we own.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
    }
}

fn drain(fd: RawFd) {
    let mut buf = [0u8; 64];
    // SAFETY: read(2) into a local buffer from a non-blocking pipe we own.
    while unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) } > 0 {}
}

/// Reaps every ended process of the tree and tells the host how each ended; whether there was any.
fn reap(control: &UnixStream) -> io::Result<bool> {
    let mut any = false;
    loop {
        let mut status = 0;
        // SAFETY: waitpid with a valid status pointer.
        let pid = unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) };
        if pid <= 0 {
            return Ok(any);
        }
        any = true;
        let (code, signal) = if libc::WIFSIGNALED(status) {
            (None, Some(libc::WTERMSIG(status)))
        } else {
            (Some(libc::WEXITSTATUS(status)), None)
        };
        protocol::send(control, &FromZygote::Exited { pid, code, signal }, None)?;
    }
}

#[allow(clippy::too_many_arguments)]
fn fork_child(
    sandbox: &SandboxVm,
    jail: &Jail,
    control: &UnixStream,
    line: OwnedFd,
    session: bool,
    prewarm: bool,
    sig_read: &OwnedFd,
    sig_write: &OwnedFd,
) -> io::Result<()> {
    let _ = io::stdout().flush();
    // The warm-up started a watchdog thread; the zygote forks single-threaded.
    crate::vm::stop_watchdog();
    let zygote_pid = std::process::id() as libc::pid_t;
    // SAFETY: the zygote is single-threaded here (its watchdog thread was just joined), so the
    // child inherits no lock held by another thread. The child never returns into this code: it ends
    // with _exit.
    match unsafe { libc::fork() } {
        -1 => Err(io::Error::last_os_error()),
        0 => {
            die_with_parent(zygote_pid);
            let keep_closed = [
                control.as_raw_fd(),
                sig_read.as_raw_fd(),
                sig_write.as_raw_fd(),
            ];
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                child_main(sandbox, jail, line, session, prewarm, &keep_closed)
            }));
            let code = match outcome {
                Ok(()) => 0,
                Err(payload) if is_out_of_memory_panic(&*payload) => EXIT_OUT_OF_MEMORY,
                Err(_) => 101,
            };
            yield_to_runs();
            // SAFETY: a child ends here, without unwinding into the zygote's frames.
            unsafe { libc::_exit(code) }
        }
        pid => {
            drop(line);
            protocol::send(control, &FromZygote::Forked { pid }, None)
        }
    }
}

/// Whether a panic was a refused allocation that Rust code reports by panicking rather than through
/// the allocator: the parser's stacker panics when it cannot map a new stack segment under
/// `RLIMIT_AS` (deep nesting in a large source). The run then ended for lack of memory.
fn is_out_of_memory_panic(payload: &(dyn std::any::Any + Send)) -> bool {
    let text = payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or_default();
    text.contains("allocating stack failed") || text.contains("Cannot allocate memory")
}

/// Asks the kernel to kill this child when its parent, the zygote, ends: a host that stops its
/// zygote (or dies, which ends the zygote) leaves no child running a snippet. Standbys, forked by a
/// session holder, do not ask: the host kills the holder to promote its standby.
fn die_with_parent(parent: libc::pid_t) {
    // SAFETY: plain prctl and getppid on this process.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
        // The parent may have ended before the request: then no signal comes.
        if libc::getppid() != parent {
            libc::_exit(0);
        }
    }
}

extern "C" fn on_sigabrt(_: libc::c_int) {
    if system_alloc_failed() {
        // SAFETY: _exit is async-signal-safe.
        unsafe { libc::_exit(EXIT_OUT_OF_MEMORY) };
    }
    // SAFETY: restore the default action and re-raise, so the host sees the abort for what it is.
    unsafe {
        libc::signal(libc::SIGABRT, libc::SIG_DFL);
        libc::raise(libc::SIGABRT);
    }
}

fn set_limit(resource: libc::__rlimit_resource_t, soft: u64, hard: u64) {
    let limit = libc::rlimit {
        rlim_cur: soft,
        rlim_max: hard,
    };
    // SAFETY: setrlimit with a valid struct.
    unsafe { libc::setrlimit(resource, &limit) };
}

/// Sets the address-space ceiling of this child: its size now plus `limit_mb` plus headroom.
fn set_memory_ceiling(base: u64, limit_mb: usize) {
    let ceiling = base
        .saturating_add((limit_mb as u64).saturating_mul(1 << 20))
        .saturating_add(ADDRESS_SPACE_HEADROOM);
    set_limit(libc::RLIMIT_AS, ceiling, libc::RLIM_INFINITY);
}

fn address_space_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmSize:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        })
        .map_or(0, |kib| kib * 1024)
}

/// SIGINT in a child (a terminal's Ctrl-C): the running snippet ends with `KeyboardInterrupt`.
extern "C" fn on_sigint(_: libc::c_int) {
    crate::vm::request_interrupt();
}

/// The first thing a child does: forget the zygote's descriptors and signal handlers, reseed,
/// tighten its limits and enter its jail. Then serve.
fn child_main(
    sandbox: &SandboxVm,
    jail: &Jail,
    line: OwnedFd,
    session: bool,
    prewarm: bool,
    zygote_fds: &[RawFd],
) {
    // SAFETY: signal dispositions of this single-threaded child.
    unsafe {
        libc::signal(libc::SIGCHLD, libc::SIG_DFL);
        libc::signal(libc::SIGABRT, on_sigabrt as *const () as libc::sighandler_t);
        libc::signal(libc::SIGINT, on_sigint as *const () as libc::sighandler_t);
    }
    for fd in zygote_fds {
        // SAFETY: these descriptors are the zygote's; this child never uses them.
        unsafe { libc::close(*fd) };
    }
    // The thread-local RNG state was copied from the zygote: without a reseed every child would draw
    // the same numbers (docs/architecture.md, design note 1).
    let _ = rand::rng().reseed();
    sandbox.reseed_random_module();
    let line = line.into_raw_fd();
    // Close everything but stdio and our line (RLIMIT_NOFILE below keeps it that way).
    // SAFETY: close_range over descriptors this child does not use.
    unsafe {
        libc::syscall(libc::SYS_close_range, 3, line - 1, 0);
        libc::syscall(libc::SYS_close_range, line + 1, u32::MAX, 0);
    }
    // SAFETY: `line` is the socket the host sent for this child, owned by nothing else now.
    let stream = unsafe { UnixStream::from_raw_fd(line) };
    set_limit(libc::RLIMIT_CORE, 0, 0);
    set_limit(libc::RLIMIT_FSIZE, 0, 0);
    set_limit(libc::RLIMIT_NOFILE, 16, 16);
    let base = address_space_bytes();
    let role = if session { Role::Session } else { Role::Fresh };
    if jail.enter(role, stream.as_raw_fd()).is_err() {
        // Nothing of a snippet's runs outside the jail: the host reports the exit code.
        // SAFETY: a child ends here, without unwinding into the zygote's frames.
        unsafe { libc::_exit(EXIT_NO_JAIL) };
    }
    if session {
        serve_session(sandbox, stream, base);
    } else {
        // Pre-warm only while idle: when the run is already waiting, warming would only delay it.
        if prewarm && !protocol::readable_now(&stream) {
            warm_up(sandbox);
        }
        serve_fresh(sandbox, stream, base);
    }
}

/// A channel that does nothing: the warm-up makes no host calls.
struct NoHost;

impl HostChannel for NoHost {
    fn submit(&mut self, _: u64, _: &str, _: String) {}
    fn wait(&mut self, _: u64) -> Result<String, HostError> {
        Err(HostError::runtime("no host during warm-up"))
    }
}

fn warm_up(sandbox: &SandboxVm) {
    let spec = RunSpec {
        code: WARM_UP.into(),
        inputs: Default::default(),
        bindings: Default::default(),
        limits: RunLimits {
            timeout: std::time::Duration::from_secs(10),
            max_output_bytes: 1 << 20,
            recursion_limit: 1000,
            max_memory_mb: 256,
            max_pending_calls: 16,
        },
        results_enabled: false,
        artifacts_enabled: false,
    };
    let _ = run_in(
        sandbox,
        &spec,
        Box::new(NoHost),
        Scope::Fresh,
        &crate::cancel::CancelToken::new(),
    );
}

/// The child's end of the bridge: calls go to the host over the line, replies come back in order.
struct LineChannel {
    stream: Rc<UnixStream>,
    replies: HashMap<u64, Result<String, HostError>>,
}

impl LineChannel {
    /// Takes in the replies already waiting, so the host never blocks writing to a snippet that makes
    /// calls without awaiting them (both sides writing, neither reading).
    fn drain_replies(&mut self) {
        while protocol::readable_now(&self.stream) {
            match protocol::recv::<ToChild>(&self.stream) {
                Ok((ToChild::Reply { ticket, reply }, _)) => {
                    self.replies
                        .insert(ticket, reply.map(Attachment::into_text));
                }
                Ok(_) => {}
                Err(_) => return,
            }
        }
    }
}

impl HostChannel for LineChannel {
    fn submit(&mut self, ticket: u64, name: &str, params: String) {
        self.drain_replies();
        let call = FromChild::Call {
            ticket,
            name: name.into(),
            params: Attachment::new(params),
        };
        if protocol::send(&self.stream, &call, None).is_err() {
            self.replies.insert(ticket, Err(host_gone()));
        }
    }

    fn wait(&mut self, ticket: u64) -> Result<String, HostError> {
        if let Some(reply) = self.replies.remove(&ticket) {
            return reply;
        }
        loop {
            protocol::spin_until_readable(&self.stream, CALL_SPIN);
            match protocol::recv::<ToChild>(&self.stream) {
                Ok((ToChild::Reply { ticket: t, reply }, _)) if t == ticket => {
                    return reply.map(Attachment::into_text);
                }
                Ok((ToChild::Reply { ticket: t, reply }, _)) => {
                    self.replies.insert(t, reply.map(Attachment::into_text));
                }
                Ok(_) => {}
                Err(_) => return Err(host_gone()),
            }
        }
    }
}

/// How long a sandbox waits for a host call's reply before it sleeps (a plain tool answers in a few µs).
const CALL_SPIN: std::time::Duration = std::time::Duration::from_micros(50);

fn host_gone() -> HostError {
    HostError::runtime("the host closed the sandbox's connection")
}

/// Runs one snippet received on `stream` and reports it.
fn serve_run(
    sandbox: &SandboxVm,
    stream: &Rc<UnixStream>,
    spec: &RunSpec,
    scope: Scope<'_>,
) -> (bool, bool) {
    let channel = LineChannel {
        stream: stream.clone(),
        replies: HashMap::new(),
    };
    // A cancel is the host's: it kills this process.
    let never = crate::cancel::CancelToken::new();
    let report = run_in(sandbox, spec, Box::new(channel), scope, &never);
    let flags = (report.reset_requested, report.limit_hit);
    let _ = protocol::send(stream, &FromChild::Done(Box::new(report)), None);
    flags
}

fn serve_fresh(sandbox: &SandboxVm, stream: UnixStream, base: u64) {
    let stream = Rc::new(stream);
    if let Ok((ToChild::Run(spec), _)) = protocol::recv::<ToChild>(&stream) {
        set_memory_ceiling(base, spec.limits.max_memory_mb);
        serve_run(sandbox, &stream, &spec, Scope::Fresh);
    }
}

/// What a standby fork returns in each process.
enum Fork {
    /// In the holder: the standby.
    Holder(Option<Standby>),
    /// In the standby: it was promoted and serves this line now.
    Promoted(UnixStream),
}

/// A standby the holder forked: its pid, and the holder's end of a socket whose closing tells the
/// standby to end (the jail allows no `kill`).
struct Standby {
    pid: i32,
    quit: UnixStream,
}

/// Forks a standby of the session as it is now and hands its line to the host. Returns in the holder;
/// in the standby, returns only once the host promotes it (and exits if the host closes its line or
/// the holder its quit socket).
fn fork_standby(holder_line: &UnixStream) -> Fork {
    let Ok((ours, theirs)) = UnixStream::pair() else {
        return Fork::Holder(None);
    };
    let Ok((quit, quit_standby)) = UnixStream::pair() else {
        return Fork::Holder(None);
    };
    // SAFETY: between runs the holder's only other thread is its watchdog, idle in a condvar wait and
    // holding no lock; the standby abandons that thread's state (limits::service checks the pid) and
    // never returns into the holder's frames.
    match unsafe { libc::fork() } {
        -1 => Fork::Holder(None),
        0 => {
            // SAFETY: the standby keeps only its own line and its end of the quit socket.
            unsafe {
                libc::close(holder_line.as_raw_fd());
                libc::close(theirs.into_raw_fd());
                libc::close(quit.into_raw_fd());
            }
            let promoted = wait_for_promotion(&ours, &quit_standby);
            drop(quit_standby);
            match promoted {
                Ok((ToChild::Promote, _)) => {
                    jail::report_on(ours.as_raw_fd());
                    Fork::Promoted(ours)
                }
                _ => {
                    yield_to_runs();
                    // SAFETY: a standby that is not needed ends without unwinding.
                    unsafe { libc::_exit(0) }
                }
            }
        }
        pid => {
            drop(ours);
            drop(quit_standby);
            let standby = Standby { pid, quit };
            let sent = protocol::send(
                holder_line,
                &FromChild::Standby { pid },
                Some(theirs.as_raw_fd()),
            );
            if sent.is_err() {
                end_standby(Some(standby));
                return Fork::Holder(None);
            }
            Fork::Holder(Some(standby))
        }
    }
}

/// In a standby: waits for the host's word on `line`, or for the holder's quit byte on `quit`. A quit
/// socket closed without a byte means the holder died (the host kills it to promote this standby):
/// then only the line counts.
fn wait_for_promotion(
    line: &UnixStream,
    quit: &UnixStream,
) -> io::Result<(ToChild, Option<OwnedFd>)> {
    let mut fds = [line.as_raw_fd(), quit.as_raw_fd()].map(|fd| libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    });
    loop {
        // SAFETY: fds is a valid array of two pollfd.
        let ready = unsafe { libc::poll(fds.as_mut_ptr(), 2, -1) };
        if ready < 0 {
            continue; // EINTR
        }
        if fds[0].revents != 0 {
            return protocol::recv::<ToChild>(line);
        }
        if fds[1].revents != 0 {
            let mut byte = [0u8; 1];
            match (&*quit).read(&mut byte) {
                Ok(1) => return Err(io::ErrorKind::UnexpectedEof.into()),
                _ => fds[1].fd = -1,
            }
        }
    }
}

/// Ends a standby that is no longer needed (its quit byte) and reaps it. Waiting here measured faster
/// than reaping later, which delayed the next run's start.
fn end_standby(standby: Option<Standby>) {
    if let Some(Standby { pid, quit }) = standby {
        let _ = (&quit).write_all(b"q");
        // SAFETY: the standby is our own child; reap it.
        unsafe { libc::waitpid(pid, std::ptr::null_mut(), 0) };
    }
}

/// Gives this process the lowest priority before it ends, so that its exit teardown (about half a
/// millisecond of unmapping) takes CPU time a run does not want: on two cores it otherwise competes
/// with the next run. Any process may lower its own priority.
fn yield_to_runs() {
    // SAFETY: setpriority on ourselves; the `as _` is the libc's `which` type.
    unsafe { libc::setpriority(libc::PRIO_PROCESS as _, 0, 19) };
}

/// How long a holder waits for the next run after forking a standby before it warms the standby's
/// pages up itself.
const WARM_UP_AFTER_IDLE: std::time::Duration = std::time::Duration::from_millis(5);

/// Serves a session: runs in one namespace, a standby forked after each committed run.
fn serve_session(sandbox: &SandboxVm, stream: UnixStream, base: u64) {
    let Ok(namespace) = SessionNamespace::new(sandbox) else {
        return;
    };
    let mut stream = Rc::new(stream);
    let mut standby = None;
    let mut need_standby = true;
    loop {
        if need_standby {
            match fork_standby(&stream) {
                Fork::Holder(pid) => {
                    standby = pid;
                    // Take the copy-on-write faults the fork just set up between runs, rather than in
                    // the next run (a trusted snippet in a scratch namespace); unless the next run comes
                    // at once (a client calling back to back), which would wait for the whole warm-up
                    // and then take only the faults it needs.
                    if !protocol::readable_within(&stream, WARM_UP_AFTER_IDLE) {
                        warm_up(sandbox);
                    }
                }
                Fork::Promoted(line) => {
                    // This process is the session now; the old holder is dead. Its run may have died
                    // in a collection, at a `__del__` of garbage this copy still holds: collect it here,
                    // under a limit, or every later run would die the same way.
                    sandbox.collect_garbage();
                    stream = Rc::new(line);
                    standby = None;
                    continue;
                }
            }
            need_standby = false;
        }
        let spec = match protocol::recv::<ToChild>(&stream) {
            Ok((ToChild::Run(spec), _)) => spec,
            Ok(_) => continue,
            Err(_) => break,
        };
        set_memory_ceiling(base, spec.limits.max_memory_mb);
        let (reset, limit_hit) = serve_run(sandbox, &stream, &spec, Scope::Session(&namespace));
        if reset || limit_hit {
            // The host drops this session (reset) or kills it and promotes the standby (limit).
            if reset {
                break;
            }
            continue;
        }
        end_standby(standby.take());
        need_standby = true;
    }
    end_standby(standby);
}
