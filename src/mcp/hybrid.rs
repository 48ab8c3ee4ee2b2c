//! `[hybrid]`: the capabilities `include` selects, offered as ordinary MCP tools beside the three
//! code-mode tools, as the original's selective re-export does. Each such tool is one fixed capability
//! called through the bridge (audited like a snippet's call); its name, description and input schema
//! come from the capability. The selection is made again at each `tools/list`, so tools of MCP servers
//! connected after the client arrived appear (with `notifications/tools/list_changed`).

use std::collections::HashSet;

use rmcp::model::Tool;
use serde_json::Value;

use crate::capabilities::{Capability, Registry};

/// The code-mode tools a re-exported capability must never shadow.
const FACADE_TOOLS: &[&str] = &[
    "execute_code",
    "search_capabilities",
    "get_capability_schemas",
];

/// The capabilities `include` selects, in registration order: by canonical name, a glob on it
/// (`*`, `?`, `[…]`, case-sensitive, as Python's `fnmatchcase`), or `tag:<name>`. Hidden ones never.
pub(crate) fn select_capabilities(registry: &Registry, include: &[String]) -> Vec<Capability> {
    let tags: Vec<&str> = include
        .iter()
        .filter_map(|t| t.strip_prefix("tag:"))
        .collect();
    let patterns: Vec<glob::Pattern> = include
        .iter()
        .filter(|t| !t.starts_with("tag:"))
        .filter_map(|t| glob::Pattern::new(t).ok())
        .collect();
    let exact: Vec<&str> = include.iter().map(String::as_str).collect();
    registry
        .visible()
        .into_iter()
        .filter(|c| {
            c.tags.iter().any(|t| tags.contains(&t.as_str()))
                || exact.contains(&c.name.as_str())
                || patterns.iter().any(|p| p.matches(&c.name))
        })
        .collect()
}

/// The MCP tools for `include` right now: each tool and the capability it calls.
pub(super) fn tools(registry: &Registry, include: &[String]) -> Vec<(Tool, String)> {
    let mut taken: HashSet<String> = HashSet::new();
    select_capabilities(registry, include)
        .into_iter()
        .map(|capability| {
            let name = tool_name(&capability, &mut taken);
            let schema = match &capability.params_schema {
                Value::Object(map) if !map.is_empty() => map.clone(),
                _ => serde_json::json!({"type": "object"})
                    .as_object()
                    .cloned()
                    .unwrap_or_default(),
            };
            let description = if capability.description.is_empty() {
                capability.name.clone()
            } else {
                capability.description.clone()
            };
            (Tool::new(name, description, schema), capability.name)
        })
        .collect()
}

/// A unique, client-safe name: the flat alias snippets see (`orders_get_order`) when it is one, else
/// the canonical name made safe, numbered past names already taken and the code-mode tools.
fn tool_name(capability: &Capability, taken: &mut HashSet<String>) -> String {
    let safe = |s: &str| {
        let mut chars = s.chars();
        chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    };
    let base = std::iter::once(capability.name.as_str())
        .chain(capability.python_alias())
        .find(|c| safe(c))
        .map(str::to_string)
        .unwrap_or_else(|| {
            let cleaned: String = capability
                .name
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            let cleaned = cleaned.trim_matches('_').to_string();
            if cleaned.is_empty() {
                "capability".into()
            } else {
                cleaned
            }
        });
    let mut name = base.clone();
    let mut suffix = 2;
    while taken.contains(&name) || FACADE_TOOLS.contains(&name.as_str()) {
        name = format!("{base}_{suffix}");
        suffix += 1;
    }
    taken.insert(name.clone());
    name
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn includes_select_by_glob_and_tag_in_order() {
        use crate::capabilities::{Capability, Registry};
        let registry = Registry::new();
        registry
            .register(Capability::new("mcp:orders/get", Ok).tag("lookup"))
            .unwrap();
        registry
            .register(Capability::new("mcp:orders/list", Ok))
            .unwrap();
        registry
            .register(Capability::new("mcp:crm/find", Ok))
            .unwrap();
        let names = |include: &[&str]| -> Vec<String> {
            let include: Vec<String> = include.iter().map(|s| s.to_string()).collect();
            select_capabilities(&registry, &include)
                .into_iter()
                .map(|c| c.name)
                .collect()
        };
        assert_eq!(
            names(&["mcp:orders/*"]),
            ["mcp:orders/get", "mcp:orders/list"]
        );
        assert_eq!(
            names(&["tag:lookup", "mcp:crm/find"]),
            ["mcp:orders/get", "mcp:crm/find"]
        );
    }

    #[test]
    fn names_prefer_the_alias_and_never_collide() {
        let registry = Registry::new();
        registry
            .register(Capability::new("mcp:orders/get", Ok).alias("orders_get"))
            .unwrap();
        registry
            .register(Capability::new("execute_code", Ok).alias("run_it"))
            .unwrap();
        registry
            .register(Capability::new("mcp:x/execute-code", Ok).alias("execute_code"))
            .unwrap();
        let include = vec!["*:*/*".to_string(), "execute_code".to_string()];
        let names: Vec<String> = tools(&registry, &include)
            .into_iter()
            .map(|(t, _)| t.name.to_string())
            .collect();
        assert_eq!(names, ["orders_get", "execute_code_2", "execute_code_3"]);
    }
}
