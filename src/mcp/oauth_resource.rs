//! `serve mcp --transport http` as an OAuth 2.1 resource server, as the MCP authorization spec asks:
//! it publishes its protected-resource metadata (RFC 9728) naming the authorization server, and
//! accepts access tokens that server issued as JWTs — signature by a key of the server's JWKS (RSA, EC
//! or EdDSA only: never a shared secret), `iss`, `aud` (this resource), `exp` and `nbf` — through the
//! `jsonwebtoken` crate. The token's subject (`[http.oauth] principal_claim`) is the principal that
//! scopes the client's stores, as a `[http.tokens]` name does.

use std::time::{Duration, Instant};

use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::{Map, Value, json};

use crate::config::OAuthConfig;

/// How long fetched keys are used before they are fetched again, and the least time between two
/// fetches (a token naming an unknown key fetches again, at most this often).
const KEYS_FRESH_FOR: Duration = Duration::from_secs(3600);
const REFETCH_AT_MOST_EVERY: Duration = Duration::from_secs(30);

/// Why a presented token was not accepted (the `error_description` of the 401).
#[derive(Debug)]
pub(super) struct Rejected(pub(super) String);

pub(super) struct OAuthResource {
    config: OAuthConfig,
    http: reqwest::Client,
    keys: tokio::sync::Mutex<Keys>,
}

#[derive(Default)]
struct Keys {
    set: Option<JwkSet>,
    fetched: Option<Instant>,
}

impl OAuthResource {
    pub(super) fn new(config: OAuthConfig) -> Self {
        Self {
            config,
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(10))
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .unwrap_or_default(),
            keys: tokio::sync::Mutex::default(),
        }
    }

    /// The protected-resource metadata document (RFC 9728).
    pub(super) fn metadata(&self) -> Value {
        json!({
            "resource": self.config.audience,
            "authorization_servers": [self.config.issuer],
            "bearer_methods_supported": ["header"],
            "scopes_supported": self.config.scopes,
        })
    }

    /// Where the metadata is served: `/.well-known/oauth-protected-resource` followed by the
    /// resource's path (`/mcp`), as RFC 9728 derives it from the resource URL.
    pub(super) fn metadata_path(&self) -> String {
        let path = reqwest::Url::parse(&self.config.audience)
            .map(|u| u.path().trim_end_matches('/').to_string())
            .unwrap_or_default();
        format!("/.well-known/oauth-protected-resource{path}")
    }

    /// The metadata's URL, for the `WWW-Authenticate` challenge.
    pub(super) fn metadata_url(&self) -> String {
        match reqwest::Url::parse(&self.config.audience) {
            Ok(url) => format!(
                "{}{}",
                url.origin().ascii_serialization(),
                self.metadata_path()
            ),
            Err(_) => self.metadata_path(),
        }
    }

    /// The principal a bearer `token` names, if the authorization server issued it for this
    /// resource and it is still valid.
    pub(super) async fn principal(&self, token: &str) -> Result<String, Rejected> {
        let header = jsonwebtoken::decode_header(token)
            .map_err(|_| Rejected("the access token is not a JWT".into()))?;
        if !is_asymmetric(header.alg) {
            return Err(Rejected(format!(
                "access tokens signed with {:?} are not accepted",
                header.alg
            )));
        }
        let kid = header.kid.clone().unwrap_or_default();
        let key = self.key(&kid, header.alg).await?;
        let mut validation = Validation::new(header.alg);
        validation.set_audience(&[&self.config.audience]);
        validation.set_issuer(&[&self.config.issuer]);
        validation.set_required_spec_claims(&["exp", "iss", "aud"]);
        validation.validate_nbf = true;
        validation.leeway = self.config.leeway_seconds;
        let claims = jsonwebtoken::decode::<Map<String, Value>>(token, &key, &validation)
            .map_err(|e| Rejected(format!("the access token {}", why_invalid(e.kind()))))?
            .claims;
        if !self.config.scopes.is_empty() {
            let granted: Vec<&str> = claims
                .get("scope")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .split_whitespace()
                .collect();
            if let Some(missing) = self
                .config
                .scopes
                .iter()
                .find(|s| !granted.contains(&s.as_str()))
            {
                return Err(Rejected(format!(
                    "the access token lacks the scope {missing:?}"
                )));
            }
        }
        let subject = claims
            .get(&self.config.principal_claim)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .ok_or_else(|| {
                Rejected(format!(
                    "the access token has no {:?} claim",
                    self.config.principal_claim
                ))
            })?;
        Ok(principal_name(subject))
    }

    /// The key `kid` of the authorization server's JWKS, fetched when not known yet (or stale, or
    /// the token names a key not seen: a rotation), at most every [`REFETCH_AT_MOST_EVERY`].
    async fn key(&self, kid: &str, alg: Algorithm) -> Result<DecodingKey, Rejected> {
        let mut keys = self.keys.lock().await;
        let known = |keys: &Keys| {
            let set = keys.set.as_ref()?;
            if kid.is_empty() {
                // No kid: the set's one key, when there is exactly one.
                (set.keys.len() == 1).then(|| set.keys[0].clone())
            } else {
                set.find(kid).cloned()
            }
        };
        let stale = keys.fetched.is_none_or(|at| at.elapsed() >= KEYS_FRESH_FOR);
        let may_refetch = keys
            .fetched
            .is_none_or(|at| at.elapsed() >= REFETCH_AT_MOST_EVERY);
        if (stale || known(&keys).is_none()) && may_refetch {
            keys.fetched = Some(Instant::now());
            match self.fetch_keys().await {
                Ok(set) => keys.set = Some(set),
                Err(why) => {
                    tracing::warn!("OAuth: cannot fetch the authorization server's keys: {why}")
                }
            }
        }
        let jwk = known(&keys).ok_or_else(|| {
            Rejected(
                "the access token's signing key is not one of the authorization server's".into(),
            )
        })?;
        if let Some(key_alg) = jwk.common.key_algorithm
            && format!("{key_alg:?}") != format!("{alg:?}")
        {
            return Err(Rejected(format!(
                "the access token's algorithm {alg:?} is not its key's ({key_alg:?})"
            )));
        }
        DecodingKey::from_jwk(&jwk)
            .map_err(|e| Rejected(format!("the authorization server's key is unusable: {e}")))
    }

    /// The JWKS: from `jwks_url`, or from the `jwks_uri` of the issuer's metadata (RFC 8414's
    /// `oauth-authorization-server`, else OpenID's `openid-configuration`).
    async fn fetch_keys(&self) -> Result<JwkSet, String> {
        let url = match &self.config.jwks_url {
            Some(url) => url.clone(),
            None => self.discover_jwks_url().await?,
        };
        let response = self
            .http
            .get(&url)
            .send()
            .await
            .map_err(|e| format!("{url}: {e}"))?;
        let body = bounded_body(response)
            .await
            .map_err(|e| format!("{url}: {e}"))?;
        serde_json::from_slice(&body).map_err(|e| format!("{url}: not a JWKS: {e}"))
    }

    async fn discover_jwks_url(&self) -> Result<String, String> {
        let issuer = self.config.issuer.trim_end_matches('/');
        let parsed = reqwest::Url::parse(issuer).map_err(|e| format!("issuer {issuer}: {e}"))?;
        let origin = parsed.origin().ascii_serialization();
        let path = parsed.path().trim_end_matches('/');
        let candidates = [
            format!("{origin}/.well-known/oauth-authorization-server{path}"),
            format!("{issuer}/.well-known/openid-configuration"),
        ];
        for url in &candidates {
            let Ok(response) = self.http.get(url).send().await else {
                continue;
            };
            if !response.status().is_success() {
                continue;
            }
            let Ok(body) = bounded_body(response).await else {
                continue;
            };
            let Ok(metadata) = serde_json::from_slice::<Value>(&body) else {
                continue;
            };
            // The metadata must be the issuer's own (RFC 8414 §3.3).
            if metadata["issuer"].as_str().map(|i| i.trim_end_matches('/')) != Some(issuer) {
                continue;
            }
            if let Some(jwks) = metadata["jwks_uri"].as_str() {
                return Ok(jwks.to_string());
            }
        }
        Err(format!(
            "the issuer {issuer} publishes no metadata with a jwks_uri (tried {})",
            candidates.join(", ")
        ))
    }
}

