//! `toolplane.toml`: the tables of the Python original plus `[limits]`, with defaults and validation.
//!
//! Unknown tables and keys are errors that name them; so are values out of range. A config written by
//! the Python original's `toolplane init` loads (`default_backend = "monty"` names our sandbox).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{ConfigError, Error};

/// The whole `toolplane.toml`.
///
/// ```
/// let cfg = toolplane::Config::from_toml_str("[results]\nmax_entries = 3\n").unwrap();
/// assert_eq!(cfg.results.max_entries, 3);
/// assert_eq!(cfg.limits.timeout_seconds, 30.0);
/// ```
///
/// Build one with [`Config::default`], [`Config::from_toml_str`] or [`Config::load`] and change its
/// fields: the structs are `#[non_exhaustive]`, so a new key is not a breaking change.
///
/// ```
/// let mut cfg = toolplane::Config::default();
/// cfg.results.max_entries = 10;
/// cfg.limits.max_recursion_depth = 200;
/// cfg.validate().unwrap();
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(from = "ConfigFile", into = "ConfigFile")]
#[non_exhaustive]
pub struct Config {
    /// `[toolplane]`
    pub toolplane: ToolplaneConfig,
    /// `[results]`
    pub results: ResultsConfig,
    /// `[artifacts]`
    pub artifacts: ArtifactsConfig,
    /// `[session]`
    pub session: SessionConfig,
    /// `[cli]`
    pub cli: CliConfig,
    /// `[limits]`, and `[session] max_memory_mb`: every limit in one value.
    pub limits: Limits,
    /// `[mcp]`
    pub mcp: McpConfig,
    /// `[audit]`
    pub audit: AuditConfig,
    /// `[hybrid]`
    pub hybrid: HybridConfig,
    /// `[http]`
    pub http: HttpConfig,
    /// `[stores]`
    pub stores: StoresConfig,
}

/// `[stores]`: where the result and artifact stores keep their entries. Empty `url` (the default):
/// in this process (results in memory, artifacts in a private temp directory). `url =
/// "redis://host:port/db"` (or `rediss://`, or a secret reference to one: `env://VAR`,
/// `keyring://NAME`): on Redis or Valkey, shared by every replica of a server pointed at it, keys
/// under `prefix`. Same caps, texts and handles either way; entries expire by Redis's own TTL.
///
/// ```
/// let cfg = toolplane::Config::from_toml_str("[stores]\nurl = \"redis://127.0.0.1:6379/0\"\n").unwrap();
/// assert_eq!(cfg.stores.prefix, "toolplane");
/// assert!(toolplane::Config::from_toml_str("[stores]\nurl = \"http://x\"\n").is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[non_exhaustive]
pub struct StoresConfig {
    /// `redis://…`, `rediss://…`, a secret reference to one, or empty (in this process).
    pub url: String,
    /// The first part of every key (`PREFIX:SCOPE:res:…`): servers sharing a Redis keep apart by it.
    pub prefix: String,
}

impl Default for StoresConfig {
    fn default() -> Self {
        Self {
            url: String::new(),
            prefix: "toolplane".into(),
        }
    }
}

impl StoresConfig {
    fn validate(&self) -> Result<(), ConfigError> {
        let url = self.url.trim();
        let known = [
            "redis://",
            "rediss://",
            "redis+unix://",
            "env://",
            "keyring://",
        ];
        if !url.is_empty() && !known.iter().any(|scheme| url.starts_with(scheme)) {
            return Err(ConfigError::new(
                "stores.url: redis://HOST:PORT/DB (or rediss://, redis+unix://), a secret reference \
                 (env://VAR, keyring://NAME) to one, or empty for the in-process stores"
                    .to_string(),
            )
            .at("stores.url"));
        }
        let simple = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-');
        if self.prefix.is_empty() || !self.prefix.chars().all(simple) {
            return Err(ConfigError::new(
                "stores.prefix: letters, digits, '.', '_' and '-', not empty".to_string(),
            )
            .at("stores.prefix"));
        }
        Ok(())
    }
}

/// `[http]`: what `toolplane serve mcp --transport http` asks of its clients. `tokens` names principals
/// and their bearer tokens (`alice = "env://ALICE_TOKEN"`, any secret reference `[mcp.servers.*]`
/// accepts, or a list of them for rotation): with any set, every request needs one, compared in
/// constant time, and a request without a valid one gets 401.
///
/// ```
/// let cfg = toolplane::Config::from_toml_str(
///     "[http.tokens]\nalice = \"env://ALICE_TOKEN\"\nbob = [\"keyring://bob-new\", \"keyring://bob-old\"]\n",
/// ).unwrap();
/// assert_eq!(cfg.http.tokens["bob"].len(), 2);
/// assert!(toolplane::Config::from_toml_str("[http.tokens]\n\"a b\" = \"x\"\n").is_err());
/// ```
///
/// Each client gets stores (and, with `[session] enabled`, a session) of its own: each MCP session, or
/// with tokens each principal. `per_client_stores = false` turns them off instead (the design's v1
/// fail-closed). `max_sessions` caps the MCP sessions held at once; one idle for
/// `idle_expiry_seconds` ends, and with it its stores and session (a principal's, once the
/// principal has been idle that long).
///
/// ```
/// let cfg = toolplane::Config::from_toml_str("[http]\nmax_sessions = 20\nidle_expiry_seconds = 600\n").unwrap();
/// assert!(cfg.http.per_client_stores);
/// assert_eq!((cfg.http.max_sessions, cfg.http.idle_expiry_seconds), (20, 600.0));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[non_exhaustive]
pub struct HttpConfig {
    /// Bearer tokens by principal: each principal's accepted tokens (or secret references to them).
    #[serde(deserialize_with = "one_or_many")]
    pub tokens: BTreeMap<String, Vec<String>>,
    /// Stores and sessions per client (the default); `false`: none at all over HTTP.
    pub per_client_stores: bool,
    /// The most MCP sessions held at once; the next `initialize` gets 503 with why.
    pub max_sessions: usize,
    /// Seconds without a request after which a client's MCP session, stores and session end.
    pub idle_expiry_seconds: f64,
    /// `[http.oauth]`: accept access tokens an OAuth authorization server issued for this server.
    pub oauth: Option<OAuthConfig>,
}

/// `[http.oauth]`: `serve mcp --transport http` as an OAuth 2.1 resource server (the MCP
/// authorization spec). Clients get access tokens from `issuer` (an authorization server this server
/// trusts) for the resource `audience` (this server's URL, as clients reach it); a JWT access token
/// whose signature checks against the issuer's published keys (JWKS), whose `iss`, `aud`, `exp` and
/// `nbf` hold and which carries `scopes` is accepted, and its `principal_claim` names the principal.
/// The server publishes its protected-resource metadata at
/// `/.well-known/oauth-protected-resource/mcp`.
///
/// ```
/// let cfg = toolplane::Config::from_toml_str(
///     "[http.oauth]\nissuer = \"https://auth.example.com\"\naudience = \"https://mcp.example.com/mcp\"\n",
/// ).unwrap();
/// assert_eq!(cfg.http.oauth.unwrap().principal_claim, "sub");
/// assert!(toolplane::Config::from_toml_str("[http.oauth]\nissuer = \"http://auth.example.com\"\naudience = \"https://x/mcp\"\n").is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct OAuthConfig {
    /// The authorization server (its `iss`): `https://…` (`http://` only on a loopback host).
    pub issuer: String,
    /// This server as a resource: the `aud` its tokens carry, e.g. `https://mcp.example.com/mcp`.
    pub audience: String,
    /// The claim naming the principal (default `sub`).
    #[serde(default = "default_principal_claim")]
    pub principal_claim: String,
    /// Scopes every token must carry (default none).
    #[serde(default)]
    pub scopes: Vec<String>,
    /// The JWKS URL, when the issuer's metadata does not say it.
    #[serde(default)]
    pub jwks_url: Option<String>,
    /// Clock skew allowed on `exp` and `nbf`, in seconds (default 30, at most 300).
    #[serde(default = "default_leeway_seconds")]
    pub leeway_seconds: u64,
}

