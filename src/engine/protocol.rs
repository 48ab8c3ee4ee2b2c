//! The messages between the host and its worker processes, and their framing: a 4-byte little-endian
//! length, then the message as JSON, then the message's attachment if it has one (a host call's JSON).
//! A frame may carry one file descriptor (`SCM_RIGHTS`) on its first byte, which is how new sockets
//! travel: the host hands the zygote one end of each child's socket, and a session holder hands the host
//! the line of its standby.

use std::io::{self, IoSlice, IoSliceMut, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::net::UnixStream;

use nix::sys::socket::{ControlMessage, ControlMessageOwned, MsgFlags, recvmsg, sendmsg};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::{RunReport, RunSpec};
use crate::host_error::HostError;

/// The environment variable that starts an executable as a worker (its value says which: `zygote`, or a
/// stdio MCP server's jail launcher).
pub(crate) const WORKER_ENV: &str = "TOOLPLANE_WORKER";
/// The recursion limit the zygote's interpreter is built with.
pub(crate) const RECURSION_ENV: &str = "TOOLPLANE_WORKER_RECURSION";
/// Set (to anything) to keep the zygote off huge pages: for comparisons (`cargo perf`).
pub(crate) const NO_HUGE_PAGES_ENV: &str = "TOOLPLANE_NO_HUGE_PAGES";
/// Exit code of a child whose allocator failed (it then aborts; the SIGABRT handler exits with this).
pub(crate) const EXIT_OUT_OF_MEMORY: i32 = 86;
/// Exit code of a child stopped at a forbidden system call (it reported the call on its line first).
pub(crate) const EXIT_FORBIDDEN_SYSCALL: i32 = 87;
/// Exit code of a child that aborted (`abort()` raises SIGABRT with `tgkill`, which the jail refuses:
/// the child ends with this code instead, reported as SIGABRT).
pub(crate) const EXIT_ABORTED: i32 = 88;
/// Exit code of a child that could not enter its jail: it runs no snippet.
pub(crate) const EXIT_NO_JAIL: i32 = 89;

/// Bumped when the messages change: the host refuses a worker that speaks another version.
pub(crate) const PROTOCOL_VERSION: u32 = 4;

/// JSON text that travels right after its frame as raw bytes; the frame's JSON holds only its length.
/// Host calls carry their params and replies so: a saved value can be megabytes, and sent as it is (one
/// vectored write, no copy) it is neither escaped nor scanned on the way. The one reader that parses it
/// (the bridge on the host, the snippet's converter in the sandbox) is the one that checks it.
#[derive(Debug, Default)]
pub(crate) struct Attachment {
    /// The length the frame announced, until [`recv`] has read the text.
    len: u64,
    text: String,
}

impl Attachment {
    pub(crate) fn new(text: String) -> Self {
        Self {
            len: text.len() as u64,
            text,
        }
    }

    pub(crate) fn into_text(self) -> String {
        self.text
    }
}

impl Serialize for Attachment {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u64(self.text.len() as u64)
    }
}

impl<'de> Deserialize<'de> for Attachment {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Self {
            len: u64::deserialize(deserializer)?,
            text: String::new(),
        })
    }
}

/// A message that may carry an [`Attachment`]: [`send`] writes it after the frame and [`recv`] reads
/// it, so no caller can leave one unread in the stream.
pub(crate) trait Framed {
    fn attachment(&self) -> Option<&Attachment> {
        None
    }
    fn attachment_mut(&mut self) -> Option<&mut Attachment> {
        None
    }
}

impl Framed for ToZygote {}
impl Framed for FromZygote {}

impl Framed for ToChild {
    fn attachment(&self) -> Option<&Attachment> {
        match self {
            ToChild::Reply {
                reply: Ok(text), ..
            } => Some(text),
            _ => None,
        }
    }
    fn attachment_mut(&mut self) -> Option<&mut Attachment> {
        match self {
            ToChild::Reply {
                reply: Ok(text), ..
            } => Some(text),
            _ => None,
        }
    }
}

