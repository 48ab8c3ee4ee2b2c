//! `[cli]` escalation over MCP: a binary the allowlist refuses is put to the person through the
//! client's form elicitation (stdio only: a grant is the process's, and one process serves one client
//! there). The answer counts as a grant only when it is an explicit accept of "allow".

use std::sync::Arc;

use rmcp::model::{ElicitRequestParams, ElicitationAction, ElicitationSchema, EnumSchema};
use rmcp::service::ElicitationMode;
use rmcp::{Peer, RoleServer};

/// Asks through `peer`'s form elicitation: `{"value": "allow" | "deny"}`, the original's shape.
pub(super) fn ask_through(peer: Peer<RoleServer>) -> crate::commands::AskPerson {
    Arc::new(move |prompt| {
        let peer = peer.clone();
        Box::pin(async move {
            if !peer
                .supported_elicitation_modes()
                .contains(&ElicitationMode::Form)
            {
                return Err("the client offers no form elicitation".to_string());
            }
            let schema = ElicitationSchema::builder()
                .required_enum_schema(
                    "value",
                    EnumSchema::builder(vec!["allow".into(), "deny".into()]).build(),
                )
                .build()
                .map_err(str::to_string)?;
            let reply = peer
                .create_elicitation(ElicitRequestParams::FormElicitationParams {
                    meta: None,
                    message: prompt,
                    requested_schema: schema,
                })
                .await
                .map_err(|e| e.to_string())?;
            Ok(reply.action == ElicitationAction::Accept
                && reply
                    .content
                    .as_ref()
                    .and_then(|content| content.get("value"))
                    .and_then(|value| value.as_str())
                    == Some("allow"))
        })
    })
}
