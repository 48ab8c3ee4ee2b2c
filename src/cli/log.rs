//! The CLI's subscriber for the library's `tracing` events, on stderr: the human lines toolplane has
//! always printed (`toolplane: …`, and `[mcp NAME] …` for a stdio server's stderr), or one JSON object
//! per event with `TOOLPLANE_LOG_FORMAT=json`. Filtered by `TOOLPLANE_LOG`, else `RUST_LOG` (both in
//! `tracing-subscriber`'s `EnvFilter` syntax, e.g. `toolplane=debug`); by default toolplane's own events
//! at INFO and above, nothing of its dependencies'. Under `serve mcp` over stdio the same events also
//! go to the client as MCP log messages ([`crate::mcp::forward_event`]).

use std::fmt;

use tracing::field::{Field, Visit};
use tracing::{Event, Subscriber};
use tracing_subscriber::EnvFilter;
use tracing_subscriber::Layer;
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields};
use tracing_subscriber::layer::{Context, SubscriberExt as _};
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::util::SubscriberInitExt as _;

use crate::mcp_client::SERVER_STDERR_TARGET;

/// The variable that filters the CLI's log lines (before `RUST_LOG`).
const LOG_ENV: &str = "TOOLPLANE_LOG";
/// The variable that asks for JSON log lines (`json`).
const LOG_FORMAT_ENV: &str = "TOOLPLANE_LOG_FORMAT";
/// What is shown when neither variable says otherwise.
const DEFAULT_FILTER: &str = "toolplane=info";

/// Installs the subscriber for this process (once; a second call changes nothing).
pub(super) fn install_subscriber() {
    let filter = [LOG_ENV, "RUST_LOG"]
        .into_iter()
        .find_map(|var| {
            let value = std::env::var(var).ok()?;
            match EnvFilter::try_new(&value) {
                Ok(filter) => Some(filter),
                Err(e) => {
                    eprintln!(
                        "toolplane: {var}={value:?} is not a log filter ({e}); using {DEFAULT_FILTER}"
                    );
                    None
                }
            }
        })
        .unwrap_or_else(|| EnvFilter::new(DEFAULT_FILTER));
    let lines = tracing_subscriber::fmt::layer().with_writer(std::io::stderr);
    let lines = if std::env::var(LOG_FORMAT_ENV).is_ok_and(|format| format == "json") {
        lines.json().boxed()
    } else {
        lines.event_format(HumanLines).boxed()
    };
    // A process that already has a subscriber keeps it.
    let _ = tracing_subscriber::registry()
        .with(filter)
        .with(lines)
        .with(ToMcpClient)
        .try_init();
}

/// toolplane's own events, to the MCP client served over stdio (if any).
struct ToMcpClient;

impl<S: Subscriber> Layer<S> for ToMcpClient {
    fn on_event(&self, event: &Event<'_>, _context: Context<'_, S>) {
        let metadata = event.metadata();
        // Never the dependencies' events: sending a message logs in rmcp, which must not loop.
        if !metadata.target().starts_with("toolplane") {
            return;
        }
        let mut fields = Fields::default();
        event.record(&mut fields);
        let server = (metadata.target() == SERVER_STDERR_TARGET).then_some(fields.server.as_str());
        crate::mcp::forward_event(metadata.level(), server, &fields.message);
    }
}

/// An event as one line: `[mcp NAME] …` for a server's stderr, `toolplane: …` for the rest.
struct HumanLines;

impl<S, N> FormatEvent<S, N> for HumanLines
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        _context: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        let mut fields = Fields::default();
        event.record(&mut fields);
        if event.metadata().target() == SERVER_STDERR_TARGET {
            writeln!(writer, "[mcp {}] {}", fields.server, fields.message)
        } else {
            writeln!(writer, "toolplane: {}", fields.message)
        }
    }
}

/// The fields a human line shows.
#[derive(Default)]
struct Fields {
    message: String,
    server: String,
}

impl Visit for Fields {
    fn record_str(&mut self, field: &Field, value: &str) {
        match field.name() {
            "message" => self.message = value.to_string(),
            "server" => self.server = value.to_string(),
            _ => {}
        }
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        match field.name() {
            "message" => self.message = format!("{value:?}"),
            "server" => self.server = format!("{value:?}"),
            _ => {}
        }
    }
}
