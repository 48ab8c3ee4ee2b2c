//! What both stores keep the same way: their entries in save order, the bytes they count, the caps a
//! save must fit, the lazy TTL purge, and whether the store is disabled. Each store adds what its
//! entries are (a payload, a file) and phrases its own messages.

use std::collections::HashMap;
use std::sync::Arc;

use super::clock::Clock;
use crate::host_error::HostError;

/// A store's caps, as its config section gives them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Caps {
    pub(crate) max_entries: usize,
    pub(crate) max_total_bytes: usize,
    pub(crate) max_entry_bytes: usize,
    pub(crate) ttl_seconds: f64,
}

/// Why an entry counting `size` bytes does not fit a store holding `entries` entries of `total`
/// bytes, checked in the reference's order: its own size (`too_large` says so, given the limit), the
/// entry count, then the store's total. `None`: it fits. Every backend phrases refusals with this.
pub(crate) fn refusal(
    caps: &Caps,
    wording: &Wording,
    size: usize,
    entries: usize,
    total: usize,
    too_large: impl FnOnce(usize) -> String,
) -> Option<String> {
    let Caps {
        max_entries,
        max_total_bytes,
        max_entry_bytes,
        ..
    } = *caps;
    if size > max_entry_bytes {
        Some(too_large(max_entry_bytes))
    } else if entries >= max_entries {
        Some(format!(
            "{} is full ({max_entries} {}); re-use an existing handle or save less",
            wording.store, wording.entries
        ))
    } else if total + size > max_total_bytes {
        Some(format!(
            "{} would exceed its total limit of {max_total_bytes} bytes; {}",
            wording.store, wording.over_total_hint
        ))
    } else {
        None
    }
}

/// How a store names itself in the messages of the saves it refuses.
#[derive(Debug)]
pub(crate) struct Wording {
    /// "result store", "artifact store".
    pub(crate) store: &'static str,
    /// What its entries are called when it is full: "entries", "artifacts".
    pub(crate) entries: &'static str,
    /// What to do instead of a save over the total limit.
    pub(crate) over_total_hint: &'static str,
}

#[derive(Debug)]
struct Counted<E> {
    entry: E,
    /// The bytes this entry counts against the caps (its data plus its label).
    size: usize,
    saved_at: f64,
}

/// The entries of one store, with their accounting.
#[derive(Debug)]
pub(crate) struct Ledger<E> {
    caps: Caps,
    clock: Arc<dyn Clock>,
    entries: HashMap<String, Counted<E>>,
    order: Vec<String>,
    total: usize,
    disabled: Option<String>,
}

impl<E> Ledger<E> {
    /// An empty ledger; `disabled` is the message every call gets, if the store starts disabled.
    pub(crate) fn new(caps: Caps, clock: Arc<dyn Clock>, disabled: Option<String>) -> Self {
        Self {
            caps,
            clock,
            entries: HashMap::new(),
            order: Vec::new(),
            total: 0,
            disabled,
        }
    }

    /// `Err` with the store's disabled message (a `ValueError`), if it is disabled.
    pub(crate) fn check_enabled(&self) -> Result<(), HostError> {
        match &self.disabled {
            Some(reason) => Err(HostError::value(reason.clone())),
            None => Ok(()),
        }
    }

    /// The caps entries must fit.
    #[cfg(feature = "redis")]
    pub(crate) fn caps(&self) -> Caps {
        self.caps
    }

    pub(crate) fn is_enabled(&self) -> bool {
        self.disabled.is_none()
    }

    /// Drops every entry (handing each to `on_removed`) and fails every later call with `reason`.
    pub(crate) fn disable(&mut self, reason: &str, on_removed: impl FnMut(E)) {
        self.clear(on_removed);
        self.disabled = Some(reason.to_string());
    }

    /// Drops every entry, handing each to `on_removed`.
    pub(crate) fn clear(&mut self, on_removed: impl FnMut(E)) {
        self.order.clear();
        self.total = 0;
        self.entries
            .drain()
            .map(|(_, c)| c.entry)
            .for_each(on_removed);
    }

    /// Drops the entries older than the TTL, handing each to `on_expired`.
    pub(crate) fn purge(&mut self, mut on_expired: impl FnMut(E)) {
        let cutoff = self.clock.now() - self.caps.ttl_seconds;
        if self.entries.values().all(|e| e.saved_at >= cutoff) {
            return;
        }
        let Self {
            entries,
            order,
            total,
            ..
        } = self;
        order.retain(|h| {
            let expired = entries.get(h).is_some_and(|e| e.saved_at < cutoff);
            if expired && let Some(e) = entries.remove(h) {
                *total -= e.size;
                on_expired(e.entry);
            }
            !expired
        });
    }

    /// Whether an entry counting `size` bytes fits (call after [`Self::purge`]): see [`refusal`].
    pub(crate) fn admit(
        &self,
        size: usize,
        wording: &Wording,
        too_large: impl FnOnce(usize) -> String,
    ) -> Result<(), HostError> {
        match refusal(
            &self.caps,
            wording,
            size,
            self.entries.len(),
            self.total,
            too_large,
        ) {
            Some(refused) => Err(HostError::value(refused)),
            None => Ok(()),
        }
    }

    /// Records an admitted entry under `handle`, saved now.
    pub(crate) fn insert(&mut self, handle: String, entry: E, size: usize) {
        let saved_at = self.clock.now();
        self.order.push(handle.clone());
        self.entries.insert(
            handle,
            Counted {
                entry,
                size,
                saved_at,
            },
        );
        self.total += size;
    }

    pub(crate) fn get(&self, handle: &str) -> Option<&E> {
        self.entries.get(handle).map(|c| &c.entry)
    }

    /// The live entries, oldest first, each with its handle, counted size and age in seconds.
    pub(crate) fn in_order(&self) -> impl Iterator<Item = (&str, &E, usize, f64)> {
        let now = self.clock.now();
        self.order.iter().filter_map(move |h| {
            self.entries
                .get(h)
                .map(|c| (h.as_str(), &c.entry, c.size, now - c.saved_at))
        })
    }

    /// The bytes counted against `max_total_bytes`.
    pub(crate) fn total(&self) -> usize {
        self.total
    }
}
