//! The jail a stdio MCP server runs in (Linux): its own PID and mount namespaces, and its own user
//! namespace where the kernel gives one, with a `/proc` of its own. A server then sees no process but
//! its own tree: not the host, not another server, so not their `/proc/PID/environ` (the secrets
//! each was given) or memory — whatever user it runs as, root included.
//!
//! The host starts its worker executable as the *launcher* (`TOOLPLANE_WORKER=server-jail`, argv: the
//! program's path, the name it starts as, its arguments). The launcher enters the new namespaces and
//! forks the jail's init (PID 1 there), which mounts the jail's `/proc` and forks the server. Init
//! reaps what the server leaves behind and exits with the server's status, which the launcher passes
//! on; when init ends the kernel ends every process in the jail, so nothing a server started outlives
//! it. The launcher and init are non-dumpable (the server cannot read their memory or environment) and
//! the server starts without capabilities, so it can neither unmount its `/proc` nor make another.
//!
//! The mounts of the jails above a process stay in its mount table, under its own `/proc`, where no
//! process in the jail can remove them: [`depth`] counts them, for the loop guard.

use std::ffi::{CString, OsString};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;

use super::WORKER_ENV;

/// `TOOLPLANE_WORKER` of a launcher that starts a server in a jail.
pub(crate) const LAUNCH_MODE: &str = "server-jail";
/// `TOOLPLANE_WORKER` of a launcher that only checks that a jail can be made here, and exits.
pub(crate) const PROBE_MODE: &str = "server-jail-probe";
/// Exit code of a launcher that could not make the jail (as `env` and `chroot` report their own
/// failure).
const EXIT_NO_JAIL: i32 = 125;
/// Exit code of a jail whose server could not be started.
const EXIT_CANNOT_EXEC: i32 = 127;

/// Runs the launcher (or its probe) and exits with the server's status.
pub(crate) fn launcher_main(probe: bool) -> ! {
    let code = launch(probe).unwrap_or_else(|why| {
        eprintln!("toolplane: cannot start the server in its jail: {why}");
        EXIT_NO_JAIL
    });
    // SAFETY: ends this single-threaded launcher without unwinding, as its children end.
    unsafe { libc::_exit(code) }
}

/// The program to start in the jail, as the host named it.
struct Program {
    path: OsString,
    arg0: OsString,
    args: Vec<OsString>,
}

fn launch(probe: bool) -> Result<i32, String> {
    let program = if probe {
        None
    } else {
        let mut args = std::env::args_os().skip(1);
        let (Some(path), Some(arg0)) = (args.next(), args.next()) else {
            return Err("no program named".into());
        };
        Some(Program {
            path,
            arg0,
            args: args.collect(),
        })
    };
    // SAFETY: the launcher is single-threaded (it was started with WORKER_ENV, and the embedding
    // application calls `worker_main_if_requested` before it starts a thread).
    unsafe { std::env::remove_var(WORKER_ENV) };
    enter_namespaces()?;
    // SAFETY: prctl on this process. Its environment is the server's, secrets included: a server must
    // not read it, nor init's (a fork of this process, equally non-dumpable). Not before the user
    // namespace's maps are written: a non-dumpable process's /proc files are root's.
    unsafe { libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0) };
    let (launcher_alive, launcher_gone) = pipe()?;
    // SAFETY: fork of a single-threaded process; the child only runs init below and exits.
    match unsafe { libc::fork() } {
        -1 => Err(format!("fork: {}", io::Error::last_os_error())),
        0 => {
            drop(launcher_alive);
            let code = init(&launcher_gone, program.as_ref());
            // SAFETY: init ends here, taking the jail with it.
            unsafe { libc::_exit(code) }
        }
        init => {
            drop(launcher_gone);
            // The launcher only waits: the server's pipes are not its to hold.
            let _ = quiet_stdio();
            let status = wait_for(init);
            drop(launcher_alive);
            Ok(status)
        }
    }
}

