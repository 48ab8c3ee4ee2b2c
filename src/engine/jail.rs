//! The jail a process-isolation child enters after fork and before any snippet code runs: no
//! capabilities, `no_new_privs`, and a seccomp allowlist of the system calls a run needs (memory, its
//! own socket, reading clocks, threads, exit). A memory-safety bug in the VM then finds no way to open
//! a file or a socket, start a program, signal a process or set the clock: any call outside the list
//! stops the child, which first tells the host which call it was (`SandboxCrashedError` names it).
//! docs/sandbox.md lists the calls.
//!
//! The filters are compiled to BPF by `seccompiler` once, in the zygote; a child only installs them.

use std::collections::BTreeMap;
use std::os::fd::RawFd;
use std::sync::atomic::{AtomicI32, Ordering};

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

use super::protocol::{EXIT_ABORTED, EXIT_FORBIDDEN_SYSCALL, EXIT_OUT_OF_MEMORY};

/// What a jailed child is: a fresh run's child, or a session holder (which also forks its standbys
/// and reaps them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    Fresh,
    Session,
}

/// The compiled filters, made once by the zygote before its first fork.
pub(crate) struct Jail {
    fresh: BpfProgram,
    session: BpfProgram,
    /// Answers `clone3` with ENOSYS: glibc then starts threads with `clone`, whose flags a filter can
    /// read (`clone3` passes them in memory, out of a filter's sight).
    no_clone3: BpfProgram,
}

/// The line the SIGSYS handler reports on: the child's socket to the host.
static REPORT_LINE: AtomicI32 = AtomicI32::new(-1);

impl Jail {
    /// Compiles the filters for this machine's architecture.
    pub(crate) fn new() -> Result<Self, String> {
        let arch = TargetArch::try_from(std::env::consts::ARCH)
            .map_err(|e| format!("no seccomp filter for this architecture: {e}"))?;
        let compile = |role| -> Result<BpfProgram, String> {
            let filter = SeccompFilter::new(
                allowed_calls(role)?,
                SeccompAction::Trap,
                SeccompAction::Allow,
                arch,
            )
            .map_err(|e| e.to_string())?;
            BpfProgram::try_from(filter).map_err(|e| e.to_string())
        };
        let no_clone3 = SeccompFilter::new(
            BTreeMap::from([(libc::SYS_clone3, vec![])]),
            SeccompAction::Allow,
            SeccompAction::Errno(libc::ENOSYS as u32),
            arch,
        )
        .and_then(BpfProgram::try_from)
        .map_err(|e| e.to_string())?;
        Ok(Self {
            fresh: compile(Role::Fresh)?,
            session: compile(Role::Session)?,
            no_clone3,
        })
    }

    /// One line for `toolplane doctor`.
    #[cfg(feature = "cli")]
    pub(crate) fn summary(&self) -> String {
        format!(
            "no capabilities, no_new_privs, seccomp allowlist ({} BPF instructions for a fresh run, {} for a \
             session; any other call stops the child)",
            self.fresh.len(),
            self.session.len()
        )
    }

    /// The zygote's part, once, inherited by every child it forks: drops every capability and sets
    /// `no_new_privs` (the zygote needs neither: it only forks, reaps and moves its own memory).
    pub(crate) fn confine_zygote(&self) -> Result<(), String> {
        drop_capabilities()?;
        // SAFETY: plain prctl on this process.
        if unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) } != 0 {
            return Err(format!("no_new_privs: {}", std::io::Error::last_os_error()));
        }
        Ok(())
    }

    /// Enters the jail for good: installs the filters (for every thread), on top of what the zygote
    /// dropped. Forbidden calls are reported on `line`. Call it in a child, single-threaded, after the
    /// last step that needs more than the list (closing descriptors, reading `/proc`).
    pub(crate) fn enter(&self, role: Role, line: RawFd) -> Result<(), String> {
        report_on(line);
        install_sigsys_reporter();
        let program = match role {
            Role::Fresh => &self.fresh,
            Role::Session => &self.session,
        };
        // `no_clone3` first: installing the allowlist takes a `prctl` that the allowlist refuses.
        seccompiler::apply_filter(&self.no_clone3).map_err(|e| format!("seccomp: {e}"))?;
        seccompiler::apply_filter(program).map_err(|e| format!("seccomp: {e}"))
    }
}

