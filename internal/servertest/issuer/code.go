package issuer

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"maps"
	"net/http"
	"net/url"
	"time"
)

// CodeLifetime is how long an authorization code can be exchanged.
const CodeLifetime = time.Minute

// grant is an issued authorization code, waiting for its exchange.
type grant struct {
	clientID, redirectURI, challenge, subject, nonce string
	expires                                          time.Time
}

// authorize approves every well-formed request at once, as Subject (or
// the login_hint), and redirects back with a one-time code. PKCE with
// S256 is required, as OAuth 2.1 asks of public clients.
func (i *Issuer) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	redirect, err := url.Parse(q.Get("redirect_uri"))
	if err != nil || q.Get("redirect_uri") == "" || !redirect.IsAbs() || q.Get("client_id") == "" {
		// Without a good redirect URI the error cannot go back to the client.
		http.Error(w, "authorize needs client_id and an absolute redirect_uri", http.StatusBadRequest)
		return
	}
	back := redirect.Query()
	if state := q.Get("state"); state != "" {
		back.Set("state", state)
	}
	back.Set("iss", i.URL) // RFC 9207
	switch {
	case q.Get("response_type") != "code":
		back.Set("error", "unsupported_response_type")
	case q.Get("code_challenge") == "" || q.Get("code_challenge_method") != "S256":
		back.Set("error", "invalid_request")
		back.Set("error_description", "PKCE with code_challenge_method=S256 is required")
	default:
		sub := i.Subject
		if hint := q.Get("login_hint"); hint != "" {
			sub = hint
		}
		code := randomCode()
		i.mu.Lock()
		i.codes[code] = grant{clientID: q.Get("client_id"), redirectURI: q.Get("redirect_uri"), challenge: q.Get("code_challenge"),
			subject: sub, nonce: q.Get("nonce"), expires: time.Now().Add(CodeLifetime)}
		i.mu.Unlock()
		back.Set("code", code)
	}
	redirect.RawQuery = back.Encode()
	http.Redirect(w, r, redirect.String(), http.StatusFound)
}

// token exchanges a code for an access token (aud: the issuer's
// Audience) and an ID token (aud: the client), once, after checking the
// client, the redirect URI and the PKCE verifier.
func (i *Issuer) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		tokenError(w, "invalid_request", "the body is not a form")
		return
	}
	if r.PostForm.Get("grant_type") != "authorization_code" {
		tokenError(w, "unsupported_grant_type", "only authorization_code is supported")
		return
	}
	code := r.PostForm.Get("code")
	i.mu.Lock()
	g, ok := i.codes[code]
	delete(i.codes, code) // one exchange per code, right or wrong
	i.mu.Unlock()
	sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
	switch {
	case !ok || time.Now().After(g.expires):
		tokenError(w, "invalid_grant", "the code is unknown, used or expired")
		return
	case g.clientID != r.PostForm.Get("client_id") || g.redirectURI != r.PostForm.Get("redirect_uri"):
		tokenError(w, "invalid_grant", "client_id or redirect_uri differ from the authorization request")
		return
	case subtle.ConstantTimeCompare([]byte(base64.RawURLEncoding.EncodeToString(sum[:])), []byte(g.challenge)) != 1:
		tokenError(w, "invalid_grant", "the code_verifier does not match the code_challenge")
		return
	}
	m := mint{key: i.SigningKey(), life: 5 * time.Minute}
	access := Claims{"sub": g.subject}
	maps.Copy(access, i.claims)
	id := Claims{"sub": g.subject, "aud": g.clientID, "azp": g.clientID}
	if g.nonce != "" {
		id["nonce"] = g.nonce
	}
	maps.Copy(id, i.claims)
	id["aud"] = g.clientID
	at, err := i.sign(access, m)
	if err == nil {
		var it string
		if it, err = i.sign(id, m); err == nil {
			writeJSON(w, http.StatusOK, map[string]any{"access_token": at, "id_token": it, "token_type": "Bearer", "expires_in": int(m.life.Seconds())})
			return
		}
	}
	tokenError(w, "server_error", err.Error())
}

func tokenError(w http.ResponseWriter, code, description string) {
	writeJSON(w, http.StatusBadRequest, map[string]string{"error": code, "error_description": description})
}

func randomCode() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Challenge is the S256 code_challenge of a PKCE verifier, for tests that
// play the client.
func Challenge(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}