fn default_leeway_seconds() -> u64 {
    30
}

fn default_principal_claim() -> String {
    "sub".into()
}

impl OAuthConfig {
    fn validate(&self) -> Result<(), ConfigError> {
        let https_or_loopback = |url: &str| {
            let Some((scheme, rest)) = url.split_once("://") else {
                return false;
            };
            let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
            let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
            let name = if host.starts_with('[') {
                host.split(']')
                    .next()
                    .unwrap_or_default()
                    .trim_start_matches('[')
            } else {
                host.split(':').next().unwrap_or_default()
            };
            let loopback = name == "localhost"
                || name
                    .parse::<std::net::IpAddr>()
                    .is_ok_and(|ip| ip.is_loopback());
            !name.is_empty() && (scheme == "https" || (scheme == "http" && loopback))
        };
        for (key, url) in [
            ("issuer", Some(&self.issuer)),
            ("audience", Some(&self.audience)),
            ("jwks_url", self.jwks_url.as_ref()),
        ] {
            if let Some(url) = url
                && !https_or_loopback(url)
            {
                return Err(ConfigError::new(format!(
                    "http.oauth.{key}: an https:// URL (http:// only on a loopback host), got {url:?}"
                ))
                .at(format!("http.oauth.{key}")));
            }
        }
        if self.leeway_seconds > 300 {
            return Err(ConfigError::new(
                "http.oauth.leeway_seconds: at most 300 (5 minutes)".to_string(),
            )
            .at("http.oauth.leeway_seconds"));
        }
        if self.principal_claim.trim().is_empty() {
            return Err(
                ConfigError::new("http.oauth.principal_claim: a claim name".to_string())
                    .at("http.oauth.principal_claim"),
            );
        }
        Ok(())
    }
}

impl Default for HttpConfig {
    fn default() -> Self {
        Self {
            tokens: BTreeMap::new(),
            per_client_stores: true,
            max_sessions: 100,
            idle_expiry_seconds: 900.0,
            oauth: None,
        }
    }
}

/// A principal's token, or a list of them.
fn one_or_many<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<BTreeMap<String, Vec<String>>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    let map = BTreeMap::<String, OneOrMany>::deserialize(deserializer)?;
    Ok(map
        .into_iter()
        .map(|(principal, tokens)| match tokens {
            OneOrMany::One(token) => (principal, vec![token]),
            OneOrMany::Many(tokens) => (principal, tokens),
        })
        .collect())
}

impl HttpConfig {
    /// `idle_expiry_seconds` as a duration.
    pub fn idle_expiry(&self) -> std::time::Duration {
        std::time::Duration::from_secs_f64(self.idle_expiry_seconds)
    }

    fn validate(&self, limits: &Limits) -> Result<(), ConfigError> {
        if self.max_sessions == 0 {
            return Err(
                ConfigError::new("http.max_sessions: must be at least 1".to_string())
                    .at("http.max_sessions"),
            );
        }
        // A run is no activity to the transport: a shorter expiry would end a session mid-run.
        if !(self.idle_expiry_seconds.is_finite()
            && self.idle_expiry_seconds > limits.timeout_seconds
            && self.idle_expiry_seconds <= MAX_IDLE_EXPIRY_SECONDS)
        {
            return Err(ConfigError::new(format!(
                "http.idle_expiry_seconds: must be longer than [limits] timeout_seconds ({}) and at \
                 most {MAX_IDLE_EXPIRY_SECONDS} (30 days)",
                limits.timeout_seconds
            ))
            .at("http.idle_expiry_seconds"));
        }
        if let Some(oauth) = &self.oauth {
            oauth.validate()?;
        }
        for (principal, tokens) in &self.tokens {
            let at = format!("http.tokens.{principal}");
            if check_secret_name(principal).is_err() {
                return Err(ConfigError::new(format!(
                    "{at}: a principal's name is letters, digits, '.', '_' and '-'"
                ))
                .at(&at));
            }
            if tokens.is_empty() {
                return Err(ConfigError::new(format!("{at}: needs a token")).at(&at));
            }
            for token in tokens {
                let empty_reference = matches!(token.as_str(), "env://" | "keyring://");
                let bad_name = token
                    .strip_prefix("keyring://")
                    .is_some_and(|name| check_secret_name(name).is_err());
                if token.trim().is_empty() || empty_reference || bad_name {
                    return Err(ConfigError::new(format!(
                        "{at}: a token is env://VAR, keyring://NAME or the token itself, not empty"
                    ))
                    .at(&at));
                }
            }
        }
        Ok(())
    }
}

/// `[hybrid]`: capabilities `toolplane serve mcp` also offers as ordinary MCP tools, beside its three
/// code-mode tools — a curated few for single calls; loops and joins stay in `execute_code`. Each
/// `include` entry is a canonical name (`mcp:orders/get_order`), a glob on it (`mcp:orders/*`) or
/// `tag:<name>`; a bare `*` (everything) is refused, as the original refuses it.
///
/// ```
/// let cfg = toolplane::Config::from_toml_str("[hybrid]\nenabled = true\ninclude = [\"mcp:linear/*\", \"tag:lookup\"]\n").unwrap();
/// assert_eq!(cfg.hybrid.include.len(), 2);
/// assert!(toolplane::Config::from_toml_str("[hybrid]\nenabled = true\ninclude = [\"*\"]\n").is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
#[non_exhaustive]
pub struct HybridConfig {
    /// Off unless set.
    pub enabled: bool,
    /// Which capabilities: names, globs, `tag:<name>`.
    pub include: Vec<String>,
}

/// `[audit]`: an opt-in JSONL log of what runs did — run start and end, every host call (capability,
/// MCP server, duration, outcome), discovery — never arguments, results or code (payloads can carry
/// secrets; code is logged as a hash and a length). The original's events and fields.
///
/// ```
/// let cfg = toolplane::Config::from_toml_str("[audit]\nenabled = true\npath = \"/tmp/audit.jsonl\"\n").unwrap();
/// assert!(cfg.audit.enabled);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
#[non_exhaustive]
pub struct AuditConfig {
    /// Off unless set.
    pub enabled: bool,
    /// The file events are appended to (`~` is the home directory); default
    /// `~/.toolplane/audit.jsonl`, as the original's.
    pub path: Option<String>,
}