/// Forbidden calls are reported on `line` from now on (a promoted standby serves a new line).
pub(crate) fn report_on(line: RawFd) {
    REPORT_LINE.store(line, Ordering::Relaxed);
}

/// Drops every capability (bounding set first, while CAP_SETPCAP is still held, then the ambient,
/// inheritable, permitted and effective sets). A child of a non-root host has none to drop.
pub(crate) fn drop_capabilities() -> Result<(), String> {
    use caps::{CapSet, Capability};
    let err = |e: caps::errors::CapsError| format!("dropping capabilities: {e}");
    if caps::has_cap(None, CapSet::Effective, Capability::CAP_SETPCAP).unwrap_or(false) {
        caps::clear(None, CapSet::Bounding).map_err(err)?;
    }
    caps::clear(None, CapSet::Ambient).map_err(err)?;
    caps::clear(None, CapSet::Inheritable).map_err(err)?;
    caps::clear(None, CapSet::Permitted).map_err(err)?;
    caps::clear(None, CapSet::Effective).map_err(err)
}

/// A call that is allowed with any arguments.
fn any() -> Vec<SeccompRule> {
    Vec::new()
}

/// A call allowed only when every `(argument index, operation, value)` holds.
/// The arguments compared are `int`s (32 bits; the upper half of the register is not the caller's),
/// except where the value needs more.
fn only(conditions: &[(u8, SeccompCmpOp, u64)]) -> Result<Vec<SeccompRule>, String> {
    let conditions = conditions
        .iter()
        .map(|(arg, op, value)| {
            let width = match op {
                SeccompCmpOp::MaskedEq(mask) if *mask > u64::from(u32::MAX) => {
                    SeccompCmpArgLen::Qword
                }
                _ => SeccompCmpArgLen::Dword,
            };
            SeccompCondition::new(*arg, width, op.clone(), *value).map_err(|e| e.to_string())
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(vec![
        SeccompRule::new(conditions).map_err(|e| e.to_string())?,
    ])
}

/// Namespace flags of `clone`: a child may make no new namespace (an unprivileged user namespace
/// would open much of the kernel to it).
const NEW_NAMESPACES: u64 = (libc::CLONE_NEWNS
    | libc::CLONE_NEWUSER
    | libc::CLONE_NEWPID
    | libc::CLONE_NEWNET
    | libc::CLONE_NEWIPC
    | libc::CLONE_NEWUTS
    | libc::CLONE_NEWCGROUP) as u64;

/// The allowlist: system call number → the argument rules under which it is allowed (none: always).
/// docs/sandbox.md lists the same calls; keep the two together.
fn allowed_calls(role: Role) -> Result<BTreeMap<i64, Vec<SeccompRule>>, String> {
    use SeccompCmpOp::{Eq, MaskedEq};
    let exec = libc::PROT_EXEC as u64;
    let mut calls: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    let plain = [
        // Its socket to the host (and the descriptors it already has; it can open none).
        libc::SYS_read,
        libc::SYS_write,
        libc::SYS_readv,
        libc::SYS_writev,
        libc::SYS_recvfrom,
        libc::SYS_sendto,
        libc::SYS_recvmsg,
        libc::SYS_sendmsg,
        libc::SYS_close,
        libc::SYS_ppoll,
        libc::SYS_fstat,
        libc::SYS_newfstatat,
        libc::SYS_lseek,
        libc::SYS_getsockopt,
        libc::SYS_setsockopt,
        // Memory (mmap and mprotect below: never executable).
        libc::SYS_munmap,
        libc::SYS_mremap,
        libc::SYS_madvise,
        libc::SYS_brk,
        // Threads (the time-limit watchdog) and their synchronisation.
        libc::SYS_futex,
        libc::SYS_set_robust_list,
        libc::SYS_rseq,
        libc::SYS_sched_yield,
        libc::SYS_sched_getaffinity,
        libc::SYS_gettid,
        libc::SYS_getpid,
        libc::SYS_exit,
        libc::SYS_exit_group,
        // Signals of its own: handlers, masks, the alternate stack of a new thread.
        libc::SYS_rt_sigaction,
        libc::SYS_rt_sigprocmask,
        libc::SYS_rt_sigreturn,
        libc::SYS_sigaltstack,
        libc::SYS_restart_syscall,
        // Clocks, read only; sleeping; randomness; its own resource usage.
        libc::SYS_clock_gettime,
        libc::SYS_clock_getres,
        libc::SYS_gettimeofday,
        libc::SYS_clock_nanosleep,
        libc::SYS_nanosleep,
        libc::SYS_getrandom,
        libc::SYS_getrusage,
        // Allowed in the first filter so that the second can answer ENOSYS (see `no_clone3`).
        libc::SYS_clone3,
    ];
    for call in plain {
        calls.insert(call, any());
    }
    #[cfg(target_arch = "x86_64")]
    for call in [libc::SYS_poll, libc::SYS_time] {
        calls.insert(call, any());
    }
    calls.insert(libc::SYS_mmap, only(&[(2, MaskedEq(exec), 0)])?);
    calls.insert(libc::SYS_mprotect, only(&[(2, MaskedEq(exec), 0)])?);
    // Descriptor flags (blocking mode, close-on-exec) of the descriptors it has.
    let mut fcntl = Vec::new();
    for command in [libc::F_GETFL, libc::F_SETFL, libc::F_GETFD, libc::F_SETFD] {
        fcntl.extend(only(&[(1, Eq, command as u64)])?);
    }
    calls.insert(libc::SYS_fcntl, fcntl);
    // Naming its own threads, and its own anonymous memory (mimalloc names each mapping it makes).
    let mut prctl = only(&[(0, Eq, libc::PR_SET_NAME as u64)])?;
    prctl.extend(only(&[
        (0, Eq, libc::PR_SET_VMA as u64),
        (1, Eq, libc::PR_SET_VMA_ANON_NAME as u64),
    ])?);
    calls.insert(libc::SYS_prctl, prctl);
    // Lowering its own priority before it exits.
    calls.insert(
        libc::SYS_setpriority,
        only(&[(0, Eq, libc::PRIO_PROCESS as u64), (1, Eq, 0), (2, Eq, 19)])?,
    );
    // Its own address-space ceiling, set for each run (`setrlimit(RLIMIT_AS)`).
    calls.insert(
        libc::SYS_prlimit64,
        only(&[(0, Eq, 0), (1, Eq, libc::RLIMIT_AS as u64)])?,
    );
    let thread = libc::CLONE_THREAD as u64;
    match role {
        // A thread, never a process, never a namespace.
        Role::Fresh => {
            calls.insert(
                libc::SYS_clone,
                only(&[(0, MaskedEq(thread | NEW_NAMESPACES), thread)])?,
            );
        }
        // A session holder also forks its standbys (no namespace either), makes their sockets and
        // reaps them.
        Role::Session => {
            calls.insert(libc::SYS_clone, only(&[(0, MaskedEq(NEW_NAMESPACES), 0)])?);
            calls.insert(
                libc::SYS_socketpair,
                only(&[(0, Eq, libc::AF_UNIX as u64)])?,
            );
            calls.insert(libc::SYS_wait4, any());
        }
    }
    Ok(calls)
}

/// SIGSYS (a forbidden call) reports the call's number on the child's line and ends the child; an
/// `abort()` (its `tgkill` is forbidden) ends it as the SIGABRT handler would.
fn install_sigsys_reporter() {
    // SAFETY: a zeroed sigaction with a valid handler, SA_SIGINFO so it receives the siginfo.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_sigsys as *const () as libc::sighandler_t;
        action.sa_flags = libc::SA_SIGINFO;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGSYS, &action, std::ptr::null_mut());
    }
}