/// New user (where the kernel lets this process make one), PID and mount namespaces for the
/// children of this process. Without a user namespace only root may make the other two.
fn enter_namespaces() -> Result<(), String> {
    // SAFETY: plain getters.
    let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
    // SAFETY: unshare(2) of this single-threaded process.
    if unsafe { libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWPID | libc::CLONE_NEWNS) } == 0 {
        // The server keeps its own user and group and gains nothing: one identity mapping.
        match std::fs::write("/proc/self/setgroups", "deny") {
            Err(e) if e.kind() != io::ErrorKind::NotFound => {
                return Err(format!("/proc/self/setgroups: {e}"));
            }
            _ => {}
        }
        std::fs::write("/proc/self/uid_map", format!("{uid} {uid} 1"))
            .map_err(|e| format!("/proc/self/uid_map: {e}"))?;
        std::fs::write("/proc/self/gid_map", format!("{gid} {gid} 1"))
            .map_err(|e| format!("/proc/self/gid_map: {e}"))?;
        return Ok(());
    }
    let no_user_namespace = io::Error::last_os_error();
    // SAFETY: as above.
    if uid == 0 && unsafe { libc::unshare(libc::CLONE_NEWPID | libc::CLONE_NEWNS) } == 0 {
        return Ok(());
    }
    Err(format!(
        "no user namespace ({no_user_namespace}){}",
        if uid == 0 {
            format!(
                ", and no PID and mount namespaces ({})",
                io::Error::last_os_error()
            )
        } else {
            String::new()
        }
    ))
}

/// PID 1 of the jail: mounts its `/proc`, starts the server, reaps, and returns the server's status.
/// A probe stops once the jail is made.
fn init(launcher_gone: &OwnedFd, program: Option<&Program>) -> i32 {
    if let Err(why) = die_with_parent(launcher_gone) {
        eprintln!("toolplane: the server's jail: {why}");
        return EXIT_NO_JAIL;
    }
    if let Err(why) = mount_own_proc() {
        eprintln!("toolplane: cannot start the server in its jail: {why}");
        return EXIT_NO_JAIL;
    }
    let Some(program) = program else {
        return 0;
    };
    let (init_alive, init_gone) = match pipe() {
        Ok(ends) => ends,
        Err(why) => {
            eprintln!("toolplane: the server's jail: {why}");
            return EXIT_NO_JAIL;
        }
    };
    // SAFETY: fork of a single-threaded process; the child only starts the server.
    let server = unsafe { libc::fork() };
    if server == 0 {
        drop(init_alive);
        eprintln!(
            "toolplane: cannot start {:?}: {}",
            program.arg0,
            start_server(&init_gone, program)
        );
        // SAFETY: the exec failed; end this child without running anything of init's.
        unsafe { libc::_exit(EXIT_CANNOT_EXEC) }
    }
    drop(init_gone);
    if server < 0 {
        eprintln!(
            "toolplane: the server's jail: fork: {}",
            io::Error::last_os_error()
        );
        return EXIT_NO_JAIL;
    }
    // Reap every orphan the server leaves to init, until the server itself ends; init's end then
    // ends the rest.
    loop {
        let mut status = 0;
        // SAFETY: waitpid on this process's children.
        let ended = unsafe { libc::waitpid(-1, &mut status, 0) };
        if ended == server {
            drop(init_alive);
            return exit_code(status);
        }
        if ended < 0 && io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            return EXIT_NO_JAIL;
        }
    }
}

/// Replaces this process with the server, without a capability left (it could otherwise unmount the
/// jail's `/proc` or make another); returns only the reason it could not.
fn start_server(parent_gone: &OwnedFd, program: &Program) -> io::Error {
    if let Err(why) = die_with_parent(parent_gone) {
        return io::Error::other(why);
    }
    if let Err(why) = super::jail::drop_capabilities() {
        return io::Error::other(why);
    }
    std::process::Command::new(&program.path)
        .arg0(&program.arg0)
        .args(&program.args)
        .exec()
}