/// `[mcp]`: MCP servers whose tools snippets can call, each `[mcp.servers.NAME]` (the common
/// `mcpServers` entry: `command`/`args`/`env`/`cwd` for a server this host starts over stdio, or
/// `url`/`headers` for one over streamable HTTP).
///
/// ```
/// let cfg = toolplane::Config::from_toml_str(
///     "[mcp.servers.files]\ncommand = \"npx\"\nargs = [\"-y\", \"@modelcontextprotocol/server-filesystem\", \"/tmp\"]\n",
/// ).unwrap();
/// assert_eq!(cfg.mcp.servers["files"].command.as_deref(), Some("npx"));
/// let err = toolplane::Config::from_toml_str("[mcp.servers.x]\nurl = \"http://h/mcp\"\ncommand = \"y\"\n").unwrap_err();
/// let toolplane::Error::Config(err) = err else { panic!("{err}") };
/// assert_eq!(err.key(), Some("mcp.servers.x"));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[non_exhaustive]
pub struct McpConfig {
    /// `[mcp.servers.NAME]`, by name (`^[A-Za-z0-9_-]+$`).
    pub servers: BTreeMap<String, McpServerConfig>,
    /// How long connecting to one server and listing its tools may take before it is skipped
    /// (seconds; the original's 10).
    pub discovery_timeout_seconds: f64,
}

/// One `[mcp.servers.NAME]`. Values of `env` and `headers` may be `env://VAR`: read from the host's
/// environment when the server is connected, never shown.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
#[non_exhaustive]
pub struct McpServerConfig {
    /// The program of a stdio server (started by the host, never reachable from the sandbox).
    pub command: Option<String>,
    /// Its arguments.
    pub args: Vec<String>,
    /// Its environment, on top of a minimal base (`PATH`, `HOME`, `LANG`, …), not the host's whole one.
    pub env: BTreeMap<String, String>,
    /// Its working directory.
    pub cwd: Option<PathBuf>,
    /// The endpoint of a streamable-HTTP server.
    pub url: Option<String>,
    /// HTTP headers sent to it (`Authorization = "env://API_TOKEN"`).
    pub headers: BTreeMap<String, String>,
    /// Seconds one call may take (never more than the run's own time limit).
    pub timeout: Option<f64>,
    /// A bearer token for an HTTP server, sent as `Authorization: Bearer …`: `env://VAR` (as the
    /// original's), `keyring://NAME` or the token; `"oauth"` signs in with OAuth 2.1 (`toolplane mcp login
    /// NAME` once, tokens in the OS keyring).
    pub auth: Option<String>,
    /// `"stdio"`, `"http"` or `"streamable-http"`: implied by `command` or `url` when absent.
    pub transport: Option<String>,
}

impl McpServerConfig {
    /// A stdio server: `command` started with `args`; set the other fields on the result.
    ///
    /// ```
    /// let mut time = toolplane::McpServerConfig::stdio("uvx", ["mcp-server-time"]);
    /// time.timeout = Some(5.0);
    /// let mut config = toolplane::Config::default();
    /// config.mcp.servers.insert("time".into(), time);
    /// config.validate().unwrap();
    /// ```
    pub fn stdio<S: Into<String>>(
        command: impl Into<String>,
        args: impl IntoIterator<Item = S>,
    ) -> Self {
        Self {
            command: Some(command.into()),
            args: args.into_iter().map(Into::into).collect(),
            ..Self::default()
        }
    }

    /// A streamable-HTTP server at `url`.
    ///
    /// ```
    /// let server = toolplane::McpServerConfig::http("https://mcp.example.com/mcp");
    /// assert_eq!(server.url.as_deref(), Some("https://mcp.example.com/mcp"));
    /// ```
    pub fn http(url: impl Into<String>) -> Self {
        Self {
            url: Some(url.into()),
            ..Self::default()
        }
    }
}

/// `[toolplane]`: which backend runs snippets, and where.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[non_exhaustive]
pub struct ToolplaneConfig {
    /// `"rustpython"` (ours); `"monty"` is accepted as a name for it, so the Python original's configs load.
    pub default_backend: String,
    /// Where snippets run: `"process"` (forked worker processes with hard limits) or `"in-process"`
    /// (a VM on a thread of the host). `None` (key absent): `process` on Linux, for the CLI, the MCP
    /// server and a library [`crate::Toolplane`] alike; `in-process` elsewhere (there is no process
    /// engine there).
    pub isolation: Option<Isolation>,
    /// The worker executable for `process` isolation (a `toolplane` binary, or an application that calls
    /// [`crate::worker_main_if_requested`]). Absent: `TOOLPLANE_WORKER_EXE` when it names a file, then
    /// the current executable when it is a worker, then `toolplane` on `PATH`.
    pub worker_path: Option<std::path::PathBuf>,
}

impl HybridConfig {
    fn validate(&self) -> Result<(), ConfigError> {
        for token in &self.include {
            if token.trim().is_empty() {
                return Err(ConfigError::new(
                    "hybrid.include entries must be non-empty, non-whitespace patterns (a capability \
                     name, a glob like 'mcp:orders/*', or 'tag:<name>')",
                )
                .at("hybrid.include"));
            }
            if token.contains('*')
                && token
                    .trim_matches(|c| c == '*' || c == ' ' || c == '\t')
                    .is_empty()
            {
                return Err(ConfigError::new(format!(
                    "hybrid.include may not be a bare wildcard ('{token}') — that re-exports every \
                     capability, the measured worst arm at 15 servers. Curate the single/adaptive \
                     capabilities explicitly."
                ))
                .at("hybrid.include"));
            }
        }
        if self.enabled && self.include.is_empty() {
            return Err(ConfigError::new(
                "hybrid.include must list at least one capability pattern when hybrid.enabled is true \
                 — re-exporting everything is a measured regression; curate the single/adaptive \
                 capabilities (names, globs like 'mcp:orders/*', or 'tag:<name>')",
            )
            .at("hybrid.include"));
        }
        Ok(())
    }
}

impl Default for ToolplaneConfig {
    fn default() -> Self {
        Self {
            default_backend: "rustpython".into(),
            isolation: None,
            worker_path: None,
        }
    }
}

/// Where snippets run.
///
/// ```
/// let cfg = toolplane::Config::from_toml_str("[toolplane]\nisolation = \"in-process\"\n").unwrap();
/// assert_eq!(cfg.toolplane.isolation, Some(toolplane::Isolation::InProcess));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Isolation {
    /// Each run in a process forked from a pre-warmed zygote and jailed (no capabilities, a seccomp
    /// allowlist): hard memory and time limits (RLIMIT_AS, SIGKILL), crash containment, session
    /// rollback. The default on Linux; elsewhere the in-process engine is used.
    Process,
    /// Each run on a sandbox thread of the host process: no worker binary needed, limits are accounted
    /// rather than enforced by the kernel, and a VM bug is a bug of the host process (docs/sandbox.md
    /// says what this engine does not protect against).
    InProcess,
}

impl Isolation {
    /// The engine used when none is configured: process isolation where it runs (Linux), in process
    /// elsewhere.
    ///
    /// ```
    /// let engine = toolplane::Isolation::default_here();
    /// assert_eq!(engine == toolplane::Isolation::Process, cfg!(target_os = "linux"));
    /// ```
    pub fn default_here() -> Self {
        if cfg!(target_os = "linux") {
            Isolation::Process
        } else {
            Isolation::InProcess
        }
    }

    /// The config/CLI spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Isolation::Process => "process",
            Isolation::InProcess => "in-process",
        }
    }
}