/// Where the kernel puts the number of the refused call in a SIGSYS siginfo (after `si_signo`,
/// `si_errno`, `si_code`, padding, and `_call_addr`), on the 64-bit targets this module builds for.
const SIGINFO_SYSCALL_OFFSET: usize = 24;

extern "C" fn on_sigsys(_: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
    // SAFETY: the kernel passes a valid siginfo for SIGSYS; the field is an aligned i32.
    let call = unsafe {
        info.cast::<u8>()
            .add(SIGINFO_SYSCALL_OFFSET)
            .cast::<i32>()
            .read()
    };
    if i64::from(call) == libc::SYS_tgkill || i64::from(call) == libc::SYS_tkill {
        let code = if crate::vm::system_alloc_failed() {
            EXIT_OUT_OF_MEMORY
        } else {
            EXIT_ABORTED
        };
        // SAFETY: _exit is async-signal-safe.
        unsafe { libc::_exit(code) };
    }
    let mut frame = [0u8; 64];
    let length = forbidden_frame(call, &mut frame);
    let line = REPORT_LINE.load(Ordering::Relaxed);
    // SAFETY: send and _exit are async-signal-safe; `frame` is a valid buffer of `length` bytes.
    unsafe {
        if line >= 0 {
            libc::send(line, frame.as_ptr().cast(), length, libc::MSG_NOSIGNAL);
        }
        libc::_exit(EXIT_FORBIDDEN_SYSCALL);
    }
}

