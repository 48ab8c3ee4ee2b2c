// A real OAuth 2.1 / OpenID authorization server for tests (tests/http_oauth.rs): node-oidc-provider (npm `oidc-provider`,
// OpenID certified), issuing JWT access tokens for one resource (the MCP server) by client credentials.
// `node oauth_server.mjs PORT RESOURCE CLIENT:SECRET…`; prints `ready ISSUER` when it listens. With
// OWN_KEYS=1 it signs with a key pair of its own (else the provider's quick-start keys, the same in
// every instance); TOKEN_TTL sets the tokens' lifetime in seconds (600), 2 s for clients named short-….
import Provider from "oidc-provider";
import { exportJWK, generateKeyPair } from "jose";

const [port, resource, ...pairs] = process.argv.slice(2);
const issuer = `http://127.0.0.1:${port}`;
const clients = pairs.map((pair) => {
  const [client_id, client_secret] = pair.split(":");
  return { client_id, client_secret, grant_types: ["client_credentials"], redirect_uris: [], response_types: [] };
});
let jwks;
if (process.env.OWN_KEYS === "1") {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  jwks = { keys: [{ ...(await exportJWK(privateKey)), kid: `own-${port}`, alg: "RS256", use: "sig" }] };
}
const provider = new Provider(issuer, {
  clients,
  ...(jwks ? { jwks } : {}),
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => resource,
      useGrantedResource: () => true,
      getResourceServerInfo: (ctx, indicator) => {
        if (indicator !== resource) throw new Error(`unknown resource ${indicator}`);
        // Clients named short-… get tokens that live 2 s (for expiry tests).
        const short = ctx.oidc.client?.clientId?.startsWith("short");
        const ttl = short ? 2 : Number(process.env.TOKEN_TTL ?? 600);
        return { scope: "mcp", audience: resource, accessTokenTTL: ttl, accessTokenFormat: "jwt", jwt: { sign: { alg: "RS256" } } };
      },
    },
  },
});
provider.listen(Number(port), "127.0.0.1", () => console.log(`ready ${issuer}`));