/// `[results]`: the result store's switch and caps.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[non_exhaustive]
pub struct ResultsConfig {
    /// Whether the store is on (default true).
    pub enabled: bool,
    /// Most entries at once (64).
    pub max_entries: usize,
    /// Most bytes over all entries (32 MiB).
    pub max_total_bytes: usize,
    /// Most bytes in one entry, label included (8 MiB).
    pub max_entry_bytes: usize,
    /// Seconds an entry lives after its save (3600).
    pub ttl_seconds: f64,
}

impl Default for ResultsConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            max_entries: 64,
            max_total_bytes: 32 << 20,
            max_entry_bytes: 8 << 20,
            ttl_seconds: 3600.0,
        }
    }
}

/// `[artifacts]`: the artifact store's switch and caps.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[non_exhaustive]
pub struct ArtifactsConfig {
    /// Whether the store is on (default true).
    pub enabled: bool,
    /// Most artifacts at once (32).
    pub max_entries: usize,
    /// Most bytes over all artifacts (256 MiB).
    pub max_total_bytes: usize,
    /// Most bytes in one artifact (64 MiB).
    pub max_entry_bytes: usize,
    /// Seconds an artifact lives after its save (3600).
    pub ttl_seconds: f64,
}

impl Default for ArtifactsConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            max_entries: 32,
            max_total_bytes: 256 << 20,
            max_entry_bytes: 64 << 20,
            ttl_seconds: 3600.0,
        }
    }
}

/// `[session]`: persistent sessions (used by `serve mcp`; `toolplane run` takes `--session`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[non_exhaustive]
pub struct SessionConfig {
    /// Whether the MCP server keeps one session (default true). The session's memory budget, the
    /// file's `[session] max_memory_mb`, is [`Limits::session_max_memory_mb`].
    pub enabled: bool,
}

impl Default for SessionConfig {
    fn default() -> Self {
        Self { enabled: true }
    }
}

/// The whole file as written: [`Config`] with `[session] max_memory_mb` where the original keeps it.
/// The struct the TOML keys come from, so the known keys, the starter file and `docs/config.md` are
/// checked against it.
#[derive(Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
struct ConfigFile {
    toolplane: ToolplaneConfig,
    results: ResultsConfig,
    artifacts: ArtifactsConfig,
    session: SessionFile,
    cli: CliConfig,
    limits: Limits,
    mcp: McpConfig,
    audit: AuditConfig,
    hybrid: HybridConfig,
    http: HttpConfig,
    stores: StoresConfig,
}

#[derive(Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct SessionFile {
    enabled: bool,
    max_memory_mb: usize,
}

impl Default for SessionFile {
    fn default() -> Self {
        Self {
            enabled: SessionConfig::default().enabled,
            max_memory_mb: Limits::default().session_max_memory_mb,
        }
    }
}

impl From<ConfigFile> for Config {
    fn from(file: ConfigFile) -> Self {
        let mut limits = file.limits;
        limits.session_max_memory_mb = file.session.max_memory_mb;
        Config {
            toolplane: file.toolplane,
            results: file.results,
            artifacts: file.artifacts,
            session: SessionConfig {
                enabled: file.session.enabled,
            },
            cli: file.cli,
            limits,
            mcp: file.mcp,
            audit: file.audit,
            hybrid: file.hybrid,
            http: file.http,
            stores: file.stores,
        }
    }
}

impl From<Config> for ConfigFile {
    fn from(config: Config) -> Self {
        ConfigFile {
            toolplane: config.toolplane,
            results: config.results,
            artifacts: config.artifacts,
            session: SessionFile {
                enabled: config.session.enabled,
                max_memory_mb: config.limits.session_max_memory_mb,
            },
            cli: config.cli,
            limits: config.limits,
            mcp: config.mcp,
            audit: config.audit,
            hybrid: config.hybrid,
            http: config.http,
            stores: config.stores,
        }
    }
}

/// `[cli]`: which command-line tools on the host's `PATH` snippets may run, through the bridge
/// (`await git("log", oneline=True)`; docs/cli-tools.md). The host runs them: the sandbox has no process
/// primitive of its own.
///
/// ```
/// let cfg = toolplane::Config::from_toml_str("[cli]\nmode = \"allowlist\"\nallow = [\"git\", \"rg\"]\n").unwrap();
/// assert_eq!(cfg.cli.allow, ["git", "rg"]);
/// let err = toolplane::Config::from_toml_str("[cli]\nmode = \"allowlist\"\n").unwrap_err();
/// assert_eq!(err.to_string(), "cli.allow is required when cli.mode = 'allowlist'");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[non_exhaustive]
pub struct CliConfig {
    /// `"disabled"` (no command runs), `"allowlist"` (the binaries in `allow`), or `"ambient"` (any
    /// binary on `PATH`; `serve mcp` refuses it without `--unsafe`).
    pub mode: String,
    /// The binaries `"allowlist"` allows: names found on `PATH`, without `/` or shell syntax. Required
    /// in that mode, refused in the others.
    pub allow: Vec<String>,
    /// The directory commands run in (default: the host process's own).
    pub cwd: Option<PathBuf>,
}

impl Default for CliConfig {
    fn default() -> Self {
        Self {
            mode: "disabled".into(),
            allow: Vec::new(),
            cwd: None,
        }
    }
}

impl CliConfig {
    fn validate(&self) -> Result<(), ConfigError> {
        if !matches!(self.mode.as_str(), "disabled" | "allowlist" | "ambient") {
            return Err(ConfigError::new(format!(
                "cli.mode: unknown mode '{}' (valid: disabled, allowlist, ambient)",
                self.mode
            ))
            .at("cli.mode"));
        }
        let mut seen = std::collections::BTreeSet::new();
        let mut duplicates = std::collections::BTreeSet::new();
        for binary in &self.allow {
            if binary.trim().is_empty() {
                return Err(
                    ConfigError::new("cli.allow entries must be non-empty strings").at("cli.allow"),
                );
            }
            if !is_plain_name(binary) {
                return Err(ConfigError::new(format!(
                    "cli.allow: '{binary}' is not the name of a binary on PATH (no '/', spaces or shell syntax)"
                ))
                .at("cli.allow"));
            }
            if !seen.insert(binary.as_str()) {
                duplicates.insert(binary.as_str());
            }
        }
        if !duplicates.is_empty() {
            let joined: Vec<&str> = duplicates.into_iter().collect();
            return Err(ConfigError::new(format!(
                "cli.allow contains duplicate entries: {}",
                joined.join(", ")
            ))
            .at("cli.allow"));
        }
        if self.mode == "allowlist" && self.allow.is_empty() {
            return Err(
                ConfigError::new("cli.allow is required when cli.mode = 'allowlist'")
                    .at("cli.allow"),
            );
        }
        if self.mode != "allowlist" && !self.allow.is_empty() {
            return Err(
                ConfigError::new("cli.allow is only valid when cli.mode = 'allowlist'")
                    .at("cli.allow"),
            );
        }
        Ok(())
    }
}

/// The rule for a secret's name (`keyring://NAME`, `toolplane secret set NAME`): what survives the
/// names index, every keyring store and a reference; the original's rule and text.
pub(crate) fn check_secret_name(name: &str) -> Result<(), String> {
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
    {
        return Err(
            "secret names must contain only letters, numbers, dots, underscores, and hyphens"
                .into(),
        );
    }
    Ok(())
}