/// A response body, at most 1 MiB (keys and metadata are small; a server sending more is refused).
async fn bounded_body(mut response: reqwest::Response) -> Result<Vec<u8>, String> {
    const MAX: usize = 1 << 20;
    if !response.status().is_success() {
        return Err(format!("HTTP {}", response.status()));
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|e| e.to_string())? {
        body.extend_from_slice(&chunk);
        if body.len() > MAX {
            return Err("the answer is over 1 MiB".into());
        }
    }
    Ok(body)
}

/// Why `jsonwebtoken` refused a token, in words (after "the access token").
fn why_invalid(kind: &jsonwebtoken::errors::ErrorKind) -> String {
    use jsonwebtoken::errors::ErrorKind;
    match kind {
        ErrorKind::ExpiredSignature => "has expired".into(),
        ErrorKind::ImmatureSignature => "is not valid yet (nbf)".into(),
        ErrorKind::InvalidIssuer => "was issued by another authorization server (iss)".into(),
        ErrorKind::InvalidAudience => "is for another resource (aud)".into(),
        ErrorKind::InvalidSignature => "has a signature that does not verify".into(),
        ErrorKind::MissingRequiredClaim(claim) => format!("has no {claim:?} claim"),
        ErrorKind::InvalidAlgorithm => "is signed with an algorithm its key does not allow".into(),
        other => format!("is not valid here ({other:?})"),
    }
}

fn is_asymmetric(alg: Algorithm) -> bool {
    !matches!(alg, Algorithm::HS256 | Algorithm::HS384 | Algorithm::HS512)
}

/// The principal for a token's subject: the subject itself when it is a simple name (letters,
/// digits, `.`, `_`, `-`, as `[http.tokens]` names are), else `oauth-` and a digest of it (an email
/// or URL subject still names one principal, and never a key or path with odd characters).
fn principal_name(subject: &str) -> String {
    let simple = subject.len() <= 128
        && subject
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if simple {
        return subject.to_string();
    }
    use sha2::Digest as _;
    let digest = sha2::Sha256::digest(subject.as_bytes());
    let hex: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
    format!("oauth-{hex}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subjects_become_simple_principal_names() {
        assert_eq!(principal_name("alice-agent"), "alice-agent");
        let odd = principal_name("alice@example.com");
        assert!(odd.starts_with("oauth-") && odd.len() == 30, "{odd}");
        assert_eq!(odd, principal_name("alice@example.com"));
        assert_ne!(odd, principal_name("bob@example.com"));
    }

    #[test]
    fn shared_secret_algorithms_are_never_accepted() {
        assert!(!is_asymmetric(Algorithm::HS256));
        assert!(is_asymmetric(Algorithm::RS256) && is_asymmetric(Algorithm::ES256));
    }
}
