//! The stores on Redis (or Valkey), for the replicas of a team's server: `[stores] url`.
//!
//! One scope's entries of one kind (`res`, `art`) live under `PREFIX:SCOPE:KIND:`:
//! `…:e:HANDLE` (a hash: `data` and the metadata), `…:index` (handles by save time, for order and
//! the TTL purge), `…:sizes` (what each counts) and `…:total`. A save is one Lua script — purge the
//! expired, check the caps, insert — so the caps hold across replicas; an entry expires by Redis's
//! own TTL (`PEXPIRE`), and the time is Redis's (`TIME`), one clock for every replica.
//!
//! Calls block the calling thread (the bridge's stores are synchronous, called from a run's thread)
//! on a small pool of connections; a broken connection is dropped and the next call opens another.

use std::sync::{Arc, Mutex};

use super::ledger::{Caps, Wording, refusal};
use crate::host_error::HostError;

/// Connections to one Redis, shared by every store of a runtime.
pub(crate) struct RedisStores {
    client: redis::Client,
    idle: Mutex<Vec<redis::Connection>>,
    prefix: String,
    save: redis::Script,
}

impl std::fmt::Debug for RedisStores {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStores")
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

/// How long connecting and each command may take before the store says Redis is unreachable.
const REDIS_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);
/// Connections kept open for later calls (more are opened while busy, then closed).
const IDLE_CONNECTIONS: usize = 16;

/// KEYS: index, sizes, total. ARGV: entry-key prefix, handle, size, max_entry_bytes, max_entries,
/// max_total_bytes, ttl_ms, then field/value pairs of the entry. Returns {0} when saved, else
/// {1, entries, total} (the caller phrases the refusal from them, as the in-process store does).
const SAVE_SCRIPT: &str = r"
local index, sizes, total_key = KEYS[1], KEYS[2], KEYS[3]
local entry_prefix, handle = ARGV[1], ARGV[2]
local size, max_entry, max_entries, max_total, ttl = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for _, old in ipairs(redis.call('ZRANGEBYSCORE', index, '-inf', '(' .. (now - ttl))) do
  redis.call('DECRBY', total_key, tonumber(redis.call('HGET', sizes, old) or '0'))
  redis.call('HDEL', sizes, old)
  redis.call('ZREM', index, old)
  redis.call('DEL', entry_prefix .. old)
end
local entries = redis.call('ZCARD', index)
local total = tonumber(redis.call('GET', total_key) or '0')
if size > max_entry or entries >= max_entries or total + size > max_total then
  return {1, entries, total}
end
local entry = entry_prefix .. handle
for i = 8, #ARGV, 2 do
  redis.call('HSET', entry, ARGV[i], ARGV[i + 1])
end
redis.call('HSET', entry, 'saved_ms', now)
redis.call('PEXPIRE', entry, ttl)
-- Saves within one millisecond keep the order they were made in (ZRANGE orders tied scores by
-- handle, which is random): such a save goes a microsecond after the newest.
local score = now
local newest = redis.call('ZRANGE', index, -1, -1, 'WITHSCORES')
if newest[2] and tonumber(newest[2]) >= score then
  score = tonumber(newest[2]) + 0.001
end
redis.call('ZADD', index, score, handle)
redis.call('HSET', sizes, handle, size)
redis.call('INCRBY', total_key, size)
for _, key in ipairs(KEYS) do
  redis.call('PEXPIRE', key, ttl)
end
return {0}
";

impl RedisStores {
    /// Connects to `url` (a `redis://` URL) and checks it answers. The error says why, without the
    /// URL's password.
    pub(crate) fn connect(url: &str, prefix: &str) -> Result<Arc<Self>, String> {
        let client = redis::Client::open(url).map_err(|e| format!("not a Redis URL: {e}"))?;
        let stores = Self {
            client,
            idle: Mutex::new(Vec::new()),
            prefix: prefix.to_string(),
            save: redis::Script::new(SAVE_SCRIPT),
        };
        stores
            .with_connection(|c| redis::cmd("PING").query::<String>(c))
            .map_err(|e| e.message)?;
        Ok(Arc::new(stores))
    }

    fn with_connection<T>(
        &self,
        call: impl FnOnce(&mut redis::Connection) -> redis::RedisResult<T>,
    ) -> Result<T, HostError> {
        let idle = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let mut connection = match idle {
            Some(connection) => connection,
            None => self
                .client
                .get_connection_with_timeout(REDIS_TIMEOUT)
                .and_then(|c| {
                    c.set_read_timeout(Some(REDIS_TIMEOUT))?;
                    c.set_write_timeout(Some(REDIS_TIMEOUT))?;
                    Ok(c)
                })
                .map_err(unreachable)?,
        };
        let outcome = call(&mut connection).map_err(unreachable)?;
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        if idle.len() < IDLE_CONNECTIONS {
            idle.push(connection);
        }
        Ok(outcome)
    }

    /// One kind of entries (`res`, `art`) of one scope.
    pub(crate) fn ledger(
        self: &Arc<Self>,
        scope: &str,
        kind: &str,
        caps: Caps,
        wording: &'static Wording,
    ) -> RedisLedger {
        RedisLedger {
            stores: self.clone(),
            base: format!("{}:{scope}:{kind}:", self.prefix),
            caps,
            wording,
        }
    }
}

/// A store's error when Redis does not answer: a `ValueError` (a store error) that says so, without
/// the host's address.
fn unreachable(e: redis::RedisError) -> HostError {
    HostError::value(format!(
        "the store on Redis did not answer ({}); nothing was saved or read",
        e.category()
    ))
}