/// Whether `name` can only name a file in a directory of `PATH`: letters, digits, `.`, `_`, `+`, `-`,
/// not starting with `.` or `-`. No `/`, no whitespace, no shell syntax (no shell ever sees it anyway).
pub(crate) fn is_plain_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= 255
        && (bytes[0].is_ascii_alphanumeric() || bytes[0] == b'_')
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'+' | b'-'))
}

/// The largest `[limits] max_pending_calls`: each pending call holds host memory outside the run's
/// own budget (its task, its request, its server's bookkeeping).
const MAX_PENDING_CALLS: usize = 10_000;

/// The longest `[http] idle_expiry_seconds`: 30 days.
const MAX_IDLE_EXPIRY_SECONDS: f64 = 30.0 * 24.0 * 3600.0;

/// What ends a run: `[limits]` in the file, plus the session's memory budget (`[session]
/// max_memory_mb`). The one place limits are set: [`Config::limits`], or
/// [`ToolplaneBuilder::limits`](crate::ToolplaneBuilder::limits) over the config's.
///
/// ```
/// use std::time::Duration;
/// use toolplane::{Isolation, Limits, Toolplane};
/// let limits = Limits::default().with_timeout(Duration::from_secs(5)).with_max_recursion_depth(50);
/// assert_eq!(limits.timeout_seconds, 5.0);
/// let runtime = Toolplane::builder().isolation(Isolation::InProcess).limits(limits).build().unwrap();
/// let deep = runtime.execute("def f(n): return f(n + 1)\nf(0)", None).unwrap();
/// assert_eq!(deep.error.unwrap().error_type, "RecursionError");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[non_exhaustive]
pub struct Limits {
    /// Wall-clock seconds a run may take (30).
    pub timeout_seconds: f64,
    /// MiB a run may allocate (512).
    pub max_memory_mb: usize,
    /// Bytes of captured stdout + stderr per run (10 MiB).
    pub max_output_bytes: usize,
    /// Python call depth (1000).
    pub max_recursion_depth: usize,
    /// Bytes of snippet source (1 MiB): parsing is not interruptible, so huge sources are refused
    /// before they reach the parser.
    pub max_snippet_bytes: usize,
    /// Host calls a run may have started and not awaited yet (256): one more raises `RuntimeError`
    /// at the call, so a loop of un-awaited calls cannot flood a server or the host.
    pub max_pending_calls: usize,
    /// MiB a persistent session's variables may hold across its runs (512): `[session]
    /// max_memory_mb` in the file, as in the original.
    #[serde(skip)]
    pub session_max_memory_mb: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            timeout_seconds: 30.0,
            max_memory_mb: 512,
            max_output_bytes: 10 << 20,
            max_recursion_depth: 1000,
            max_snippet_bytes: 1 << 20,
            max_pending_calls: 256,
            session_max_memory_mb: 512,
        }
    }
}

impl Limits {
    /// With [`Self::timeout_seconds`] set from a `Duration`.
    pub fn with_timeout(mut self, timeout: std::time::Duration) -> Self {
        self.timeout_seconds = timeout.as_secs_f64();
        self
    }

    /// With [`Self::max_memory_mb`] set.
    pub fn with_max_memory_mb(mut self, mib: usize) -> Self {
        self.max_memory_mb = mib;
        self
    }

    /// With [`Self::max_output_bytes`] set.
    pub fn with_max_output_bytes(mut self, bytes: usize) -> Self {
        self.max_output_bytes = bytes;
        self
    }

    /// With [`Self::max_recursion_depth`] set.
    pub fn with_max_recursion_depth(mut self, depth: usize) -> Self {
        self.max_recursion_depth = depth;
        self
    }

    /// With [`Self::max_snippet_bytes`] set.
    pub fn with_max_snippet_bytes(mut self, bytes: usize) -> Self {
        self.max_snippet_bytes = bytes;
        self
    }

    /// With [`Self::max_pending_calls`] set.
    pub fn with_max_pending_calls(mut self, calls: usize) -> Self {
        self.max_pending_calls = calls;
        self
    }

    /// With [`Self::session_max_memory_mb`] set.
    pub fn with_session_max_memory_mb(mut self, mib: usize) -> Self {
        self.session_max_memory_mb = mib;
        self
    }
}

const KNOWN_KEYS: &[(&str, &[&str])] = &[
    (
        "toolplane",
        &["default_backend", "isolation", "worker_path"],
    ),
    (
        "results",
        &[
            "enabled",
            "max_entries",
            "max_total_bytes",
            "max_entry_bytes",
            "ttl_seconds",
        ],
    ),
    (
        "artifacts",
        &[
            "enabled",
            "max_entries",
            "max_total_bytes",
            "max_entry_bytes",
            "ttl_seconds",
        ],
    ),
    ("session", &["enabled", "max_memory_mb"]),
    ("cli", &["mode", "allow", "cwd"]),
    ("mcp", &["servers", "discovery_timeout_seconds"]),
    ("audit", &["enabled", "path"]),
    ("hybrid", &["enabled", "include"]),
    ("stores", &["url", "prefix"]),
    (
        "http",
        &[
            "tokens",
            "per_client_stores",
            "max_sessions",
            "idle_expiry_seconds",
            "oauth",
        ],
    ),
    (
        "limits",
        &[
            "timeout_seconds",
            "max_memory_mb",
            "max_output_bytes",
            "max_recursion_depth",
            "max_snippet_bytes",
            "max_pending_calls",
        ],
    ),
];

/// The backend names this build accepts in `[toolplane] default_backend`.
pub(crate) const BACKEND_NAMES: &[&str] = &["rustpython", "monty"];

impl Config {
    /// Parses and validates TOML text. Errors: [`Error::Config`](Error::Config).
    pub fn from_toml_str(text: &str) -> Result<Self, Error> {
        Ok(Self::parse(text)?)
    }