impl Framed for FromChild {
    fn attachment(&self) -> Option<&Attachment> {
        match self {
            FromChild::Call { params, .. } => Some(params),
            _ => None,
        }
    }
    fn attachment_mut(&mut self) -> Option<&mut Attachment> {
        match self {
            FromChild::Call { params, .. } => Some(params),
            _ => None,
        }
    }
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
        reply: Result<Attachment, HostError>,
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
        params: Attachment,
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

/// Sends one frame and its attachment, with `fd` attached when given: one vectored write, so an
/// attachment is never copied into the frame.
pub(crate) fn send<T: Serialize + Framed>(
    stream: &UnixStream,
    message: &T,
    fd: Option<RawFd>,
) -> io::Result<()> {
    let mut frame = vec![0u8; 4];
    serde_json::to_writer(&mut frame, message).map_err(io::Error::other)?;
    let body = u32::try_from(frame.len() - 4).map_err(io::Error::other)?;
    frame[..4].copy_from_slice(&body.to_le_bytes());
    let attachment = message.attachment().map_or(&b""[..], |a| a.text.as_bytes());
    let mut parts = [IoSlice::new(&frame), IoSlice::new(attachment)];
    let mut parts: &mut [IoSlice<'_>] = &mut parts;
    if let Some(fd) = fd {
        let fds = [fd];
        let cmsg = [ControlMessage::ScmRights(&fds)];
        let sent = loop {
            match sendmsg::<()>(
                stream.as_raw_fd(),
                parts,
                &cmsg,
                MsgFlags::MSG_NOSIGNAL,
                None,
            ) {
                Err(nix::errno::Errno::EINTR) => continue,
                other => break other.map_err(io::Error::from)?,
            }
        };
        IoSlice::advance_slices(&mut parts, sent);
    }
    let mut writer = stream;
    while !parts.is_empty() {
        match writer.write_vectored(parts) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => IoSlice::advance_slices(&mut parts, n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Reads the attachment of `len` bytes that follows a frame, as UTF-8 text. Refused beyond the frame
/// limit: a misbehaving worker cannot make the host allocate without bound.
fn recv_attachment(stream: &UnixStream, len: u64) -> io::Result<String> {
    let len = usize::try_from(len)
        .ok()
        .filter(|&len| len <= MAX_FRAME_BYTES)
        .ok_or_else(|| io::Error::other(format!("attachment of {len} bytes refused")))?;
    let mut text = Vec::with_capacity(len);
    let got = stream.take(len as u64).read_to_end(&mut text)?;
    if got < len {
        return Err(io::ErrorKind::UnexpectedEof.into());
    }
    String::from_utf8(text).map_err(io::Error::other)
}

/// Whether a frame (or its start) is waiting on `stream` now.
pub(crate) fn readable_now(stream: &UnixStream) -> bool {
    readable_within(stream, std::time::Duration::ZERO)
}

/// Whether a frame arrives on `stream` within `wait` (a blocking poll; whole milliseconds).
pub(crate) fn readable_within(stream: &UnixStream, wait: std::time::Duration) -> bool {
    let mut poll = libc::pollfd {
        fd: stream.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    let timeout = i32::try_from(wait.as_millis()).unwrap_or(i32::MAX);
    loop {
        // SAFETY: one valid pollfd.
        let ready = unsafe { libc::poll(&mut poll, 1, timeout) };
        if ready >= 0 {
            return ready > 0 && poll.revents & libc::POLLIN != 0;
        }
        if io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            return false;
        }
    }
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

/// Receives one frame and its attachment, and the descriptor that came with it if any. End of stream
/// is `UnexpectedEof`.
pub(crate) fn recv<T: DeserializeOwned + Framed>(
    stream: &UnixStream,
) -> io::Result<(T, Option<OwnedFd>)> {
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
    let mut message: T = serde_json::from_slice(&body).map_err(io::Error::other)?;
    if let Some(attachment) = message.attachment_mut() {
        attachment.text = recv_attachment(stream, attachment.len)?;
    }
    Ok((message, fd))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(ticket: u64, text: &str) -> ToChild {
        ToChild::Reply {
            ticket,
            reply: Ok(Attachment::new(text.into())),
        }
    }

    fn text_of(message: ToChild) -> (u64, String) {
        match message {
            ToChild::Reply {
                ticket,
                reply: Ok(text),
            } => (ticket, text.into_text()),
            other => panic!("not a reply: {other:?}"),
        }
    }

    /// An attachment larger than the socket's buffer arrives whole, and the frame after it is read
    /// from its own start: whoever receives a reply, its text never stays in the stream.
    #[test]
    fn attachments_travel_whole_and_in_order() {
        let (host, child) = UnixStream::pair().unwrap();
        let big = format!("[{}1]", "1, ".repeat(1 << 20));
        let sent = big.clone();
        let writer = std::thread::spawn(move || {
            send(&host, &reply(1, &sent), None).unwrap();
            send(&host, &reply(2, "\"é\""), None).unwrap();
            send(&host, &ToChild::Promote, None).unwrap();
            let failed = ToChild::Reply {
                ticket: 3,
                reply: Err(HostError::value("no")),
            };
            send(&host, &failed, None).unwrap();
        });
        assert_eq!(text_of(recv(&child).unwrap().0), (1, big));
        assert_eq!(text_of(recv(&child).unwrap().0), (2, "\"é\"".into()));
        assert!(matches!(recv(&child).unwrap().0, ToChild::Promote));
        assert!(matches!(
            recv(&child).unwrap().0,
            ToChild::Reply {
                ticket: 3,
                reply: Err(_)
            }
        ));
        writer.join().unwrap();
    }

    /// A frame may carry a descriptor and an attachment together.
    #[test]
    fn a_descriptor_and_an_attachment_share_a_frame() {
        let (host, child) = UnixStream::pair().unwrap();
        let (spare, _other) = UnixStream::pair().unwrap();
        let call = FromChild::Call {
            ticket: 7,
            name: "save_result".into(),
            params: Attachment::new("{\"value\": 1}".into()),
        };
        send(&child, &call, Some(spare.as_raw_fd())).unwrap();
        let (message, fd) = recv::<FromChild>(&host).unwrap();
        assert!(fd.is_some());
        match message {
            FromChild::Call {
                ticket,
                name,
                params,
            } => {
                assert_eq!((ticket, name.as_str()), (7, "save_result"));
                assert_eq!(params.into_text(), "{\"value\": 1}");
            }
            other => panic!("{other:?}"),
        }
    }

    /// A worker cannot make the host allocate past the frame limit, nor pass text that is not UTF-8.
    #[test]
    fn oversized_or_invalid_attachments_are_refused() {
        let (host, child) = UnixStream::pair().unwrap();
        let body = format!(
            "{{\"Call\":{{\"ticket\":1,\"name\":\"x\",\"params\":{}}}}}",
            MAX_FRAME_BYTES + 1
        );
        let mut writer = &child;
        writer
            .write_all(&(body.len() as u32).to_le_bytes())
            .unwrap();
        writer.write_all(body.as_bytes()).unwrap();
        let refused = recv::<FromChild>(&host).unwrap_err();
        assert!(refused.to_string().contains("refused"), "{refused}");

        let body = "{\"Call\":{\"ticket\":1,\"name\":\"x\",\"params\":2}}";
        writer
            .write_all(&(body.len() as u32).to_le_bytes())
            .unwrap();
        writer.write_all(body.as_bytes()).unwrap();
        writer.write_all(&[0xff, 0xfe]).unwrap();
        assert!(recv::<FromChild>(&host).is_err());
    }
}