/// Writes the frame of `FromChild::Forbidden { syscall }` (the protocol's length prefix and JSON)
/// into `out` without allocating, as a signal handler must; returns its length.
fn forbidden_frame(call: i32, out: &mut [u8; 64]) -> usize {
    const HEAD: &[u8] = br#"{"Forbidden":{"syscall":"#;
    const TAIL: &[u8] = b"}}";
    let mut digits = [0u8; 12];
    let mut count = 0;
    let negative = call < 0;
    let mut rest = i64::from(call).unsigned_abs();
    loop {
        digits[count] = b'0' + (rest % 10) as u8;
        count += 1;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    if negative {
        digits[count] = b'-';
        count += 1;
    }
    let body = HEAD.len() + count + TAIL.len();
    out[..4].copy_from_slice(&(body as u32).to_le_bytes());
    let mut at = 4;
    out[at..at + HEAD.len()].copy_from_slice(HEAD);
    at += HEAD.len();
    for digit in digits[..count].iter().rev() {
        out[at] = *digit;
        at += 1;
    }
    out[at..at + TAIL.len()].copy_from_slice(TAIL);
    at + TAIL.len()
}

/// The name of system call `call` on this architecture, for reports (the calls a hostile or broken
/// snippet is likeliest to reach; others are named by number).
pub(crate) fn syscall_name(call: i64) -> String {
    let named: &[(i64, &str)] = &[
        (libc::SYS_openat, "openat"),
        (libc::SYS_socket, "socket"),
        (libc::SYS_connect, "connect"),
        (libc::SYS_bind, "bind"),
        (libc::SYS_listen, "listen"),
        (libc::SYS_accept4, "accept4"),
        (libc::SYS_execve, "execve"),
        (libc::SYS_execveat, "execveat"),
        (libc::SYS_clone, "clone"),
        (libc::SYS_kill, "kill"),
        (libc::SYS_ptrace, "ptrace"),
        (libc::SYS_clock_settime, "clock_settime"),
        (libc::SYS_settimeofday, "settimeofday"),
        (libc::SYS_clock_adjtime, "clock_adjtime"),
        (libc::SYS_adjtimex, "adjtimex"),
        (libc::SYS_mount, "mount"),
        (libc::SYS_unshare, "unshare"),
        (libc::SYS_setns, "setns"),
        (libc::SYS_chroot, "chroot"),
        (libc::SYS_bpf, "bpf"),
        (libc::SYS_perf_event_open, "perf_event_open"),
        (libc::SYS_io_uring_setup, "io_uring_setup"),
        (libc::SYS_ioctl, "ioctl"),
        (libc::SYS_mmap, "mmap"),
        (libc::SYS_mprotect, "mprotect"),
        (libc::SYS_prctl, "prctl"),
        (libc::SYS_prlimit64, "prlimit64"),
        (libc::SYS_unlinkat, "unlinkat"),
        (libc::SYS_mkdirat, "mkdirat"),
        (libc::SYS_memfd_create, "memfd_create"),
        (libc::SYS_process_vm_readv, "process_vm_readv"),
        (libc::SYS_process_vm_writev, "process_vm_writev"),
        (libc::SYS_pidfd_open, "pidfd_open"),
        (libc::SYS_setuid, "setuid"),
        (libc::SYS_setgid, "setgid"),
        (libc::SYS_reboot, "reboot"),
        (libc::SYS_fcntl, "fcntl"),
        (libc::SYS_socketpair, "socketpair"),
        (libc::SYS_wait4, "wait4"),
        (libc::SYS_setpriority, "setpriority"),
        (libc::SYS_tgkill, "tgkill"),
        (libc::SYS_tkill, "tkill"),
    ];
    #[cfg(target_arch = "x86_64")]
    let arch_named: &[(i64, &str)] = &[
        (libc::SYS_open, "open"),
        (libc::SYS_fork, "fork"),
        (libc::SYS_vfork, "vfork"),
        (libc::SYS_creat, "creat"),
        (libc::SYS_unlink, "unlink"),
    ];
    #[cfg(not(target_arch = "x86_64"))]
    let arch_named: &[(i64, &str)] = &[];
    named
        .iter()
        .chain(arch_named)
        .find(|(number, _)| *number == call)
        .map_or_else(
            || format!("system call {call}"),
            |(_, name)| (*name).to_string(),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_forbidden_frame_is_the_protocol_s_frame() {
        for call in [0, 7, 41, 435, -1, i32::MAX, i32::MIN] {
            let mut frame = [0u8; 64];
            let length = forbidden_frame(call, &mut frame);
            let body = &frame[4..length];
            assert_eq!(
                u32::from_le_bytes(frame[..4].try_into().unwrap()) as usize,
                body.len()
            );
            let expected = serde_json::to_vec(&super::super::protocol::FromChild::Forbidden {
                syscall: i64::from(call),
            })
            .unwrap();
            assert_eq!(body, expected.as_slice(), "{call}");
        }
    }

    #[test]
    fn the_filters_compile_here() {
        Jail::new().unwrap();
    }

    /// Fork, (enter the jail,) exit, reap: the jail's cost per child. Run by hand:
    /// `cargo t --lib jail::tests::fork_cost -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn fork_cost() {
        let jail = Jail::new().unwrap();
        // As in the zygote (a forked copy of this test process, so the test keeps its own).
        // SAFETY: the child confines itself and forks the measured children; it ends with _exit.
        let measurer = unsafe { libc::fork() };
        if measurer != 0 {
            let mut status = 0;
            unsafe { libc::waitpid(measurer, &mut status, 0) };
            assert_eq!(status, 0);
            return;
        }
        jail.confine_zygote().unwrap();
        let (line, _peer) = std::os::unix::net::UnixStream::pair().unwrap();
        let line = std::os::fd::AsRawFd::as_raw_fd(&line);
        for round in 0..3 {
            for jailed in [false, true] {
                let children = 500;
                let started = std::time::Instant::now();
                for _ in 0..children {
                    // SAFETY: the child only enters the jail and exits.
                    match unsafe { libc::fork() } {
                        0 => unsafe {
                            if jailed && jail.enter(Role::Fresh, line).is_err() {
                                libc::_exit(1);
                            }
                            libc::_exit(0)
                        },
                        pid => {
                            let mut status = 0;
                            unsafe { libc::waitpid(pid, &mut status, 0) };
                            assert_eq!(status, 0);
                        }
                    }
                }
                let each = started.elapsed().as_secs_f64() * 1e6 / f64::from(children);
                println!("round {round}: jailed {jailed}: {each:.1} us per fork + exit");
            }
        }
        // SAFETY: the measuring copy ends here.
        unsafe { libc::_exit(0) }
    }

    #[test]
    fn calls_are_named() {
        assert_eq!(syscall_name(libc::SYS_socket), "socket");
        assert_eq!(syscall_name(100_000), "system call 100000");
    }
}