    fn parse(text: &str) -> Result<Self, ConfigError> {
        let table: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| ConfigError::new(one_line_toml_error(text, &e)))?;
        for (key, value) in &table {
            let Some((_, keys)) = KNOWN_KEYS.iter().find(|(t, _)| t == key) else {
                let tables: Vec<_> = KNOWN_KEYS.iter().map(|(t, _)| format!("[{t}]")).collect();
                return Err(ConfigError::new(format!(
                    "unknown table or key '{key}' (known tables: {})",
                    tables.join(", ")
                ))
                .at(key));
            };
            let toml::Value::Table(inner) = value else {
                return Err(ConfigError::new(format!("'{key}' must be a table ([{key}])")).at(key));
            };
            for k in inner.keys() {
                if !keys.contains(&k.as_str()) {
                    return Err(ConfigError::new(format!(
                        "unknown key '{key}.{k}' (known keys in [{key}]: {})",
                        keys.join(", ")
                    ))
                    .at(format!("{key}.{k}")));
                }
            }
        }
        let config: Config = Config::deserialize(toml::Value::Table(table))
            .map_err(|e| ConfigError::new(one_line_value_error(&e)))?;
        config.check()?;
        Ok(config)
    }

    /// Reads, parses and validates a config file. Errors: [`Error::Config`](Error::Config),
    /// with the file's path.
    pub fn load(path: &Path) -> Result<Self, Error> {
        Ok(Self::read(path)?)
    }

    fn read(path: &Path) -> Result<Self, ConfigError> {
        let in_file = |e: ConfigError| ConfigError {
            path: Some(path.to_path_buf()),
            ..e
        };
        let text = std::fs::read(path).map_err(|e| {
            let message = format!("cannot read config {}: {e}", path.display());
            in_file(ConfigError {
                source: Some(e),
                ..ConfigError::new(message)
            })
        })?;
        let text = String::from_utf8(text).map_err(|_| {
            in_file(ConfigError::new(format!(
                "config {} is not valid UTF-8",
                path.display()
            )))
        })?;
        Self::parse(&text).map_err(|e| {
            let message = format!("invalid config {}: {}", path.display(), e.message);
            in_file(ConfigError { message, ..e })
        })
    }

    /// Checks every value range and the keys this port does not support. Errors:
    /// [`Error::Config`](Error::Config).
    pub fn validate(&self) -> Result<(), Error> {
        Ok(self.check()?)
    }

    pub(crate) fn check(&self) -> Result<(), ConfigError> {
        self.hybrid.validate()?;
        let backend = self.toolplane.default_backend.as_str();
        match backend {
            "rustpython" | "monty" => {}
            "local_unsafe" | "pyodide-deno" | "pyodide" => {
                return Err(ConfigError::new(format!(
                    "toolplane.default_backend = '{backend}' is not supported: toolplane (Rust) runs snippets only in its \
                     sandboxed RustPython backend; use 'rustpython' (or 'monty', accepted as its name)"
                ))
                .at("toolplane.default_backend"));
            }
            other => {
                return Err(ConfigError::new(format!(
                    "toolplane.default_backend: unknown backend '{other}' (valid: {})",
                    BACKEND_NAMES.join(", ")
                ))
                .at("toolplane.default_backend"));
            }
        }
        self.cli.validate()?;
        let positive = [
            ("results.max_entries", self.results.max_entries),
            ("results.max_total_bytes", self.results.max_total_bytes),
            ("results.max_entry_bytes", self.results.max_entry_bytes),
            ("artifacts.max_entries", self.artifacts.max_entries),
            ("artifacts.max_total_bytes", self.artifacts.max_total_bytes),
            ("artifacts.max_entry_bytes", self.artifacts.max_entry_bytes),
            ("session.max_memory_mb", self.limits.session_max_memory_mb),
            ("limits.max_memory_mb", self.limits.max_memory_mb),
            ("limits.max_output_bytes", self.limits.max_output_bytes),
            (
                "limits.max_recursion_depth",
                self.limits.max_recursion_depth,
            ),
            ("limits.max_snippet_bytes", self.limits.max_snippet_bytes),
            ("limits.max_pending_calls", self.limits.max_pending_calls),
        ];
        for (key, value) in positive {
            if value == 0 {
                return Err(ConfigError::new(format!("{key} must be greater than 0")).at(key));
            }
        }
        let seconds = [
            ("results.ttl_seconds", self.results.ttl_seconds),
            ("artifacts.ttl_seconds", self.artifacts.ttl_seconds),
            ("limits.timeout_seconds", self.limits.timeout_seconds),
        ];
        for (key, value) in seconds {
            if !(value.is_finite() && value > 0.0) {
                return Err(ConfigError::new(format!(
                    "{key} must be a positive number of seconds, got {value}"
                ))
                .at(key));
            }
        }
        if self.limits.timeout_seconds > 86_400.0 {
            return Err(
                ConfigError::new("limits.timeout_seconds must be at most 86400 (one day)")
                    .at("limits.timeout_seconds"),
            );
        }
        if self.limits.max_snippet_bytes > 64 << 20 {
            return Err(ConfigError::new(
                "limits.max_snippet_bytes must be at most 67108864 (64 MiB)",
            )
            .at("limits.max_snippet_bytes"));
        }
        if self.limits.max_recursion_depth > 100_000 {
            return Err(
                ConfigError::new("limits.max_recursion_depth must be at most 100000")
                    .at("limits.max_recursion_depth"),
            );
        }
        if self.limits.max_pending_calls > MAX_PENDING_CALLS {
            return Err(ConfigError::new(format!(
                "limits.max_pending_calls must be at most {MAX_PENDING_CALLS}"
            ))
            .at("limits.max_pending_calls"));
        }
        // After [limits]: its expiry is checked against a valid timeout.
        self.http.validate(&self.limits)?;
        self.stores.validate()?;
        self.mcp.validate()
    }

    /// The starter file `toolplane init` writes.
    pub fn starter_toml() -> &'static str {
        STARTER_TOML
    }
}

impl Default for McpConfig {
    fn default() -> Self {
        Self {
            servers: BTreeMap::new(),
            discovery_timeout_seconds: 10.0,
        }
    }
}

impl McpConfig {
    fn validate(&self) -> Result<(), ConfigError> {
        let key = "mcp.discovery_timeout_seconds";
        let seconds = self.discovery_timeout_seconds;
        if !(seconds.is_finite() && seconds > 0.0 && seconds <= 3600.0) {
            return Err(ConfigError::new(format!(
                "{key} must be a positive number of seconds, at most 3600, got {seconds}"
            ))
            .at(key));
        }
        for (name, server) in &self.servers {
            server.validate(name)?;
        }
        Ok(())
    }
}

impl McpServerConfig {
    fn validate(&self, name: &str) -> Result<(), ConfigError> {
        let table = format!("mcp.servers.{name}");
        if name.is_empty()
            || !name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        {
            return Err(ConfigError::new(format!(
                "[{table}]: a server name may hold only letters, digits, '_' and '-'"
            ))
            .at(table));
        }
        let error = |key: &str, message: String| {
            let at = if key.is_empty() {
                table.clone()
            } else {
                format!("{table}.{key}")
            };
            Err(ConfigError::new(format!("{at}: {message}")).at(at))
        };
        match (&self.command, &self.url) {
            (Some(_), Some(_)) => {
                return error(
                    "",
                    "give either command (a stdio server) or url (an HTTP server), not both".into(),
                );
            }
            (None, None) => {
                return error(
                    "",
                    "give command (and args) for a stdio server, or url for an HTTP server".into(),
                );
            }
            (Some(command), None) if command.trim().is_empty() => {
                return error("command", "must not be empty".into());
            }
            (None, Some(url)) if !(url.starts_with("http://") || url.starts_with("https://")) => {
                return error(
                    "url",
                    format!("must be an http:// or https:// URL, got {url:?}"),
                );
            }
            _ => {}
        }
        if self.command.is_none()
            && (!self.args.is_empty() || !self.env.is_empty() || self.cwd.is_some())
        {
            return error(
                "",
                "args, env and cwd are for stdio servers (with command)".into(),
            );
        }
        if self.url.is_none() && !self.headers.is_empty() {
            return error("headers", "headers are for HTTP servers (with url)".into());
        }
        match self.transport.as_deref() {
            None => {}
            Some("stdio") if self.command.is_some() => {}
            Some("http" | "streamable-http") if self.url.is_some() => {}
            Some("sse") => {
                return error(
                    "transport",
                    "the SSE transport is not supported (rmcp offers no SSE client); servers that \
                     still speak only SSE need a bridge"
                        .into(),
                );
            }
            Some(other) => {
                return error(
                    "transport",
                    format!(
                        "'{other}' does not fit this server (stdio with command; http or \
                         streamable-http with url)"
                    ),
                );
            }
        }
        match self.auth.as_deref() {
            None => {}
            Some(_) if self.url.is_none() => {
                return error("auth", "auth is for HTTP servers (with url)".into());
            }
            Some("oauth") if cfg!(not(feature = "mcp")) => {
                return error(
                    "auth",
                    "auth = 'oauth' needs toolplane built with the `mcp` feature".into(),
                );
            }
            Some("" | "env://" | "keyring://") => {
                return error("auth", "needs a token, env://VAR or keyring://NAME".into());
            }
            Some(auth) if auth.starts_with("keyring://") => {
                if let Err(why) = check_secret_name(&auth["keyring://".len()..]) {
                    return error("auth", format!("keyring://: {why}"));
                }
            }
            Some(_) => {}
        }
        if let Some(timeout) = self.timeout
            && !(timeout.is_finite() && timeout > 0.0)
        {
            return error(
                "timeout",
                format!("must be a positive number of seconds, got {timeout}"),
            );
        }
        for (field, values) in [("env", &self.env), ("headers", &self.headers)] {
            for (key, value) in values {
                if let Some(name) = value.strip_prefix("keyring://")
                    && let Err(why) = check_secret_name(name)
                {
                    return error(&format!("{field}.{key}"), format!("keyring://: {why}"));
                }
                if let Some(var) = value.strip_prefix("env://")
                    && var.is_empty()
                {
                    return error(
                        &format!("{field}.{key}"),
                        "env:// needs a variable name".into(),
                    );
                }
            }
        }
        Ok(())
    }
}

