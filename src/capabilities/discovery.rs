//! Discovery: keyword search over the registry and the exact Python call shape of a capability, as
//! the MCP tools `search_capabilities` and `get_capability_schemas` and the namespace manifest show them.
//!
//! Search scores exact word tokens (never substrings: `git` must not match "GitHub"), the way the
//! Python original does: a query made only of function words matches nothing, an empty query lists
//! everything, ties are broken by canonical name.

use std::collections::HashMap;

use serde_json::Value;

use super::registry::{Capability, Registry, is_identifier};

/// Function words: in most descriptions, never what tells one capability from another.
const STOPWORDS: &[&str] = &[
    "a", "an", "the", "is", "are", "am", "be", "been", "was", "were", "do", "does", "did", "done",
    "of", "in", "on", "at", "to", "for", "and", "or", "but", "not", "no", "it", "its", "this",
    "that", "these", "those", "with", "from", "by", "as", "about", "into", "onto", "over", "under",
    "what", "which", "who", "whom", "whose", "how", "when", "where", "why", "i", "you", "he",
    "she", "we", "they", "them", "me", "my", "your", "our", "their", "can", "could", "should",
    "would", "will", "shall", "may", "might", "must",
];

fn tokenize(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

/// Token counts of a capability: prose and identifiers, underscored tokens also by their parts,
/// identifiers also by their camelCase parts (`createIssue` → create, issue).
fn token_counts(capability: &Capability) -> HashMap<String, usize> {
    let mut counts = HashMap::new();
    let mut add = |token: &str| *counts.entry(token.to_string()).or_insert(0) += 1;
    let alias = capability.python_alias().unwrap_or_default();
    let prose = [
        capability.name.as_str(),
        capability.description.as_str(),
        alias,
    ]
    .into_iter()
    .chain(capability.tags.iter().map(String::as_str));
    for text in prose {
        for token in tokenize(text) {
            add(&token);
            if token.contains('_') {
                token
                    .split('_')
                    .filter(|p| !p.is_empty())
                    .for_each(&mut add);
            }
        }
    }
    for identifier in [capability.name.as_str(), alias] {
        for word in identifier.split(|c: char| !c.is_ascii_alphanumeric()) {
            let parts = camel_parts(word);
            if parts.len() > 1 {
                parts.iter().for_each(|p| add(p));
            }
        }
    }
    counts
}

fn camel_parts(word: &str) -> Vec<String> {
    let mut parts: Vec<String> = Vec::new();
    let mut previous_lower = false;
    for c in word.chars() {
        if (c.is_ascii_uppercase() && previous_lower) || parts.is_empty() {
            parts.push(String::new());
        }
        previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        if let Some(last) = parts.last_mut() {
            last.push(c.to_ascii_lowercase());
        }
    }
    parts
}

impl Registry {
    /// The visible capabilities matching `query`, best first; an empty query lists them all in
    /// registration order. `limit` caps the count.
    ///
    /// ```
    /// use toolplane::{Capability, Registry};
    /// let registry = Registry::new();
    /// registry.register(Capability::new("orders/get", |p| Ok(p)).description("Fetch one order")).unwrap();
    /// registry.register(Capability::new("github/createIssue", |p| Ok(p)).description("Open an issue")).unwrap();
    /// assert_eq!(registry.search("fetch", None)[0].name, "orders/get");
    /// assert!(registry.search("ord", None).is_empty()); // words, not substrings
    /// assert_eq!(registry.search("create issue", None)[0].name, "github/createIssue");
    /// assert_eq!(registry.search("", Some(1)).len(), 1);
    /// assert!(registry.search("the of", None).is_empty());
    /// ```
    pub fn search(&self, query: &str, limit: Option<usize>) -> Vec<Capability> {
        self.search_tagged(query, &[], limit)
    }

    /// [`Registry::search`] among the capabilities with at least one of `tags` (all of them when
    /// `tags` is empty), as the original's `search_capabilities(tags=…)`.
    ///
    /// ```
    /// use toolplane::{Capability, Registry};
    /// let registry = Registry::new();
    /// registry.register(Capability::new("orders/get", |p| Ok(p)).tag("orders")).unwrap();
    /// registry.register(Capability::new("users/get", |p| Ok(p)).tag("users")).unwrap();
    /// let hits = registry.search_tagged("get", &["users".to_string()], None);
    /// assert_eq!(hits.len(), 1);
    /// assert_eq!(hits[0].name, "users/get");
    /// ```
    pub fn search_tagged(
        &self,
        query: &str,
        tags: &[String],
        limit: Option<usize>,
    ) -> Vec<Capability> {
        let limit = limit.unwrap_or(usize::MAX);
        let mut candidates = self.visible();
        if !tags.is_empty() {
            candidates.retain(|c| c.tags.iter().any(|t| tags.contains(t)));
        }
        let raw = tokenize(query);
        if raw.is_empty() {
            return candidates.into_iter().take(limit).collect();
        }
        let tokens: Vec<String> = raw
            .into_iter()
            .filter(|t| !STOPWORDS.contains(&t.as_str()))
            .collect();
        let mut scored: Vec<(usize, Capability)> = candidates
            .into_iter()
            .filter_map(|capability| {
                let counts = token_counts(&capability);
                let score: usize = tokens.iter().filter_map(|t| counts.get(t)).sum();
                (score > 0).then_some((score, capability))
            })
            .collect();
        scored.sort_by(|(a, ca), (b, cb)| b.cmp(a).then_with(|| ca.name.cmp(&cb.name)));
        scored.into_iter().take(limit).map(|(_, c)| c).collect()
    }

    /// The capabilities with these canonical names (hidden ones included), and the names not found.
    pub fn lookup(&self, names: &[String]) -> (Vec<Capability>, Vec<String>) {
        let mut found = Vec::new();
        let mut missing = Vec::new();
        for name in names {
            match self.get(name) {
                Some(capability) => found.push(capability),
                None => missing.push(name.clone()),
            }
        }
        (found, missing)
    }
}

/// A JSON Schema's type in one word: `integer`, `string[]`, `string?` (nullable), `object`, `any`.
fn schema_type(schema: &Value) -> String {
    let Some(object) = schema.as_object().filter(|o| !o.is_empty()) else {
        return "any".into();
    };
    match object.get("type") {
        Some(Value::String(t)) if t == "array" => {
            format!(
                "{}[]",
                schema_type(object.get("items").unwrap_or(&Value::Null))
            )
        }
        Some(Value::String(t)) => t.clone(),
        Some(Value::Array(types)) => {
            let names: Vec<&str> = types.iter().filter_map(Value::as_str).collect();
            match names.as_slice() {
                [one, "null"] | ["null", one] => format!("{one}?"),
                _ => names.join(" | "),
            }
        }
        _ => match object.get("anyOf").and_then(Value::as_array) {
            Some(options) => {
                let parts: Vec<String> = options.iter().map(schema_type).collect();
                match parts.as_slice() {
                    [one, null] | [null, one] if null == "null" => format!("{one}?"),
                    _ => parts.join(" | "),
                }
            }
            None if object.contains_key("properties") => "object".into(),
            None => "any".into(),
        },
    }
}

/// The exact awaitable call for a capability: `await name(param=<type>, opt=<type>?)` with the flat
/// binding and keyword arguments when both are valid Python, else `await call_tool("canonical", {...})`.
/// A schema's `required` names, as a set: looked up once per property, a list made rendering a tool
/// with N required properties O(N²), which a hostile server's schema made take longer than discovery.
fn required_names(required: Option<&Value>) -> std::collections::HashSet<&str> {
    required
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// Optional parameters end in `?` and come after the required ones.
///
/// `reserved` are names the sandbox binds first (a capability aliased `call_tool` is not reachable
/// by its alias).
pub fn call_shape(capability: &Capability, reserved: &[&str]) -> String {
    let binding = if capability.hidden {
        None
    } else {
        capability
            .python_alias()
            .filter(|alias| !reserved.contains(alias))
    };
    let schema = &capability.params_schema;
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return format!("await call_tool(\"{}\", {{...}})", capability.name);
    };
    let required = required_names(schema.get("required"));
    let keywords_ok = binding.is_some() && properties.keys().all(|k| is_identifier(k));
    let mut params: Vec<(bool, String)> = properties
        .iter()
        .map(|(name, field)| {
            let optional = !required.contains(&name.as_str());
            let marker = if optional { "?" } else { "" };
            let rendered = if keywords_ok {
                format!("{name}=<{}>{marker}", schema_type(field))
            } else {
                format!("\"{name}\": <{}>{marker}", schema_type(field))
            };
            (optional, rendered)
        })
        .collect();
    // Required first, so a truncated read still sees the mandatory part.
    params.sort_by_key(|(optional, _)| *optional);
    let params: Vec<String> = params.into_iter().map(|(_, p)| p).collect();
    match binding {
        Some(binding) if keywords_ok => format!("await {binding}({})", params.join(", ")),
        _ => format!(
            "await call_tool(\"{}\", {{{}}})",
            capability.name,
            params.join(", ")
        ),
    }
}

/// One search hit: ``- `await add(x=<integer>)` — Add two numbers. [math/add]``.
pub(crate) fn render_brief(capability: &Capability, reserved: &[&str]) -> String {
    let description = if capability.description.is_empty() {
        String::new()
    } else {
        format!(" — {}", capability.description)
    };
    format!(
        "- `{}`{description} [{}]",
        call_shape(capability, reserved),
        capability.name
    )
}

/// How much discovery shows of each capability: the Python original's `detail` of
/// `search_capabilities` (default `brief`) and `get_capability_schemas` (default `detailed`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Detail {
    /// One line per capability: call shape, description, canonical name.
    Brief,
    /// A markdown section per capability: description, call shape, parameters.
    Detailed,
    /// JSON schema documents (name, description, `inputSchema`, source, call shape, tags, alias).
    Full,
}

