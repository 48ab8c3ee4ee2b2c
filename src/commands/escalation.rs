//! Asking the person to allow a binary the `[cli]` allowlist refuses (`serve mcp` over stdio, through
//! MCP elicitation). Grants live here, for the life of the runtime, and never touch the config file.
//! Anything but an explicit grant (a decline, a cancel, a client without elicitation, an error, a run
//! that ended while the question was open) is exactly the refusal there would have been without asking.
// Without the MCP server (feature `mcp`) nobody installs who to ask, and `grant` always refuses.
#![cfg_attr(not(feature = "mcp"), allow(dead_code))]

use std::collections::BTreeSet;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::audit::AuditLog;

/// Asks the person one question (the prompt) and resolves to `Ok(true)` only on an explicit grant.
pub(crate) type AskPerson =
    Arc<dyn Fn(String) -> Pin<Box<dyn Future<Output = Result<bool, String>> + Send>> + Send + Sync>;

/// The binaries granted so far, the ones already asked about, and who to ask now (when anyone).
#[derive(Clone, Default)]
pub(crate) struct Escalation(Arc<Mutex<State>>);

#[derive(Default)]
struct State {
    granted: BTreeSet<String>,
    /// Asked once per binary: the answer holds either way, so a declined binary never asks again.
    asked: BTreeSet<String>,
    ask: Option<(u64, AskPerson)>,
    installed: u64,
}

impl std::fmt::Debug for Escalation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Escalation")
            .field("granted", &self.lock().granted)
            .finish_non_exhaustive()
    }
}

/// Who to ask while it lives: dropping it stops asking (if no later one replaced it).
#[must_use = "the person is asked only while the guard lives"]
pub(crate) struct AskGuard {
    escalation: Escalation,
    id: u64,
}

impl Drop for AskGuard {
    fn drop(&mut self) {
        let mut state = self.escalation.lock();
        if state.ask.as_ref().is_some_and(|(id, _)| *id == self.id) {
            state.ask = None;
        }
    }
}

/// An open question: if its call is dropped before the answer (the run ended), the binary is not
/// counted as asked, so a later run asks again instead of inheriting a stale form.
struct OpenQuestion<'a> {
    escalation: &'a Escalation,
    binary: &'a str,
    audit: Option<&'a AuditLog>,
    answered: bool,
}

impl Drop for OpenQuestion<'_> {
    fn drop(&mut self) {
        if !self.answered {
            self.escalation.lock().asked.remove(self.binary);
            outcome(self.audit, self.binary, "abandoned");
        }
    }
}

fn outcome(audit: Option<&AuditLog>, binary: &str, outcome: &str) {
    tracing::info!(binary, outcome, "CLI escalation for '{binary}': {outcome}");
    if let Some(log) = audit {
        log.emit(
            "escalation",
            None,
            serde_json::json!({"binary": binary, "outcome": outcome}),
        );
    }
}

impl Escalation {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Asks through `ask` until the guard is dropped.
    pub(crate) fn ask_with(&self, ask: AskPerson) -> AskGuard {
        let mut state = self.lock();
        state.installed += 1;
        let id = state.installed;
        state.ask = Some((id, ask));
        AskGuard {
            escalation: self.clone(),
            id,
        }
    }

    /// The binaries granted for the life of this runtime.
    pub(crate) fn granted(&self) -> BTreeSet<String> {
        self.lock().granted.clone()
    }