/// One scope's entries of one kind on Redis.
#[derive(Debug)]
pub(crate) struct RedisLedger {
    stores: Arc<RedisStores>,
    /// `PREFIX:SCOPE:KIND:`
    base: String,
    caps: Caps,
    wording: &'static Wording,
}

/// One entry as read back: its fields (`data` and the metadata) and its age.
pub(crate) struct Stored {
    pub(crate) fields: std::collections::HashMap<String, Vec<u8>>,
    pub(crate) size: usize,
    pub(crate) age_seconds: f64,
}

impl Stored {
    pub(crate) fn text(&self, field: &str) -> Option<String> {
        self.fields
            .get(field)
            .map(|v| String::from_utf8_lossy(v).into_owned())
    }
}

impl RedisLedger {
    fn ttl_ms(&self) -> u64 {
        // At least a millisecond: PEXPIRE 0 would delete at once.
        ((self.caps.ttl_seconds * 1000.0).ceil() as u64).max(1)
    }

    /// Saves `fields` under `handle`, counting `size` bytes, if the caps allow (the refusal is
    /// phrased by `too_large` and the store's wording, as the in-process store's).
    pub(crate) fn save(
        &self,
        handle: &str,
        size: usize,
        fields: &[(&str, &[u8])],
        too_large: impl FnOnce(usize) -> String,
    ) -> Result<(), HostError> {
        let base = &self.base;
        let mut invocation = self.stores.save.prepare_invoke();
        invocation
            .key(format!("{base}index"))
            .key(format!("{base}sizes"))
            .key(format!("{base}total"))
            .arg(format!("{base}e:"))
            .arg(handle)
            .arg(size)
            .arg(self.caps.max_entry_bytes)
            .arg(self.caps.max_entries)
            .arg(self.caps.max_total_bytes)
            .arg(self.ttl_ms());
        invocation.arg("counted").arg(size);
        for (field, value) in fields {
            invocation.arg(*field).arg(*value);
        }
        let reply: Vec<i64> = self.stores.with_connection(|c| invocation.invoke(c))?;
        match reply.as_slice() {
            [0] => Ok(()),
            [_, entries, total] => {
                let count = |n: i64| usize::try_from(n).unwrap_or(0);
                let refused = refusal(
                    &self.caps,
                    self.wording,
                    size,
                    count(*entries),
                    count(*total),
                    too_large,
                )
                .unwrap_or_else(|| format!("{} refused the save", self.wording.store));
                Err(HostError::value(refused))
            }
            _ => Err(HostError::value(format!(
                "{} answered a save with {reply:?}",
                self.wording.store
            ))),
        }
    }

    /// The entry under `handle`, if it is live.
    pub(crate) fn get(&self, handle: &str) -> Result<Option<Stored>, HostError> {
        let key = format!("{}e:{handle}", self.base);
        let (fields, ttl_left): (std::collections::HashMap<String, Vec<u8>>, i64) =
            self.stores.with_connection(|c| {
                redis::pipe()
                    .cmd("HGETALL")
                    .arg(&key)
                    .cmd("PTTL")
                    .arg(&key)
                    .query(c)
            })?;
        if fields.is_empty() || !fields.contains_key("data") {
            return Ok(None);
        }
        let size = fields
            .get("counted")
            .and_then(|v| std::str::from_utf8(v).ok()?.parse().ok())
            .unwrap_or(0);
        let age_seconds = (self.ttl_ms() as f64 - ttl_left.max(0) as f64) / 1000.0;
        Ok(Some(Stored {
            fields,
            size,
            age_seconds,
        }))
    }

    /// The live entries, oldest first, with their handles (without their data).
    pub(crate) fn list(&self, fields: &[&str]) -> Result<Vec<(String, Stored)>, HostError> {
        let handles: Vec<String> = self.stores.with_connection(|c| {
            redis::cmd("ZRANGE")
                .arg(format!("{}index", self.base))
                .arg(0)
                .arg(-1)
                .query(c)
        })?;
        let mut wanted: Vec<&str> = vec!["counted"];
        wanted.extend_from_slice(fields);
        let mut pipe = redis::pipe();
        for handle in &handles {
            let key = format!("{}e:{handle}", self.base);
            pipe.cmd("HMGET")
                .arg(&key)
                .arg(&wanted)
                .cmd("PTTL")
                .arg(&key);
        }
        let replies: Vec<(Vec<Option<Vec<u8>>>, i64)> = if handles.is_empty() {
            Vec::new()
        } else {
            self.stores.with_connection(|c| pipe.query(c))?
        };
        Ok(handles
            .into_iter()
            .zip(replies)
            // An entry Redis expired is no longer there (PTTL -2).
            .filter(|(_, (_, ttl_left))| *ttl_left >= 0)
            .map(|(handle, (values, ttl_left))| {
                let fields: std::collections::HashMap<String, Vec<u8>> = wanted
                    .iter()
                    .zip(values)
                    .filter_map(|(name, value)| Some((name.to_string(), value?)))
                    .collect();
                let size = fields
                    .get("counted")
                    .and_then(|v| std::str::from_utf8(v).ok()?.parse().ok())
                    .unwrap_or(0);
                let age_seconds = (self.ttl_ms() as f64 - ttl_left as f64) / 1000.0;
                (
                    handle,
                    Stored {
                        fields,
                        size,
                        age_seconds,
                    },
                )
            })
            .collect())
    }

    /// The bytes counted against `max_total_bytes` (expired entries count until the next save
    /// purges them).
    pub(crate) fn total(&self) -> Result<usize, HostError> {
        let total: Option<i64> = self.stores.with_connection(|c| {
            redis::cmd("GET")
                .arg(format!("{}total", self.base))
                .query(c)
        })?;
        Ok(total.map_or(0, |t| usize::try_from(t).unwrap_or(0)))
    }
}