/// Capabilities at `detail`, as the Python original renders them; `missing` (names not found) get a
/// closing signpost, in every detail (a `not_found` entry in JSON).
pub fn render_capabilities(
    capabilities: &[Capability],
    detail: Detail,
    missing: &[String],
    reserved: &[&str],
) -> String {
    if detail == Detail::Full {
        let mut documents: Vec<Value> = capabilities
            .iter()
            .map(|c| schema_document(c, reserved))
            .collect();
        if !missing.is_empty() {
            documents.push(serde_json::json!({"not_found": missing, "hint": MISSING_HINT}));
        }
        return serde_json::to_string_pretty(&documents).unwrap_or_default();
    }
    let mut text = if capabilities.is_empty() {
        "No capabilities matched the query.".to_string()
    } else if detail == Detail::Detailed {
        let sections: Vec<String> = capabilities
            .iter()
            .map(|c| render_detailed(c, reserved))
            .collect();
        sections.join("\n\n")
    } else {
        let lines: Vec<String> = capabilities
            .iter()
            .map(|c| render_brief(c, reserved))
            .collect();
        lines.join("\n")
    };
    if !missing.is_empty() {
        text.push_str(&format!(
            "\n\nCapabilities not found: {}. {MISSING_HINT}",
            missing.join(", ")
        ));
    }
    text
}

