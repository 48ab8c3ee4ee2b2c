//! The agent skill (`skills/driving-toolplane/SKILL.md`) stays true: every Python snippet it shows
//! runs, in order, in one session (the session section's second snippet uses the first's variable), in
//! both engines, against a runtime with the capability and the CLI binary its examples name; and the
//! values the text promises are the values the snippets return.

mod common;

use common::{config_for, isolations};
use serde_json::{Value, json};
use toolplane::{Capability, Config, Isolation, Toolplane};

const SKILL: &str = include_str!("../skills/driving-toolplane/SKILL.md");

/// The fenced ```python blocks, with their indentation (list items indent them) removed.
fn snippets() -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<(usize, Vec<String>)> = None;
    for line in SKILL.lines() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        match &mut current {
            None if trimmed == "```python" => current = Some((indent, Vec::new())),
            Some(_) if trimmed == "```" => {
                let (_, lines) = current.take().unwrap();
                blocks.push(lines.join("\n"));
            }
            Some((indent, lines)) => {
                lines.push(line.get(*indent..).unwrap_or("").to_string());
            }
            None => {}
        }
    }
    assert!(current.is_none(), "an unclosed ```python block");
    blocks
}

fn runtime(isolation: Isolation) -> Toolplane {
    let mut config =
        Config::from_toml_str("[cli]\nmode = \"allowlist\"\nallow = [\"git\"]\n").unwrap();
    config.toolplane = config_for(isolation).toolplane;
    Toolplane::builder()
        .config(config)
        .tool(
            Capability::new("mcp:shop/get_order", |params| {
                Ok(json!({"id": params["order_id"], "total": 10}))
            })
            .alias("shop_get_order")
            .description("Fetch one order")
            .schema(json!({
                "type": "object",
                "properties": {"order_id": {"type": "string"}},
                "required": ["order_id"],
            })),
        )
        .build()
        .unwrap()
}

#[test]
fn every_snippet_the_skill_shows_runs() {
    let snippets = snippets();
    assert!(snippets.len() >= 10, "{snippets:?}");
    for isolation in isolations() {
        let runtime = runtime(isolation);
        let session = runtime.session();
        let mut values = Vec::new();
        for snippet in &snippets {
            let result = session.execute(snippet, None).unwrap();
            assert!(
                result.error.is_none(),
                "{isolation:?}: the skill's snippet failed:\n{snippet}\n{:?}\n{}",
                result.error,
                result.stderr
            );
            values.push(result.value_json());
        }
        let value_of = |start: &str| -> &Value {
            let at = snippets
                .iter()
                .position(|s| s.starts_with(start))
                .unwrap_or_else(|| panic!("no snippet starts with {start:?}"));
            &values[at]
        };
        assert_eq!(
            value_of("order = await shop_get_order"),
            &json!({"total": 10, "same": true})
        );
        assert_eq!(value_of("futures = "), &json!(30));
        assert_eq!(
            value_of("print(\"working\")")["big"].to_string(),
            "1267650600228229401496703205376"
        );
        assert_eq!(
            value_of("try:\n    await call_tool"),
            &json!(["Unknown capability:", "unknown or expired result hand"])
        );
        let cli = value_of("version = await git");
        assert_eq!(cli["ok"], true, "{cli}");
        assert_eq!(cli["first"], "git version");
        assert_eq!(
            value_of("try:\n    await cli_run(\"curl\""),
            "CLI binary is not allowed by Toolplane policy"
        );
        assert_eq!(value_of("return [r[\"id\"]"), &json!([6, 7, 8, 9]));
        assert_eq!(value_of("handle = await save_result")["same"], true);
        assert_eq!(value_of("data = ")["size"], 18);
        assert_eq!(value_of("await reset_session()"), "clean");
    }
}
