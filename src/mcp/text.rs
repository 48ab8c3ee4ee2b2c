//! What the MCP server says to a model: tool descriptions, server instructions, and the
//! `toolplane://namespace` manifest. Each reflects the live policy (stores and session on or off).

use crate::capabilities::{Detail, call_shape, render_brief, render_capabilities};
use crate::runtime::Toolplane;

/// Names the sandbox binds before any capability alias.
pub(super) const RESERVED: &[&str] = crate::namespace::RESERVED_NAMES;

/// The policy a server was built with, as its texts need it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Live {
    pub session: bool,
    pub results: bool,
    pub artifacts: bool,
    /// A binary the `[cli]` allowlist refuses is put to the person (MCP elicitation).
    pub cli_escalation: bool,
}

pub(super) fn instructions(live: Live) -> String {
    let mut text = String::from(
        "Toolplane runs short Python snippets in a sandbox (execute_code). The sandbox reaches the world only \
         through awaited host functions. Go search-first: search_capabilities finds host capabilities with \
         their exact call shapes; get_capability_schemas gives full JSON schemas; the toolplane://namespace \
         resource lists everything a snippet can call; skill://driving-toolplane/SKILL.md teaches the \
         conventions in depth (call shapes, sessions, stores, CLI).",
    );
    if live.results {
        text.push_str(
            " Keep big data out of the conversation: save it with save_result inside the snippet and return \
             a short summary plus the handle.",
        );
    } else {
        text.push_str(" Keep big data out of the conversation: return a short summary of it.");
    }
    text
}

pub(super) fn execute_code_description(live: Live) -> String {
    let mut text = String::from(
        "Run a Python snippet in a sandbox and get its ExecutionResult JSON \
         {value, stdout, stderr, duration_ms, backend, error, artifacts}.\n\
         Rules: every host function is async, always `await` it; end with `return <JSON value>`; \
         `print` goes to stdout. `inputs` (a JSON object) become globals.\n",
    );
    if live.results {
        text.push_str(
            "Big data stays out of your context: `h = await save_result(data, label='...')` and return a \
             short summary plus `h`; a later snippet reads it with `await load_result(h)` (pass h in \
             `inputs`), and the client can read toolplane://results/<handle>.\n",
        );
    }
    if live.artifacts {
        text.push_str(
            "Bytes: `await save_artifact(data, filename='x.csv')` returns an art_ handle, readable as \
             toolplane://artifacts/<handle>; `await load_artifact(h)` returns the bytes.\n",
        );
    }
    text.push_str(if live.session {
        "Runs share one session: variables persist between calls; `await reset_session()` clears them.\n"
    } else {
        "Every run starts fresh: only what you save survives.\n"
    });
    text.push_str(
        "Errors are real exceptions; catch them by type: ValueError (store errors, bad values), \
         PermissionError (policy), LookupError (unknown capability). A failing snippet is a result \
         with `error` set, not a tool error. Call host capabilities exactly as search_capabilities \
         shows them, or as `await call_tool(\"canonical/name\", {...})`.",
    );
    text
}

pub(super) const SEARCH_DESCRIPTION: &str = "Search the host capabilities a snippet can call. Each hit carries \
its exact Python call shape (`await name(param=<type>)`, `?` marks optional parameters) and its canonical \
name. An empty query lists them all; `tags` keeps those with one of the tags; `limit` caps the count; \
`detail` is brief (one line each), detailed (markdown with parameters) or full (JSON schemas). Use the call \
shape verbatim in execute_code.";

pub(super) const SCHEMAS_DESCRIPTION: &str = "Parameter schemas of capabilities by canonical name, exactly as \
search_capabilities shows them in brackets (e.g. \"mcp:server/tool\"): guessed or abbreviated names do not \
resolve. The hidden store capabilities (toolplane:results/save, toolplane:results/load, \
toolplane:artifacts/save, toolplane:artifacts/load) resolve too. `detail`: detailed (markdown, the \
default), brief, or full (JSON documents with inputSchema).";

/// Appended to every search that found something: the snippet rules, so one search is enough.
pub(super) const SEARCH_FOOTER: &str = "Rules for execute_code snippets: every binding is async — always \
`await`; call capability functions with keywords exactly as shown; awaiting a capability returns the \
tool's plain value; `return` a JSON-shaped value.";

/// The footer's last line: where to read more.
const SEARCH_DETAILS: &str = "Details only when needed: toolplane://namespace (full manifest) and \
skill://driving-toolplane/SKILL.md (conventions).";

/// The text of `search_capabilities`.
pub(super) fn search_text(
    runtime: &Toolplane,
    live: Live,
    query: &str,
    tags: &[String],
    detail: Detail,
    limit: Option<usize>,
) -> String {
    let registry = runtime.bridge().registry();
    let mut hits = registry.search_tagged(query, tags, limit);
    // `toolplane:cli/run` is the runtime's own, not the registry's: a query about the CLI finds it.
    if let Some(cli) = runtime.bridge().cli_capability()
        && crate::commands::query_is_about_cli(runtime.config(), query)
        && (tags.is_empty() || cli.tags.iter().any(|t| tags.contains(t)))
        && limit.is_none_or(|limit| hits.len() < limit)
    {
        hits.insert(0, (**cli).clone());
    }
    if detail == Detail::Full {
        // JSON only, as the original: no signpost, no footer.
        return render_capabilities(&hits, detail, &[], RESERVED);
    }
    let extras = unlisted_surfaces(runtime, live);
    if hits.is_empty() {
        let total = registry.visible().len();
        let signpost = match total {
            0 if live.results || live.artifacts => {
                "No capabilities are registered. Snippets can still use the stores (save_result, \
                 load_result, save_artifact, load_artifact) and call_tool; read the \
                 toolplane://namespace resource for the full execution namespace."
                    .into()
            }
            0 => "No capabilities are registered, and the stores are off on this server; read the \
                  toolplane://namespace resource for the full execution namespace."
                .into(),
            _ => format!(
                "No capabilities matched the query. {total} {} registered — search again with an empty \
                 query to list them all, or read the toolplane://namespace resource for the full \
                 execution namespace.",
                if total == 1 {
                    "capability is"
                } else {
                    "capabilities are"
                },
            ),
        };
        return match extras {
            Some(line) => format!("{signpost}\n{line}"),
            None => signpost,
        };
    }
    let rendered = render_capabilities(&hits, detail, &[], RESERVED);
    match extras {
        Some(line) => format!("{rendered}\n\n{SEARCH_FOOTER}\n{line}\n{SEARCH_DETAILS}"),
        None => format!("{rendered}\n\n{SEARCH_FOOTER}\n{SEARCH_DETAILS}"),
    }
}