/// The signpost for names that are not canonical (the original's text).
const MISSING_HINT: &str = "Names must be canonical (as returned by search_capabilities) — search with an empty \
                            query to list them all, or read the toolplane://namespace resource.";

/// One capability's markdown section (`detail="detailed"`).
fn render_detailed(capability: &Capability, reserved: &[&str]) -> String {
    let mut lines = vec![format!("### {}", capability.name)];
    if !capability.description.is_empty() {
        lines.extend([String::new(), capability.description.clone()]);
    }
    lines.extend([
        String::new(),
        format!("**Call**: `{}`", call_shape(capability, reserved)),
        String::new(),
    ]);
    lines.extend(schema_section(&capability.params_schema, "Parameters"));
    if let Some(returns) = &capability.returns {
        lines.push(String::new());
        lines.extend(schema_section(returns, "Returns"));
    }
    lines.join("\n")
}

/// A schema's fields as a markdown list under `title`.
fn schema_section(schema: &Value, title: &str) -> Vec<String> {
    let mut lines = vec![format!("**{title}**")];
    let Some(object) = schema.as_object() else {
        lines.push("- `value` (any)".into());
        return lines;
    };
    let Some(properties) = object.get("properties") else {
        lines.push(format!("- `value` ({})", schema_type(schema)));
        return lines;
    };
    let properties = properties.as_object().cloned().unwrap_or_default();
    if properties.is_empty() {
        lines.push("*(no parameters)*".into());
        return lines;
    }
    let required = required_names(object.get("required"));
    for (name, field) in &properties {
        let marker = if required.contains(&name.as_str()) {
            ", required"
        } else {
            ""
        };
        lines.push(format!("- `{name}` ({}{marker})", schema_type(field)));
    }
    lines
}

/// The schema document of one capability (`detail="full"`): the original's keys (`name`,
/// `description`, `inputSchema`, `source`, and `tags`, `aliases`, `hidden` when set) plus its call
/// shape.
pub fn schema_document(capability: &Capability, reserved: &[&str]) -> Value {
    let mut document = serde_json::json!({
        "name": capability.name,
        "description": capability.description,
        "inputSchema": capability.params_schema,
        "source": source_of(&capability.name),
        "call": call_shape(capability, reserved),
    });
    if !capability.tags.is_empty() {
        let mut tags = capability.tags.clone();
        tags.sort();
        tags.dedup();
        document["tags"] = serde_json::json!(tags);
    }
    if let Some(alias) = capability.python_alias().filter(|a| *a != capability.name) {
        document["aliases"] = serde_json::json!([alias]);
    }
    if let Some(returns) = &capability.returns {
        document["outputSchema"] = returns.clone();
    }
    if capability.hidden {
        document["hidden"] = Value::Bool(true);
    }
    document
}