fn one_line_toml_error(text: &str, e: &toml::de::Error) -> String {
    let message = e.message().trim().replace('\n', " ");
    match e.span() {
        Some(span) => {
            let line = text[..span.start.min(text.len())].matches('\n').count() + 1;
            format!("line {line}: {message}")
        }
        None => message,
    }
}

fn one_line_value_error(e: &toml::de::Error) -> String {
    // Deserialising from a Value has no spans; toml names the key path in the message.
    e.to_string().trim().replace('\n', " ")
}

const STARTER_TOML: &str = r#"# toolplane.toml: written by `toolplane init`. Every key is optional; the values shown are the defaults.

[toolplane]
default_backend = "rustpython"   # the sandboxed RustPython VM ("monty" is accepted as its name)
# isolation = "process"          # "process" (forked workers, hard limits; the CLI's default) or "in-process"

[results]                        # the result store: JSON values, in memory, for this process only
enabled = true
max_entries = 64
max_total_bytes = 33554432       # 32 MiB
max_entry_bytes = 8388608        # 8 MiB
ttl_seconds = 3600

[artifacts]                      # the artifact store: bytes in a private temp dir, removed at exit
enabled = true
max_entries = 32
max_total_bytes = 268435456      # 256 MiB
max_entry_bytes = 67108864       # 64 MiB
ttl_seconds = 3600

[session]                        # persistent sessions (serve mcp; `toolplane run --session`)
enabled = true
max_memory_mb = 512

[cli]
mode = "disabled"                # "allowlist" (with allow = ["git", ...]) or "ambient": host binaries snippets may run

[limits]                         # what ends a run (with a Python exception; the host carries on)
timeout_seconds = 30
max_memory_mb = 512
max_output_bytes = 10485760      # 10 MiB of stdout + stderr
max_recursion_depth = 1000
max_snippet_bytes = 1048576      # 1 MiB of source
max_pending_calls = 256          # host calls started and not awaited yet

# MCP servers whose tools snippets call. Add them with: toolplane mcp add <name> --url <url>
#   or: toolplane mcp add <name> -- <command> <args>...    (toolplane mcp import: from other clients)
# [mcp.servers.context7]
# url = "https://mcp.context7.com/mcp"
# Inspect: toolplane config check / toolplane doctor / toolplane mcp list / toolplane mcp status

# `toolplane serve mcp --transport http`: every client gets its own stores and session
# [http]
# per_client_stores = true         # false: no stores or session over HTTP at all
# max_sessions = 100               # MCP sessions held at once
# idle_expiry_seconds = 900        # an idle client's session, stores and session end
# Bearer tokens clients must present, by principal (the principal then scopes the stores):
# [http.tokens]
# alice = "env://ALICE_TOKEN"      # or keyring://NAME, or a list of them (rotation)
# Or access tokens from an OAuth authorization server (JWTs; the `sub` claim is the principal):
# [http.oauth]
# issuer = "https://auth.example.com"
# audience = "https://mcp.example.com/mcp"

# Where results and artifacts live: in this process (url = ""), or on Redis/Valkey for replicas
# [stores]
# url = "redis://127.0.0.1:6379/0" # or env://VAR / keyring://NAME holding one
# prefix = "toolplane"
"#;

#[cfg(test)]
mod tests {
    use super::*;

    /// Hostile or wrong `[http]`, `[http.oauth]` and `[stores]` values are refused naming the key,
    /// never a panic or a silent default.
    #[test]
    fn team_server_settings_are_checked() {
        for (toml, key) in [
            ("[http]\nmax_sessions = 0\n", "http.max_sessions"),
            (
                "[http]\nidle_expiry_seconds = nan\n",
                "http.idle_expiry_seconds",
            ),
            (
                "[http]\nidle_expiry_seconds = inf\n",
                "http.idle_expiry_seconds",
            ),
            (
                "[http]\nidle_expiry_seconds = 10\n",
                "http.idle_expiry_seconds",
            ),
            (
                "[http]\nidle_expiry_seconds = 1e12\n",
                "http.idle_expiry_seconds",
            ),
            ("[stores]\nurl = \"file:///etc/passwd\"\n", "stores.url"),
            ("[stores]\nprefix = \"a:b\"\n", "stores.prefix"),
            ("[stores]\nprefix = \"\"\n", "stores.prefix"),
            (
                "[http.oauth]\nissuer = \"http://auth.example.com\"\naudience = \"https://m/mcp\"\n",
                "http.oauth.issuer",
            ),
            (
                "[http.oauth]\nissuer = \"http://127.0.0.1.evil.com\"\naudience = \"https://m/mcp\"\n",
                "http.oauth.issuer",
            ),
            (
                "[http.oauth]\nissuer = \"https://a\"\naudience = \"https://m/mcp\"\nleeway_seconds = 301\n",
                "http.oauth.leeway_seconds",
            ),
            (
                "[http.oauth]\nissuer = \"https://a\"\naudience = \"https://m/mcp\"\nprincipal_claim = \" \"\n",
                "http.oauth.principal_claim",
            ),
            (
                "[http.oauth]\nissuer = \"https://a\"\naudience = \"https://m/mcp\"\njwks_url = \"ftp://x\"\n",
                "http.oauth.jwks_url",
            ),
        ] {
            let error = Config::from_toml_str(toml).unwrap_err();
            let Error::Config(config_error) = &error else {
                panic!("{toml}: {error}");
            };
            assert_eq!(config_error.key(), Some(key), "{toml}: {error}");
        }
        let ok = Config::from_toml_str(
            "[http.oauth]\nissuer = \"http://127.0.0.1:9000\"\naudience = \"http://[::1]:8000/mcp\"\n",
        );
        assert!(ok.is_ok(), "{ok:?}");
    }

    /// The config's tables and keys as the structs have them (their serialized defaults).
    fn struct_keys() -> Vec<(String, serde_json::Map<String, serde_json::Value>)> {
        let serde_json::Value::Object(tables) = serde_json::to_value(Config::default()).unwrap()
        else {
            panic!("a config serializes to an object");
        };
        tables
            .into_iter()
            .map(|(table, keys)| match keys {
                serde_json::Value::Object(keys) => (table, keys),
                other => panic!("[{table}] is not a table: {other}"),
            })
            .collect()
    }

