//! `toolplane repl`: snippets one after another against one session and one result store.
//!
//! On a terminal: a line editor with history (kept under the user's data dir, never in the sandbox),
//! Python-style multi-line input, values echoed as JSON, coloured tracebacks, meta commands, and Ctrl-C
//! interrupting a running snippet. With stdin not a terminal: entries separated by blank lines, one
//! JSON line out per entry.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::{Value, json};

use crate::execution::ExecutionResult;
use crate::runtime::{Session, Toolplane};

const HELP: &str = "\
Enter Python as in a snippet: top-level `await` and `return` work, and the value of a trailing
expression is shown as JSON. A line ending in ':' or an unclosed bracket continues the entry; a blank
line ends it. Ctrl-C interrupts a running snippet (the session stays) or clears the line; Ctrl-D quits.
  :help              this text
  :reset             clear the session's variables (like `await reset_session()`)
  :results           the saved results: handle, label, size, age
  :artifacts         the saved artifacts: handle, filename, label, size, age
  :load HANDLE       show a saved result without running a snippet
  :tools             what a snippet can call: capabilities with their call shapes, and [cli]
  :limits            the limits every run has
  :quit              leave (or Ctrl-D)";

/// One repl: a runtime, and its session unless every entry is fresh.
pub(super) struct Shell {
    runtime: Toolplane,
    session: Option<Session>,
}

/// What a meta command produced.
enum Meta {
    /// Text for a person, and the same as JSON for a script.
    Output(String, Value),
    Quit,
}

impl Shell {
    pub(super) fn new(runtime: Toolplane, fresh: bool) -> Self {
        let session = (!fresh).then(|| runtime.session());
        Self { runtime, session }
    }

    /// Runs one entry. Fresh mode runs it in a session of its own, so a trailing expression still
    /// shows its value.
    fn run(&self, code: &str) -> Result<ExecutionResult, crate::error::Error> {
        match &self.session {
            Some(session) => session.execute(code, None),
            None => self.runtime.session().execute(code, None),
        }
    }

    fn meta(&self, line: &str) -> Meta {
        let mut words = line.split_whitespace();
        let command = words.next().unwrap_or_default();
        let argument = words.next();
        let text = |t: String| Meta::Output(t.clone(), json!(t));
        match command {
            ":help" => text(HELP.into()),
            ":quit" | ":exit" | ":q" => Meta::Quit,
            ":reset" => match &self.session {
                Some(session) => {
                    session.reset();
                    text("session cleared (saved results and artifacts stay)".into())
                }
                None => text("nothing to reset: every entry runs fresh (--fresh)".into()),
            },
            ":results" => {
                let rows = self.runtime.results().list();
                let table = rows
                    .iter()
                    .map(|r| {
                        format!(
                            "{}  {:<16} {:>10} B  {:>6.0} s",
                            r.handle,
                            r.label.as_deref().unwrap_or("-"),
                            r.size_bytes,
                            r.age_seconds
                        )
                    })
                    .collect::<Vec<_>>();
                let json = rows
                    .iter()
                    .map(|r| {
                        json!({"handle": r.handle, "label": r.label, "size_bytes": r.size_bytes,
                               "age_seconds": r.age_seconds})
                    })
                    .collect();
                Meta::Output(or_none(table, "no saved results"), Value::Array(json))
            }
            ":artifacts" => {
                let rows = self.runtime.artifacts().list_with_age();
                let table = rows
                    .iter()
                    .map(|(a, age)| {
                        format!(
                            "{}  {:<20} {:<16} {:>10} B  {:>6.0} s",
                            a.handle,
                            a.filename,
                            a.label.as_deref().unwrap_or("-"),
                            a.size_bytes,
                            age
                        )
                    })
                    .collect::<Vec<_>>();
                let json = rows
                    .iter()
                    .map(|(a, age)| {
                        json!({"handle": a.handle, "filename": a.filename, "label": a.label,
                               "size_bytes": a.size_bytes, "age_seconds": age})
                    })
                    .collect();
                Meta::Output(or_none(table, "no saved artifacts"), Value::Array(json))
            }
            ":load" => match argument {
                None => text("usage: :load HANDLE".into()),
                Some(handle) => match self.runtime.result_payload(handle) {
                    Ok(payload) => {
                        let value: Value = serde_json::from_str(&payload).unwrap_or(Value::Null);
                        Meta::Output(
                            serde_json::to_string_pretty(&value).unwrap_or_default(),
                            value,
                        )
                    }
                    Err(e) => text(e.to_string()),
                },
            },
            ":tools" => {
                let reserved = crate::namespace::RESERVED_NAMES;
                let capabilities = self.runtime.registry().visible();
                let mut rows: Vec<String> = capabilities
                    .iter()
                    .map(|c| crate::capabilities::render_brief(c, reserved))
                    .collect();
                let cli = crate::commands::surface(self.runtime.config(), self.runtime.registry());
                let json = json!({
                    "capabilities": capabilities.iter().map(|c| json!({
                        "name": c.name,
                        "call": crate::capabilities::call_shape(c, reserved),
                        "description": c.description,
                    })).collect::<Vec<_>>(),
                    "cli": cli,
                });
                if let Some(cli) = &cli {
                    rows.push(cli.clone());
                }
                Meta::Output(or_none(rows, "no capabilities, and [cli] is off"), json)
            }
            ":limits" => {
                let config = self.runtime.config();
                let limits = &config.limits;
                let json = json!({
                    "timeout_seconds": limits.timeout_seconds,
                    "max_memory_mb": if self.session.is_some() { config.limits.session_max_memory_mb } else { limits.max_memory_mb },
                    "max_output_bytes": limits.max_output_bytes,
                    "max_recursion_depth": limits.max_recursion_depth,
                    "isolation": self.runtime.isolation().as_str(),
                });
                Meta::Output(
                    format!(
                        "timeout {} s, memory {} MiB{}, output {} bytes, recursion depth {}, isolation {}",
                        json["timeout_seconds"],
                        json["max_memory_mb"],
                        if self.session.is_some() {
                            " (the session's, cumulative)"
                        } else {
                            ""
                        },
                        json["max_output_bytes"],
                        json["max_recursion_depth"],
                        self.runtime.isolation().as_str()
                    ),
                    json,
                )
            }
            other => text(format!("unknown command {other}; :help lists them")),
        }
    }
}

