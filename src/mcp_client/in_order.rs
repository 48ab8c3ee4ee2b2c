//! A cancellation never reaches a server before the request it cancels.
//!
//! rmcp writes each outgoing message from a task of its own, so two messages issued in order can reach
//! the wire in either order on a multi-threaded runtime. A server ignores a `notifications/cancelled`
//! for an id it has not seen (the spec says so), and then runs the call for a run that has gone. This
//! transport holds a cancellation back until its request's write has finished (or failed, or was
//! dropped); every other message goes out as before, so calls still overlap.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rmcp::model::{ClientNotification, JsonRpcMessage, RequestId};
use rmcp::service::{RoleClient, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::sync::watch;

/// Requests whose write has not finished, each with a receiver that wakes when it has.
type Writing = Arc<Mutex<HashMap<RequestId, watch::Receiver<()>>>>;

/// `inner`, with each cancellation written after its request.
pub(super) struct CancelsAfterRequests<T> {
    inner: T,
    writing: Writing,
}

impl<T> CancelsAfterRequests<T> {
    pub(super) fn new(inner: T) -> Self {
        Self {
            inner,
            writing: Arc::default(),
        }
    }
}

/// Marks a request's write finished when dropped: after the write, or with it if it is abandoned.
struct WriteOf {
    writing: Writing,
    id: RequestId,
    // Dropping the sender wakes the receivers.
    _done: watch::Sender<()>,
}

impl Drop for WriteOf {
    fn drop(&mut self) {
        self.writing
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&self.id);
    }
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for CancelsAfterRequests<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let mut write_of = None;
        let mut after = None;
        match &item {
            JsonRpcMessage::Request(request) => {
                let (done, finished) = watch::channel(());
                let mut writing = self.writing.lock().unwrap_or_else(|e| e.into_inner());
                writing.insert(request.id.clone(), finished);
                write_of = Some(WriteOf {
                    writing: self.writing.clone(),
                    id: request.id.clone(),
                    _done: done,
                });
            }
            JsonRpcMessage::Notification(notification) => {
                if let ClientNotification::CancelledNotification(cancelled) =
                    &notification.notification
                    && let Some(id) = &cancelled.params.request_id
                {
                    let writing = self.writing.lock().unwrap_or_else(|e| e.into_inner());
                    after = writing.get(id).cloned();
                }
            }
            _ => {}
        }
        // Called here, in the order rmcp issues the messages; what waits is only the write.
        let write = self.inner.send(item);
        async move {
            if let Some(mut request) = after {
                // Ends with an error once the request's `WriteOf` is dropped: then it is written.
                let _ = request.changed().await;
            }
            let written = write.await;
            drop(write_of);
            written
        }
    }

    fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<RoleClient>>> + Send {
        self.inner.receive()
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}
