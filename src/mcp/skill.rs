//! The agent skill the server ships (`skills/driving-toolplane/SKILL.md` in the repository): served as
//! the resource `skill://driving-toolplane/SKILL.md` with a file listing beside it
//! (`skill://driving-toolplane/_manifest`), as the original's skills provider serves its own. The
//! server's instructions and every search footer point to it.

use serde_json::json;
use sha2::Digest as _;

/// The skill's name (its folder, and its `name` in the front matter).
pub(super) const NAME: &str = "driving-toolplane";
/// The skill's text.
pub(super) const SKILL_MD: &str = include_str!("../../skills/driving-toolplane/SKILL.md");
pub(super) const SKILL_URI: &str = "skill://driving-toolplane/SKILL.md";
pub(super) const MANIFEST_URI: &str = "skill://driving-toolplane/_manifest";

/// The `description` of the front matter: what clients show of the skill.
pub(super) fn description() -> &'static str {
    SKILL_MD
        .lines()
        .find_map(|line| line.strip_prefix("description: "))
        .unwrap_or_default()
}

/// The file listing: each file's path, size and SHA-256.
pub(super) fn manifest() -> String {
    let hash = hex(&sha2::Sha256::digest(SKILL_MD.as_bytes()));
    let listing = json!({
        "skill": NAME,
        "files": [{"path": "SKILL.md", "size": SKILL_MD.len(), "hash": format!("sha256:{hash}")}],
    });
    serde_json::to_string_pretty(&listing).unwrap_or_default()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_front_matter_names_the_skill_and_says_what_it_is_for() {
        assert!(SKILL_MD.starts_with(&format!("---\nname: {NAME}\ndescription: ")));
        assert!(description().starts_with("How to drive a toolplane MCP server"));
        let listing: serde_json::Value = serde_json::from_str(&manifest()).unwrap();
        assert_eq!(listing["files"][0]["size"], SKILL_MD.len());
        assert_eq!(
            listing["files"][0]["hash"].as_str().unwrap().len(),
            "sha256:".len() + 64
        );
    }
}