fn or_none(rows: Vec<String>, none: &str) -> String {
    if rows.is_empty() {
        none.to_string()
    } else {
        rows.join("\n")
    }
}

/// Whether `code` needs more lines: (an open bracket, triple-quoted string or trailing backslash;
/// the last line opens a block, ending in ':').
fn scan(code: &str) -> (bool, bool) {
    let chars: Vec<char> = code.chars().collect();
    let triple_at = |i: usize, q: char| {
        chars
            .get(i..i + 3)
            .is_some_and(|w| w.iter().all(|&c| c == q))
    };
    let mut depth = 0i32;
    let mut quote: Option<(char, bool)> = None; // (quote char, triple)
    let mut last_significant = ' ';
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match quote {
            Some((q, triple)) => {
                if c == '\\' {
                    i += 1;
                } else if triple && triple_at(i, q) {
                    quote = None;
                    i += 2;
                } else if !triple && (c == q || c == '\n') {
                    quote = None;
                }
            }
            None => match c {
                '#' => {
                    while i < chars.len() && chars[i] != '\n' {
                        i += 1;
                    }
                    continue;
                }
                '\'' | '"' => {
                    let triple = triple_at(i, c);
                    quote = Some((c, triple));
                    if triple {
                        i += 2;
                    }
                }
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth -= 1,
                _ => {}
            },
        }
        if !c.is_whitespace() {
            last_significant = c;
        }
        i += 1;
    }
    (
        depth > 0 || matches!(quote, Some((_, true))) || code.trim_end().ends_with('\\'),
        quote.is_none() && depth <= 0 && last_significant == ':',
    )
}

/// `toolplane repl`.
pub(super) fn main(shell: Shell) -> ExitCode {
    if std::io::stdin().is_terminal() {
        interactive(&shell)
    } else {
        piped(&shell)
    }
}

/// Entries separated by blank lines on stdin; one JSON line per entry on stdout.
fn piped(shell: &Shell) -> ExitCode {
    let stdin = std::io::stdin();
    let mut entry = String::new();
    let mut lines = stdin.lock().lines();
    loop {
        let line = match lines.next() {
            Some(Ok(line)) => Some(line),
            Some(Err(e)) => {
                eprintln!("toolplane: cannot read stdin: {e}");
                return ExitCode::from(2);
            }
            None => None,
        };
        let ends_entry = line.as_deref().is_none_or(|l| l.trim().is_empty());
        if let Some(line) = &line
            && !ends_entry
        {
            entry.push_str(line);
            entry.push('\n');
            continue;
        }
        if !entry.trim().is_empty() {
            let out = if entry.trim_start().starts_with(':') {
                match shell.meta(entry.trim()) {
                    Meta::Quit => return ExitCode::SUCCESS,
                    Meta::Output(_, value) => {
                        json!({"command": entry.trim(), "output": value}).to_string()
                    }
                }
            } else {
                match shell.run(&entry) {
                    Ok(result) => serde_json::to_string(&result).unwrap_or_default(),
                    Err(e) => json!({"error": e.to_string()}).to_string(),
                }
            };
            let mut stdout = std::io::stdout().lock();
            if writeln!(stdout, "{out}")
                .and_then(|()| stdout.flush())
                .is_err()
            {
                return ExitCode::from(2);
            }
            entry.clear();
        }
        if line.is_none() {
            return ExitCode::SUCCESS;
        }
    }
}

