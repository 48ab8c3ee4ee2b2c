//! The messages between the host and its worker processes, and their framing: a 4-byte little-endian
//! length, then the message as JSON. A frame may carry one file descriptor (`SCM_RIGHTS`) on its first
//! byte, which is how new sockets travel: the host hands the zygote one end of each child's socket, and a
//! session holder hands the host the line of its standby.

use std::io::{self, IoSlice, IoSliceMut, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::net::UnixStream;

use nix::sys::socket::{ControlMessage, ControlMessageOwned, MsgFlags, recvmsg, sendmsg};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::{RunReport, RunSpec};
use crate::capabilities::HostError;

/// Bumped when the messages change: the host refuses a worker that speaks another version.
pub(crate) const PROTOCOL_VERSION: u32 = 3;

/// JSON text carried in a frame as JSON, not as a string: written as it is and read with one scan,
/// where an escaped string cost an escape, an unescape and a copy (a saved value can be megabytes).
pub(crate) type FrameJson = Box<serde_json::value::RawValue>;

/// `text` (JSON from our own writers) for a frame.
pub(crate) fn frame_json(text: String) -> Result<FrameJson, HostError> {
    serde_json::value::RawValue::from_string(text)
        .map_err(|e| HostError::runtime(format!("a host call carried invalid JSON ({e})")))
}

/// The text of a frame's JSON.
pub(crate) fn frame_text(json: FrameJson) -> String {
    Box::<str>::from(json).into_string()
}

/// Frames larger than this are refused: a bound on what a misbehaving worker can make the host allocate.
const MAX_FRAME_BYTES: usize = 1 << 30;

/// Host → zygote.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) enum ToZygote {
    /// Fork a child that serves the socket sent with this frame: one fresh run, or a session.
    /// `waiting`: a run waits for this child, which must not pre-warm first (the run takes the same
    /// page faults itself, and fewer of them).
    Fork { session: bool, waiting: bool },
}

/// Zygote → host.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) enum FromZygote {
    /// Sent once, when the zygote is ready to fork.
    Hello { protocol: u32, version: String },
    /// The child of the last `Fork` has this pid.
    Forked { pid: i32 },
    /// A process of the zygote's tree ended: its exit code, or the signal that killed it.
    Exited {
        pid: i32,
        code: Option<i32>,
        signal: Option<i32>,
    },
}

/// Host → child.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) enum ToChild {
    /// Run this snippet.
    Run(Box<RunSpec>),
    /// The reply to the child's call `ticket`.
    Reply {
        ticket: u64,
        reply: Result<FrameJson, HostError>,
    },
    /// To a session standby: the holder is gone, serve this line as the session now.
    Promote,
}

/// Child → host.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) enum FromChild {
    /// A host call (an external); the host answers with `ToChild::Reply`.
    Call {
        ticket: u64,
        name: String,
        params: FrameJson,
    },
    /// The run is over.
    Done(Box<RunReport>),
    /// A session holder forked a standby (a copy of the session as it is now); its line comes with
    /// this frame.
    Standby { pid: i32 },
    /// The child made a system call its jail forbids (`syscall`: the number) and ends now. Written by
    /// a signal handler (`jail::forbidden_frame`), so its shape is fixed.
    Forbidden { syscall: i64 },
}

/// Sends one frame, with `fd` attached when given.
pub(crate) fn send<T: Serialize>(
    stream: &UnixStream,
    message: &T,
    fd: Option<RawFd>,
) -> io::Result<()> {
    let body = serde_json::to_vec(message).map_err(io::Error::other)?;
    let mut frame = Vec::with_capacity(4 + body.len());
    frame.extend_from_slice(&(body.len() as u32).to_le_bytes());
    frame.extend_from_slice(&body);
    let mut rest: &[u8] = &frame;
    if let Some(fd) = fd {
        let fds = [fd];
        let cmsg = [ControlMessage::ScmRights(&fds)];
        let sent = sendmsg::<()>(
            stream.as_raw_fd(),
            &[IoSlice::new(rest)],
            &cmsg,
            MsgFlags::MSG_NOSIGNAL,
            None,
        )
        .map_err(io::Error::from)?;
        rest = &rest[sent..];
    }
    let mut writer = stream;
    writer.write_all(rest)
}

/// Receives one frame, and the descriptor that came with it if any. End of stream is `UnexpectedEof`.
/// Whether a frame (or its start) is waiting on `stream` now.
pub(crate) fn readable_now(stream: &UnixStream) -> bool {
    let mut poll = libc::pollfd {
        fd: stream.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one valid pollfd, zero timeout.
    let ready = unsafe { libc::poll(&mut poll, 1, 0) };
    ready > 0 && poll.revents & libc::POLLIN != 0
}

/// Polls `stream` for up to `spin` until a frame is waiting, without sleeping. A host call's reply (and a
/// snippet's next call) usually comes within microseconds, while a blocked reader's wake-up costs tens of
/// microseconds in a VM; a caller then reads with [`recv`] whether or not this saw data.
pub(crate) fn spin_until_readable(stream: &UnixStream, spin: std::time::Duration) {
    let until = std::time::Instant::now() + spin;
    let mut poll = libc::pollfd {
        fd: stream.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    loop {
        // SAFETY: one valid pollfd, zero timeout.
        let ready = unsafe { libc::poll(&mut poll, 1, 0) };
        if ready != 0 || std::time::Instant::now() >= until {
            return;
        }
        std::hint::spin_loop();
    }
}

pub(crate) fn recv<T: DeserializeOwned>(stream: &UnixStream) -> io::Result<(T, Option<OwnedFd>)> {
    let mut header = [0u8; 4];
    let mut fd = None;
    // The header is read with recvmsg, so a descriptor attached to the frame is received, not dropped.
    let got = {
        let mut iov = [IoSliceMut::new(&mut header)];
        let mut space = nix::cmsg_space!([RawFd; 2]);
        let msg = loop {
            match recvmsg::<()>(
                stream.as_raw_fd(),
                &mut iov,
                Some(&mut space),
                MsgFlags::MSG_CMSG_CLOEXEC,
            ) {
                Err(nix::errno::Errno::EINTR) => continue,
                other => break other.map_err(io::Error::from)?,
            }
        };
        for cmsg in msg.cmsgs().map_err(io::Error::from)? {
            if let ControlMessageOwned::ScmRights(fds) = cmsg {
                for raw in fds {
                    // SAFETY: the kernel just installed this descriptor for us; nothing else owns it.
                    let owned = unsafe { OwnedFd::from_raw_fd(raw) };
                    fd.get_or_insert(owned);
                }
            }
        }
        msg.bytes
    };
    if got == 0 {
        return Err(io::ErrorKind::UnexpectedEof.into());
    }
    let mut reader = stream;
    if got < 4 {
        reader.read_exact(&mut header[got..])?;
    }
    let len = u32::from_le_bytes(header) as usize;
    if len > MAX_FRAME_BYTES {
        return Err(io::Error::other(format!("frame of {len} bytes refused")));
    }
    let mut body = vec![0u8; len];
    reader.read_exact(&mut body)?;
    let message = serde_json::from_slice(&body).map_err(io::Error::other)?;
    Ok((message, fd))
}