    /// One schema: the structs are the source, and the list that names known keys in errors, the
    /// starter file and the table in docs/config.md are checked against them.
    #[test]
    fn known_keys_are_the_structs_keys() {
        let from_structs: BTreeMap<String, Vec<String>> = struct_keys()
            .into_iter()
            .map(|(table, keys)| {
                let mut keys: Vec<String> = keys.keys().cloned().collect();
                keys.sort();
                (table, keys)
            })
            .collect();
        let listed: BTreeMap<String, Vec<String>> = KNOWN_KEYS
            .iter()
            .map(|(table, keys)| {
                let mut keys: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
                keys.sort();
                (table.to_string(), keys)
            })
            .collect();
        assert_eq!(listed, from_structs);
    }

    #[test]
    fn the_docs_table_lists_every_key_with_its_default() {
        let docs = include_str!("../docs/config.md");
        let mut missing = Vec::new();
        for (table, keys) in struct_keys() {
            let head = format!("| `[{table}]` |");
            let Some(row) = docs.lines().find(|line| line.starts_with(&head)) else {
                missing.push(format!("no row for [{table}]"));
                continue;
            };
            for (key, default) in keys {
                let shown = match &default {
                    serde_json::Value::Bool(b) => Some(b.to_string()),
                    serde_json::Value::String(s) => Some(format!("{s:?}")),
                    serde_json::Value::Number(n) => Some(match n.as_f64() {
                        Some(f) if f.fract() == 0.0 => format!("{}", f as i64),
                        _ => n.to_string(),
                    }),
                    serde_json::Value::Array(a) if a.is_empty() => Some("[]".into()),
                    _ => None,
                };
                let named = match (&shown, &default) {
                    (Some(value), _) => format!("`{key} = {value}"),
                    // A table of tables (`[mcp.servers.NAME]`) or of values (`[http.tokens]`).
                    (None, serde_json::Value::Object(_))
                        if row.contains(&format!("`[{table}.{key}]`")) =>
                    {
                        format!("`[{table}.{key}]`")
                    }
                    (None, serde_json::Value::Object(_)) => format!("`[{table}.{key}."),
                    (None, _) => format!("`{key}"),
                };
                if !row.contains(&named) {
                    missing.push(format!("[{table}] {named}`"));
                }
            }
        }
        assert!(
            missing.is_empty(),
            "docs/config.md lacks: {}",
            missing.join(", ")
        );
    }

    #[test]
    fn starter_round_trips_to_defaults() {
        assert_eq!(
            Config::from_toml_str(STARTER_TOML).unwrap(),
            Config::default()
        );
    }

    #[test]
    fn empty_is_defaults() {
        assert_eq!(Config::from_toml_str("").unwrap(), Config::default());
    }

    #[test]
    fn python_original_init_loads() {
        let text = "[toolplane]\ndefault_backend = \"monty\"\n\n[cli]\nmode = \"disabled\"\n\n[session]\nenabled = true\nmax_memory_mb = 512\n";
        let cfg = Config::from_toml_str(text).unwrap();
        assert_eq!(cfg.toolplane.default_backend, "monty");
    }

    #[test]
    fn unknown_keys_are_named() {
        let e = Config::from_toml_str("[results]\nmax_entires = 3\n").unwrap_err();
        assert!(e.to_string().contains("results.max_entires"), "{e}");
        let e = Config::from_toml_str("[nope]\n").unwrap_err();
        assert!(e.to_string().contains("'nope'"), "{e}");
        let e = Config::from_toml_str("top = 1\n").unwrap_err();
        assert!(e.to_string().contains("'top'"), "{e}");
    }

    #[test]
    fn bad_values_are_named() {
        let e = Config::from_toml_str("[results]\nmax_entries = 0\n").unwrap_err();
        assert!(e.to_string().contains("results.max_entries"), "{e}");
        let e = Config::from_toml_str("[limits]\ntimeout_seconds = -1\n").unwrap_err();
        assert!(e.to_string().contains("limits.timeout_seconds"), "{e}");
        let e = Config::from_toml_str("[results]\nenabled = \"yes\"\n").unwrap_err();
        assert!(e.to_string().contains("enabled"), "{e}");
        let e = Config::from_toml_str("[results\n").unwrap_err();
        assert!(e.to_string().starts_with("line 1"), "{e}");
    }

    #[test]
    fn unsupported_tables_and_backends_are_clear() {
        for (text, needle) in [
            (
                "[mcp.servers.x]\ncommand = \"x\"\nauth = \"oauth\"\n",
                "auth is for HTTP servers",
            ),
            (
                "[toolplane]\ndefault_backend = \"local_unsafe\"\n",
                "local_unsafe",
            ),
            (
                "[toolplane]\ndefault_backend = \"pyodide-deno\"\n",
                "pyodide-deno",
            ),
        ] {
            let e = Config::from_toml_str(text).unwrap_err();
            assert!(e.to_string().contains(needle), "{text}: {e}");
        }
    }

    /// Issue 34: the original's `[cli]` rules and texts, and no binary name with a path or shell syntax.
    #[test]
    fn cli_policy_is_checked_as_the_original_checks_it() {
        for (text, says) in [
            (
                "[cli]\nmode = \"allowlist\"\n",
                "cli.allow is required when cli.mode = 'allowlist'",
            ),
            (
                "[cli]\nallow = [\"git\"]\n",
                "cli.allow is only valid when cli.mode = 'allowlist'",
            ),
            (
                "[cli]\nmode = \"ambient\"\nallow = [\"git\"]\n",
                "cli.allow is only valid when cli.mode = 'allowlist'",
            ),
            (
                "[cli]\nmode = \"allowlist\"\nallow = [\" \"]\n",
                "cli.allow entries must be non-empty strings",
            ),
            (
                "[cli]\nmode = \"allowlist\"\nallow = [\"rg\", \"git\", \"rg\"]\n",
                "cli.allow contains duplicate entries: rg",
            ),
            (
                "[cli]\nmode = \"allowlist\"\nallow = [\"/bin/sh\"]\n",
                "cli.allow: '/bin/sh' is not the name of a binary on PATH",
            ),
            (
                "[cli]\nmode = \"allowlist\"\nallow = [\"git;sh\"]\n",
                "cli.allow: 'git;sh' is not the name",
            ),
            (
                "[cli]\nmode = \"sometimes\"\n",
                "cli.mode: unknown mode 'sometimes'",
            ),
        ] {
            let e = Config::from_toml_str(text).unwrap_err();
            assert!(e.to_string().starts_with(says), "{text}: {e}");
        }
        for text in [
            "[cli]\nmode = \"allowlist\"\nallow = [\"git\", \"rg\", \"python3.11\", \"g++\"]\n",
            "[cli]\nmode = \"ambient\"\ncwd = \"/tmp\"\n",
        ] {
            Config::from_toml_str(text).unwrap();
        }
    }

    #[test]
    fn integers_are_accepted_for_seconds() {
        let cfg = Config::from_toml_str("[limits]\ntimeout_seconds = 2\n").unwrap();
        assert_eq!(cfg.limits.timeout_seconds, 2.0);
    }
}
