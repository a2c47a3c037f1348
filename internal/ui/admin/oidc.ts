// OIDC sign-in: the authorization-code flow with PKCE (RFC 7636), for
// servers whose /admin/api/config names an issuer and a client id. The
// verifier and state wait in sessionStorage during the round trip.

const PENDING = "selenium-flow-admin-oidc";

function b64url(bytes: Uint8Array): string {
  let s = "";
  bytes.forEach((b) => (s += String.fromCharCode(b)));
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function randomString(n = 32): string {
  return b64url(crypto.getRandomValues(new Uint8Array(n)));
}

/** The S256 code challenge of a verifier. */
export async function challenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return b64url(new Uint8Array(digest));
}

interface Discovery {
  authorization_endpoint: string;
  token_endpoint: string;
}

async function discover(issuer: string): Promise<Discovery> {
  const res = await fetch(issuer.replace(/\/$/, "") + "/.well-known/openid-configuration", { credentials: "omit" });
  if (!res.ok) throw new Error(`The sign-in provider answered ${res.status}; sign in with a token instead.`);
  return res.json();
}

function redirectURI(): string {
  return location.origin + location.pathname;
}

/** The provider's name as the sign-in button shows it: the issuer's host. */
export function providerName(issuer: string): string {
  try {
    return new URL(issuer).host || issuer;
  } catch {
    return issuer;
  }
}

/** Sends the browser to the issuer's sign-in page. */
export async function beginSignIn(issuer: string, clientId: string): Promise<void> {
  const d = await discover(issuer);
  const verifier = randomString(48);
  const state = randomString(16);
  sessionStorage.setItem(PENDING, JSON.stringify({ verifier, state, issuer, clientId, hash: location.hash }));
  const q = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectURI(),
    scope: "openid profile",
    state,
    code_challenge: await challenge(verifier),
    code_challenge_method: "S256",
  });
  location.assign(`${d.authorization_endpoint}?${q}`);
}

/**
 * Finishes a sign-in the issuer sent the browser back from (?code=&state=):
 * exchanges the code for a token and takes the query out of the address.
 * Returns null when the page was not opened by a sign-in.
 */
export async function finishSignIn(): Promise<string | null> {
  const q = new URLSearchParams(location.search);
  const code = q.get("code");
  const pending = sessionStorage.getItem(PENDING);
  if (!pending || (!code && !q.get("error"))) return null;
  sessionStorage.removeItem(PENDING);
  const p = JSON.parse(pending);
  history.replaceState(null, "", redirectURI() + (p.hash || ""));
  if (q.get("state") !== p.state) throw new Error("The sign-in answer does not match the sign-in this page started; sign in again.");
  if (q.get("iss") && q.get("iss") !== p.issuer) throw new Error("The sign-in answer came from another provider than the one asked; sign in again.");
  if (!code) throw new Error(`The sign-in provider refused: ${q.get("error_description") || q.get("error")}. Sign in again, or with a token.`);
  const d = await discover(p.issuer);
  const res = await fetch(d.token_endpoint, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    credentials: "omit",
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: redirectURI(),
      client_id: p.clientId,
      code_verifier: p.verifier,
    }),
  });
  if (!res.ok) throw new Error(`The sign-in provider refused the code (${res.status}); sign in again.`);
  const tok = await res.json();
  // The access token, whose audience is this server; an ID token is for
  // the page alone and the server would refuse it.
  const t = tok.access_token;
  if (typeof t !== "string" || !t) throw new Error("The sign-in provider sent no access token; sign in with a token instead.");
  return t;
}
