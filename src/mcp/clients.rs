//! Whose stores and session a request gets. Over stdio the one client has the runtime's own; over
//! HTTP each client has its own ([`crate::ClientScope`]): each MCP session, or with bearer tokens
//! each principal, so a handle one saved is unknown to every other. A client's data lives as long
//! as the MCP session holding it (rmcp drops the session's server, and with it the data, when the
//! session is deleted, expires or the server stops), or for a principal until it has been idle for
//! `[http] idle_expiry_seconds`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::{Duration, Instant};

use serde_json::{Map, Value};

use crate::cancel::CancelToken;
use crate::error::Error;
use crate::execution::ExecutionResult;
use crate::runtime::{ClientScope, Session, Toolplane};
use crate::stores::{ArtifactStore, ResultStore};

/// One client's stores and, when on, its session.
pub(super) struct Client {
    /// `None`: the runtime's own stores (stdio, or HTTP with the stores off).
    scope: Option<ClientScope>,
    /// The session; its lock serialises the client's runs in arrival order (tokio's mutex is fair).
    pub(super) session: Option<tokio::sync::Mutex<Session>>,
    last_used: Mutex<Instant>,
}

impl Client {
    fn new(scope: Option<ClientScope>, session: Option<Session>) -> Self {
        Self {
            scope,
            session: session.map(tokio::sync::Mutex::new),
            last_used: Mutex::new(Instant::now()),
        }
    }

    pub(super) fn results<'a>(&'a self, runtime: &'a Toolplane) -> &'a Arc<ResultStore> {
        self.scope
            .as_ref()
            .map_or_else(|| runtime.results(), ClientScope::results)
    }

    pub(super) fn artifacts<'a>(&'a self, runtime: &'a Toolplane) -> &'a Arc<ArtifactStore> {
        self.scope
            .as_ref()
            .map_or_else(|| runtime.artifacts(), ClientScope::artifacts)
    }

    /// A fresh run with this client's stores.
    pub(super) fn execute_fresh(
        &self,
        runtime: &Toolplane,
        code: &str,
        inputs: Option<Map<String, Value>>,
        cancel: &CancelToken,
    ) -> Result<ExecutionResult, Error> {
        match &self.scope {
            Some(scope) => scope.execute_cancellable(code, inputs, cancel),
            None => runtime.execute_cancellable(code, inputs, cancel),
        }
    }

    fn touch(&self) {
        *self.last_used.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
    }

    fn idle_for(&self) -> Duration {
        self.last_used
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .elapsed()
    }

    /// Removes the artifact directory now (the server is stopping).
    fn close(&self) {
        if let Some(scope) = &self.scope {
            scope.artifacts().close();
        }
    }
}

/// How a server hands out [`Client`]s.
pub(super) enum Clients {
    /// One client (stdio), or HTTP with `[http] per_client_stores = false` (stores disabled): every
    /// request gets the runtime's own stores and its one session, if any.
    Shared(Arc<Client>),
    /// Each MCP session, or each principal, its own.
    PerClient(PerClient),
}

pub(super) struct PerClient {
    session_on: bool,
    principals: Mutex<HashMap<Arc<str>, Arc<Client>>>,
    /// Every client made, for [`Clients::close_all`]; dead ones are pruned as new ones come.
    made: Mutex<Vec<Weak<Client>>>,
}

/// What one MCP session's server holds: its client, made at its first request that needs one.
pub(super) type SessionSlot = Arc<OnceLock<Arc<Client>>>;

impl Clients {
    pub(super) fn shared(runtime: &Toolplane, session_on: bool) -> Self {
        Self::Shared(Arc::new(Client::new(
            None,
            session_on.then(|| runtime.session()),
        )))
    }

    pub(super) fn per_client(session_on: bool) -> Self {
        Self::PerClient(PerClient {
            session_on,
            principals: Mutex::default(),
            made: Mutex::default(),
        })
    }

    pub(super) fn is_per_client(&self) -> bool {
        matches!(self, Self::PerClient(_))
    }

    /// The client of a request: `principal`'s when the request was authenticated, else the MCP
    /// session's own (kept in `slot`).
    pub(super) fn get(
        &self,
        runtime: &Toolplane,
        principal: Option<&str>,
        slot: &SessionSlot,
    ) -> Arc<Client> {
        let per_client = match self {
            Self::Shared(client) => return client.clone(),
            Self::PerClient(per_client) => per_client,
        };
        let client = match principal {
            Some(principal) => {
                let mut principals = lock(&per_client.principals);
                match principals.get(principal) {
                    Some(client) => client.clone(),
                    None => {
                        let client = per_client.make(runtime, principal);
                        principals.insert(principal.into(), client.clone());
                        client
                    }
                }
            }
            None => slot
                // Unguessable and unique across replicas: on Redis the name is the stores' scope.
                .get_or_init(|| {
                    per_client.make(runtime, &crate::stores::new_handle("mcp-session-"))
                })
                .clone(),
        };
        client.touch();
        client
    }

    /// Ends the principals idle for `idle` with no request in flight: their stores and session go.
    pub(super) fn expire_idle(&self, idle: Duration) {
        if let Self::PerClient(per_client) = self {
            lock(&per_client.principals)
                .retain(|_, client| Arc::strong_count(client) > 1 || client.idle_for() < idle);
        }
    }

    /// How many clients hold stores now (principals and MCP sessions).
    pub(super) fn live(&self) -> usize {
        match self {
            Self::Shared(_) => 1,
            Self::PerClient(per_client) => lock(&per_client.made)
                .iter()
                .filter(|c| c.strong_count() > 0)
                .count(),
        }
    }

    /// The server is stopping: every client's artifact directory goes now, and the principals'
    /// sessions with their data.
    pub(super) fn close_all(&self) {
        if let Self::PerClient(per_client) = self {
            lock(&per_client.principals).clear();
            for client in lock(&per_client.made).drain(..) {
                if let Some(client) = client.upgrade() {
                    client.close();
                }
            }
        }
    }
}

impl PerClient {
    fn make(&self, runtime: &Toolplane, name: &str) -> Arc<Client> {
        let scope = runtime.client_scope(name);
        let session = self.session_on.then(|| scope.session());
        let client = Arc::new(Client::new(Some(scope), session));
        let mut made = lock(&self.made);
        made.retain(|c| c.strong_count() > 0);
        made.push(Arc::downgrade(&client));
        client
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}