/// Where the line editor keeps its history: `$XDG_DATA_HOME/toolplane/history`, else
/// `~/.local/share/toolplane/history`.
fn history_path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))?;
    let dir = base.join("toolplane");
    std::fs::create_dir_all(&dir).ok()?;
    Some(dir.join("history"))
}

/// While a snippet runs, the terminal's Ctrl-C (SIGINT) interrupts it instead of ending the repl.
extern "C" fn on_sigint(_: libc::c_int) {
    crate::sandbox::request_interrupt();
}

fn interactive(shell: &Shell) -> ExitCode {
    use rustyline::error::ReadlineError;
    let mut editor = match rustyline::DefaultEditor::new() {
        Ok(editor) => editor,
        Err(e) => {
            eprintln!("toolplane: cannot open the line editor: {e}");
            return ExitCode::from(2);
        }
    };
    let history = history_path();
    if let Some(path) = &history {
        let _ = editor.load_history(path);
    }
    // SAFETY: the handler only stores to an atomic.
    unsafe { libc::signal(libc::SIGINT, on_sigint as *const () as libc::sighandler_t) };
    let color = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    println!(
        "toolplane {} repl ({}, {}): :help for help, Ctrl-D to quit",
        env!("CARGO_PKG_VERSION"),
        if shell.session.is_some() {
            "one session"
        } else {
            "fresh runs"
        },
        shell.runtime.isolation().as_str()
    );
    'entries: loop {
        let mut entry = match editor.readline(">>> ") {
            Ok(line) => line,
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(e) => {
                eprintln!("toolplane: {e}");
                break;
            }
        };
        if entry.trim().is_empty() {
            continue;
        }
        if entry.trim_start().starts_with(':') {
            let _ = editor.add_history_entry(entry.trim());
            match shell.meta(entry.trim()) {
                Meta::Quit => break,
                Meta::Output(text, _) => println!("{text}"),
            }
            continue;
        }
        // Inside a compound statement only a blank line ends the entry, as in Python's REPL.
        let mut block = false;
        loop {
            let (open, opens_block) = scan(&entry);
            block |= opens_block;
            if !(open || block) {
                break;
            }
            match editor.readline("... ") {
                Ok(line) if line.trim().is_empty() => break,
                Ok(line) => {
                    entry.push('\n');
                    entry.push_str(&line);
                }
                Err(ReadlineError::Interrupted) => continue 'entries,
                Err(ReadlineError::Eof) => break 'entries,
                Err(e) => {
                    eprintln!("toolplane: {e}");
                    break 'entries;
                }
            }
        }
        let _ = editor.add_history_entry(entry.as_str());
        match shell.run(&entry) {
            Ok(result) => show(&result, color),
            Err(e) => eprintln!("{e}"),
        }
    }
    if let Some(path) = &history {
        let _ = editor.save_history(path);
    }
    ExitCode::SUCCESS
}

fn show(result: &ExecutionResult, color: bool) {
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(result.stdout.as_bytes());
    let _ = stdout.flush();
    let mut stderr = std::io::stderr().lock();
    let _ = stderr.write_all(result.stderr.as_bytes());
    match &result.error {
        Some(error) => {
            let text = if error.traceback.is_empty() {
                format!("{}: {}", error.error_type, error.message)
            } else {
                error.traceback.trim_end().to_string()
            };
            let _ = if color {
                writeln!(stderr, "\x1b[31m{text}\x1b[0m")
            } else {
                writeln!(stderr, "{text}")
            };
        }
        None if !result.value_is_null() => {
            let _ = writeln!(stdout, "{}", super::pretty::pretty(result.value.get()));
        }
        None => {}
    }
}

#[cfg(test)]
mod tests {
    fn incomplete(code: &str) -> bool {
        let (open, block) = super::scan(code);
        open || block
    }

    #[test]
    fn continuation_rules() {
        assert!(incomplete("def f(x):"));
        assert!(incomplete("for i in range(3):  # loop"));
        assert!(incomplete("x = [1,\n 2,"));
        assert!(incomplete("s = '''open"));
        assert!(incomplete("x = 1 + \\"));
        assert!(!incomplete("x = {'a:': 1}"));
        assert!(!incomplete("print('(')"));
        assert!(!incomplete("x = 1  # a comment with ( and :"));
        assert!(!incomplete("s = '''closed'''"));
        assert!(!incomplete("return await save_result([1, 2])"));
    }
}