/// Where a capability comes from, by its name's prefix: the runtime's own (`toolplane:`), an MCP
/// server's (`mcp:`), or the embedding host's.
fn source_of(name: &str) -> &'static str {
    if name.starts_with("toolplane:") {
        "toolplane"
    } else if name.starts_with("mcp:") {
        "mcp"
    } else {
        "host"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn call_shapes_name_each_parameter_and_fall_back_to_call_tool() {
        let add = Capability::new("math/add", Ok).alias("add").schema(serde_json::json!({
            "type": "object",
            "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}, "note": {"type": ["string", "null"]}},
            "required": ["x", "y"]}));
        assert_eq!(
            call_shape(&add, &[]),
            "await add(x=<integer>, y=<integer>, note=<string?>?)"
        );
        let odd = Capability::new("x/from", Ok).schema(serde_json::json!({
            "type": "object", "properties": {"from": {"type": "string"}}, "required": ["from"]}));
        assert_eq!(
            call_shape(&odd, &[]),
            r#"await call_tool("x/from", {"from": <string>})"#
        );
    }

    #[test]
    fn render_shows_markdown_or_json_documents() {
        let add = Capability::new("math/add", Ok).alias("add").description("Add two numbers.")
            .schema(serde_json::json!({"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]}));
        let detailed = render_capabilities(std::slice::from_ref(&add), Detail::Detailed, &[], &[]);
        assert!(
            detailed.starts_with(
                "### math/add\n\nAdd two numbers.\n\n**Call**: `await add(x=<integer>)`"
            )
        );
        assert!(detailed.ends_with("**Parameters**\n- `x` (integer, required)"));
        let full: serde_json::Value = serde_json::from_str(&render_capabilities(
            &[add],
            Detail::Full,
            &["nope".into()],
            &[],
        ))
        .unwrap();
        assert_eq!(full[0]["inputSchema"]["required"][0], "x");
        assert_eq!(full[1]["not_found"][0], "nope");
    }

    use serde_json::json;

    fn cap(name: &str, description: &str) -> Capability {
        Capability::new(name, Ok).description(description)
    }

    #[test]
    fn words_not_substrings() {
        let registry = Registry::new();
        registry
            .register(cap("github/list_repos", "List GitHub repositories"))
            .unwrap();
        registry
            .register(cap("git/log", "Show the git log"))
            .unwrap();
        let hits: Vec<String> = registry
            .search("git", None)
            .into_iter()
            .map(|c| c.name)
            .collect();
        assert_eq!(hits, ["git/log"]);
        // Underscored tokens are searchable by their parts.
        assert_eq!(registry.search("repos", None)[0].name, "github/list_repos");
    }

    #[test]
    fn ranks_by_score_then_name_and_hides_hidden() {
        let registry = Registry::new();
        registry.register(cap("b/orders", "orders orders")).unwrap();
        registry.register(cap("a/orders", "orders")).unwrap();
        registry.register(cap("c/other", "other")).unwrap();
        registry
            .register(cap("z/secret_orders", "orders").hidden(true))
            .unwrap();
        let hits: Vec<String> = registry
            .search("orders", None)
            .into_iter()
            .map(|c| c.name)
            .collect();
        assert_eq!(hits, ["b/orders", "a/orders"]);
        assert_eq!(registry.search("orders", Some(1)).len(), 1);
        assert_eq!(registry.search("", None).len(), 3);
        assert!(registry.search("results save", None).is_empty());
    }

    #[test]
    fn schema_types_read_like_python_hints() {
        assert_eq!(
            schema_type(&json!({"type": "array", "items": {"type": "string"}})),
            "string[]"
        );
        assert_eq!(
            schema_type(&json!({"anyOf": [{"type": "integer"}, {"type": "null"}]})),
            "integer?"
        );
        assert_eq!(schema_type(&json!({"properties": {}})), "object");
        assert_eq!(schema_type(&json!({})), "any");
        assert_eq!(
            schema_type(&json!({"type": ["string", "integer"]})),
            "string | integer"
        );
    }

    #[test]
    fn reserved_and_hidden_fall_back_to_call_tool() {
        let shadowed = Capability::new("x/reset_session", Ok)
            .alias("reset_session")
            .schema(json!({"type": "object", "properties": {}}));
        assert_eq!(
            call_shape(&shadowed, &["reset_session"]),
            "await call_tool(\"x/reset_session\", {})"
        );
        let no_schema = Capability::new("x/y", Ok).schema(json!({"type": "object"}));
        assert_eq!(
            call_shape(&no_schema, &[]),
            "await call_tool(\"x/y\", {...})"
        );
        let registry = Registry::new();
        let save = registry.get(crate::capabilities::RESULTS_SAVE).unwrap();
        assert_eq!(
            call_shape(&save, &[]),
            "await call_tool(\"toolplane:results/save\", {\"value\": <any>, \"label\": <string?>?})"
        );
        let (found, missing) = registry.lookup(&["toolplane:results/load".into(), "nope".into()]);
        assert_eq!(found.len(), 1);
        assert_eq!(missing, ["nope"]);
    }
}