/// The bound surfaces a registry search cannot return, in one line (the original's
/// `unlisted_surfaces`): the CLI bindings, when `[cli]` is on, and the result store.
pub(super) fn unlisted_surfaces(runtime: &Toolplane, live: Live) -> Option<String> {
    let mut extras: Vec<String> = crate::commands::surface(runtime.config(), runtime.registry())
        .into_iter()
        .collect();
    if live.results {
        extras.push("`save_result`/`load_result`".into());
    }
    (!extras.is_empty()).then(|| {
        format!(
            "The namespace also binds surfaces search does not list: {}.",
            extras.join("; ")
        )
    })
}

/// The `toolplane://namespace` manifest: everything bound in a snippet.
pub(super) fn namespace_manifest(runtime: &Toolplane, live: Live) -> String {
    let config = runtime.config();
    let mut out = String::from(
        "# Toolplane namespace\n\nEverything a snippet can call. Every binding is async: `await` it. \
         A snippet ends with `return <JSON value>`.\n\n## Capability functions\n\n",
    );
    let visible = runtime.bridge().registry().visible();
    if visible.is_empty() {
        out.push_str("No capabilities are registered.\n");
    }
    for capability in &visible {
        out.push_str(&render_brief(capability, RESERVED));
        out.push('\n');
    }
    out.push_str(
        "\n## call_tool\n\n`await call_tool(\"canonical/name\", {...})` calls any capability by its canonical \
         name, hidden ones included. An unknown name raises LookupError (\"Unknown capability: …\").\n",
    );
    if live.session {
        out.push_str(
            "\n## Session\n\nRuns share one session: variables, functions and imports persist between \
             execute_code calls. A failed run keeps what ran before the error. `await reset_session()` \
             clears the namespace after the current run; saved results and artifacts are unaffected.\n",
        );
    }
    out.push_str("\n## Result store\n\n");
    if live.results {
        let results = &config.results;
        out.push_str(&format!(
            "`h = await save_result(value, label=None)` saves a JSON value and returns a `res_…` handle; \
             `await load_result(h)` returns it. Values must round-trip through JSON (tuples become lists, \
             NaN/Infinity, bytes, sets and other objects raise ValueError). Caps: {} entries, {} bytes \
             in total, {} bytes per entry, kept {} s. Store errors raise ValueError. The client reads a \
             saved value as the resource `toolplane://results/<handle>` (application/json).\n\
             Without the sugar: `{}`.\n",
            results.max_entries,
            results.max_total_bytes,
            results.max_entry_bytes,
            results.ttl_seconds,
            shape_of(runtime, crate::capabilities::RESULTS_SAVE),
        ));
    } else {
        out.push_str(
            "Disabled on this server: `save_result` and `load_result` raise ValueError \
             (\"results store is disabled\").\n",
        );
    }
    out.push_str("\n## Artifact store\n\n");
    if live.artifacts {
        let artifacts = &config.artifacts;
        out.push_str(&format!(
            "`h = await save_artifact(data, filename=None, label=None)` saves bytes and returns an `art_…` \
             handle; `await load_artifact(h)` returns the bytes. Caps: {} entries, {} bytes in total, {} \
             bytes per artifact, kept {} s. Every run's result lists the artifacts it saved, with their \
             URIs. The client reads them as the resource `toolplane://artifacts/<handle>` \
             (application/octet-stream).\n",
            artifacts.max_entries,
            artifacts.max_total_bytes,
            artifacts.max_entry_bytes,
            artifacts.ttl_seconds,
        ));
    } else {
        out.push_str(
            "Disabled on this server: `save_artifact` and `load_artifact` raise ValueError \
             (\"artifact store is disabled\").\n",
        );
    }
    out.push_str(&crate::commands::manifest_section(
        config,
        live.cli_escalation,
    ));
    let limits = &config.limits;
    out.push_str(&format!(
        "\n## Limits\n\nEach run: {} s wall time (TimeoutError), {} MiB memory (MemoryError), {} bytes of \
         output, recursion depth {} (RecursionError), {} calls started and not yet awaited \
         (RuntimeError: await some, e.g. gather in batches). No files, network, environment or \
         processes of its own: the functions above are the only door.\n",
        limits.timeout_seconds,
        if live.session {
            config.limits.session_max_memory_mb
        } else {
            limits.max_memory_mb
        },
        limits.max_output_bytes,
        limits.max_recursion_depth,
        limits.max_pending_calls,
    ));
    out
}

fn shape_of(runtime: &Toolplane, name: &str) -> String {
    runtime
        .bridge()
        .registry()
        .get(name)
        .map(|c| call_shape(&c, RESERVED))
        .unwrap_or_default()
}