/// SIGKILL for this process when its parent ends; an error if it has ended already (its end of the
/// parent's pipe is closed then).
fn die_with_parent(parent_gone: &OwnedFd) -> Result<(), String> {
    // SAFETY: prctl on this process.
    if unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) } != 0 {
        return Err(format!("PR_SET_PDEATHSIG: {}", io::Error::last_os_error()));
    }
    let mut poll = libc::pollfd {
        fd: parent_gone.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: poll on one descriptor this process owns, without waiting.
    let ready = unsafe { libc::poll(&mut poll, 1, 0) };
    if ready != 0 {
        return Err("its parent ended".into());
    }
    Ok(())
}

/// Makes this mount namespace's mounts private (nothing of the jail's propagates to the host) and
/// mounts a `/proc` of this PID namespace over the host's.
fn mount_own_proc() -> Result<(), String> {
    let mount = |source: &str, target: &str, kind: Option<&str>, flags: libc::c_ulong| {
        let source = CString::new(source).expect("no NUL");
        let target = CString::new(target).expect("no NUL");
        let kind = kind.map(|kind| CString::new(kind).expect("no NUL"));
        // SAFETY: mount(2) with NUL-terminated strings that outlive the call.
        let done = unsafe {
            libc::mount(
                source.as_ptr(),
                target.as_ptr(),
                kind.as_ref().map_or(std::ptr::null(), |kind| kind.as_ptr()),
                flags,
                std::ptr::null(),
            )
        };
        if done == 0 {
            Ok(())
        } else {
            Err(format!("mount {target:?}: {}", io::Error::last_os_error()))
        }
    };
    mount("none", "/", None, libc::MS_REC | libc::MS_PRIVATE)?;
    mount(
        "proc",
        "/proc",
        Some("proc"),
        libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
    )
}

/// A pipe whose write end tells the other process this one is alive: when it is closed (this one
/// ended), the read end polls readable.
fn pipe() -> Result<(OwnedFd, OwnedFd), String> {
    let mut ends = [0; 2];
    // SAFETY: pipe2 fills both descriptors, which are then owned here.
    if unsafe { libc::pipe2(ends.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(format!("pipe: {}", io::Error::last_os_error()));
    }
    // SAFETY: fresh descriptors from pipe2, owned by nothing else.
    Ok(unsafe { (OwnedFd::from_raw_fd(ends[1]), OwnedFd::from_raw_fd(ends[0])) })
}

/// Points the launcher's stdin and stdout at /dev/null: the server's pipes close when it ends.
fn quiet_stdio() -> io::Result<()> {
    let null = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")?;
    for fd in [0, 1] {
        // SAFETY: dup2 onto a standard descriptor of this process.
        if unsafe { libc::dup2(null.as_raw_fd(), fd) } < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Waits for `child` and returns its exit code (128 + the signal that ended it).
fn wait_for(child: libc::pid_t) -> i32 {
    loop {
        let mut status = 0;
        // SAFETY: waitpid on this process's own child.
        if unsafe { libc::waitpid(child, &mut status, 0) } == child {
            return exit_code(status);
        }
        if io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            return EXIT_NO_JAIL;
        }
    }
}

fn exit_code(status: libc::c_int) -> i32 {
    if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        128 + libc::WTERMSIG(status)
    }
}

/// How many jails this process is in (the MCP client's loop guard counts them): the `/proc` mounts over the host's in its mount table, which
/// no process in a jail can remove. 0 where there is no `/proc`.
#[cfg(feature = "mcp")]
pub(crate) fn depth() -> usize {
    let Ok(mounts) = std::fs::read_to_string("/proc/self/mountinfo") else {
        return 0;
    };
    // "ID PARENT MAJOR:MINOR ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPER_OPTIONS"
    let procs = mounts
        .lines()
        .filter(|line| {
            let mountpoint = line.split(' ').nth(4);
            let kind = line
                .split_once(" - ")
                .and_then(|(_, tail)| tail.split(' ').next());
            mountpoint == Some("/proc") && kind == Some("proc")
        })
        .count();
    procs.saturating_sub(1)
}