    /// Whether `binary` is granted now, asking the person first when someone can be asked and they
    /// were not asked about it before. `allowed` is the configured allowlist, for the prompt.
    pub(crate) async fn grant(
        &self,
        binary: &str,
        allowed: &BTreeSet<String>,
        audit: Option<&AuditLog>,
    ) -> bool {
        let ask = {
            let mut state = self.lock();
            if state.granted.contains(binary) {
                return true;
            }
            match &state.ask {
                Some((_, ask)) if !state.asked.contains(binary) => {
                    let ask = ask.clone();
                    state.asked.insert(binary.to_string());
                    ask
                }
                _ => return false,
            }
        };
        let granted = self.granted();
        let listed: BTreeSet<&str> = allowed.iter().chain(&granted).map(String::as_str).collect();
        let listed = if listed.is_empty() {
            "none".to_string()
        } else {
            listed.into_iter().collect::<Vec<_>>().join(", ")
        };
        let mut question = OpenQuestion {
            escalation: self,
            binary,
            audit,
            answered: false,
        };
        let answer = ask(prompt(binary, &listed)).await;
        question.answered = true;
        let granted = match answer {
            Ok(true) => {
                outcome(audit, binary, "granted");
                true
            }
            Ok(false) => {
                outcome(audit, binary, "declined");
                false
            }
            Err(error) => {
                tracing::debug!(binary, error, "the CLI escalation failed");
                outcome(audit, binary, "error");
                false
            }
        };
        if granted {
            self.lock().granted.insert(binary.to_string());
        }
        granted
    }
}

/// The question, as the original asks it.
pub(crate) fn prompt(binary: &str, allowed: &str) -> String {
    format!(
        "The running snippet wants to execute the CLI binary '{binary}', which is outside the Toolplane \
         allowlist (currently: {allowed}). Allow it for the rest of this server session?"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answering(answer: Result<bool, String>) -> (AskPerson, Arc<Mutex<Vec<String>>>) {
        let asked = Arc::new(Mutex::new(Vec::new()));
        let record = asked.clone();
        let ask: AskPerson = Arc::new(move |prompt| {
            record.lock().unwrap().push(prompt);
            let answer = answer.clone();
            Box::pin(async move { answer })
        });
        (ask, asked)
    }

    fn allowed() -> BTreeSet<String> {
        ["git".to_string()].into()
    }

    #[tokio::test]
    async fn a_grant_holds_for_later_calls_without_asking_again() {
        let escalation = Escalation::default();
        let (ask, asked) = answering(Ok(true));
        let _guard = escalation.ask_with(ask);
        assert!(escalation.grant("ls", &allowed(), None).await);
        assert!(escalation.grant("ls", &allowed(), None).await);
        assert_eq!(asked.lock().unwrap().len(), 1);
        assert_eq!(
            asked.lock().unwrap()[0],
            "The running snippet wants to execute the CLI binary 'ls', which is outside the Toolplane \
             allowlist (currently: git). Allow it for the rest of this server session?"
        );
        assert_eq!(escalation.granted(), ["ls".to_string()].into());
    }

    #[tokio::test]
    async fn a_decline_or_an_error_is_a_refusal_and_is_not_asked_again() {
        for answer in [Ok(false), Err("no elicitation".to_string())] {
            let escalation = Escalation::default();
            let (ask, asked) = answering(answer);
            let _guard = escalation.ask_with(ask);
            assert!(!escalation.grant("ls", &allowed(), None).await);
            assert!(!escalation.grant("ls", &allowed(), None).await);
            assert_eq!(asked.lock().unwrap().len(), 1);
            assert!(escalation.granted().is_empty());
        }
    }

    #[tokio::test]
    async fn nobody_is_asked_once_the_guard_is_gone() {
        let escalation = Escalation::default();
        let (ask, asked) = answering(Ok(true));
        drop(escalation.ask_with(ask));
        assert!(!escalation.grant("ls", &allowed(), None).await);
        assert!(asked.lock().unwrap().is_empty());
    }

    #[tokio::test]
    async fn a_question_its_run_abandoned_is_asked_again_later() {
        let escalation = Escalation::default();
        let never: AskPerson = Arc::new(|_| Box::pin(std::future::pending()));
        let guard = escalation.ask_with(never);
        let abandoned = tokio::time::timeout(
            std::time::Duration::from_millis(20),
            escalation.grant("ls", &allowed(), None),
        )
        .await;
        assert!(abandoned.is_err());
        drop(guard);
        let (ask, asked) = answering(Ok(true));
        let _guard = escalation.ask_with(ask);
        assert!(escalation.grant("ls", &allowed(), None).await);
        assert_eq!(asked.lock().unwrap().len(), 1);
    }
}
