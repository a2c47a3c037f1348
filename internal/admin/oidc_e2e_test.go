package admin_test

import (
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/browser"
	"github.com/selenium-flow/selenium-flow/internal/files"
	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/internal/servertest/issuer"
	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

// adminClient is the public client id the page signs in with.
const adminClientID = "selenium-flow-admin"

// pendingKey is where the page keeps its verifier and state during the
// round trip to the provider (oidc.ts PENDING).
const pendingKey = "selenium-flow-admin-oidc"

// TestE2EOIDC: the page signs in by authorization code with PKCE against
// a provider on 127.0.0.1, in headless Chromium — discovery and the
// token exchange fetched by the page itself across origins, the code
// coming back to /admin. The access token lives in sessionStorage only,
// never in the address or a cookie, and is the bearer for /admin/api.
// An operator (roles claim "operator") sees bob's workspace; a second run
// as a non-operator sees only its own; an answer whose state the page did
// not send is refused with a sentence and signs nobody in, and so is a
// token the server refuses, with the server's own sentence.
func TestE2EOIDC(t *testing.T) {
	if testing.Short() {
		t.Skip("starts browsers")
	}
	driver := testenv.NeedBrowser(t)
	ctx := servertest.Context(t)
	d, err := browser.Start(ctx, browser.WithChromedriver(driver), browser.WithChromium(testenv.Chromium()), browser.WithBrowserArgs(testenv.ClosedNetwork))
	assert.NilError(t, err)
	t.Cleanup(func() { _ = d.Close() })
	s, err := d.NewSession(ctx, browser.SessionOptions{Window: browser.Window{Width: 1400, Height: 900}})
	assert.NilError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	dir := os.Getenv("ADMIN_E2E_SHOTS")
	if dir == "" {
		dir = t.TempDir()
	}

	// Each run has its own provider and server, so its own origin: the
	// page's sessionStorage starts empty.
	for _, tc := range []struct {
		name, subject string
		roles         []string
		sees, hidden  []string
		operator      bool
	}{
		{name: "operator", subject: "alice", roles: []string{"operator"}, sees: []string{"default@alice", "default@bob"}, operator: true},
		{name: "non-operator", subject: "carol", roles: []string{"viewer"}, sees: []string{"default@carol"}, hidden: []string{"default@bob"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			idp := issuer.Start(t, issuer.WithSubject(tc.subject), issuer.WithClaims(issuer.Claims{"roles": tc.roles}))
			base := oidcServer(t, idp, auth.OIDCConfig{})
			p := &page{t: t, s: s, base: base, dir: dir, shots: map[string]string{}}

			assert.NilError(t, s.Navigate(base+"/admin"))
			p.waitCSS("#sign-in-oidc")
			host := strings.TrimPrefix(idp.URL, "http://")
			p.waitText("#sign-in-oidc", "Sign in with "+host)
			p.click("#sign-in-oidc")

			// The provider approves at once and sends the browser back to
			// /admin with a code, which the page exchanges.
			p.waitCSS(".who")
			p.waitText(".who", tc.subject)
			for _, ws := range tc.sees {
				p.waitCSS(`.ws-row[data-ws="` + ws + `"]`)
			}
			for _, ws := range tc.hidden {
				if n := p.count(`.ws-row[data-ws="` + ws + `"]`); n != 0 {
					t.Errorf("%s sees %s", tc.subject, ws)
				}
			}
			if got := p.js(`return String(document.querySelectorAll(".ws-row").length)`); got != strconv.Itoa(len(tc.sees)) {
				t.Errorf("%s sees %s workspaces, want %d", tc.subject, got, len(tc.sees))
			}
			if strings.Contains(p.js(`return document.querySelector(".who").textContent`), "operator") != tc.operator {
				t.Errorf("operator badge: %q", p.js(`return document.querySelector(".who").textContent`))
			}

			// The token: in sessionStorage, issued by the provider for this
			// server; nowhere in the address, a cookie or localStorage; the
			// verifier and state are gone.
			tok := p.js(`return String(sessionStorage.getItem("selenium-flow-admin-token"))`)
			assert.Assert(t, strings.Count(tok, ".") == 2, "not a JWT in sessionStorage: %q", tok)
			if href := p.js(`return location.href`); strings.Contains(href, "code=") || strings.Contains(href, "state=") || strings.Contains(href, tok) {
				t.Errorf("the sign-in answer stayed in the address: %s", href)
			}
			if p.js(`return location.search`) != "" {
				t.Errorf("the query was not cleaned: %q", p.js(`return location.search`))
			}
			if strings.Contains(p.js(`return document.cookie`), tok) || p.js(`return String(localStorage.length && Object.values(localStorage).some(v => v.includes(arguments[0])))`, tok) == "true" {
				t.Error("the token is in a cookie or localStorage")
			}
			if p.js(`return String(sessionStorage.getItem(arguments[0]))`, pendingKey) != "null" {
				t.Error("the verifier and state outlived the exchange")
			}
			// The same token is the bearer for the API, as the page uses it.
			if got := p.js(`return fetch("/admin/api/me", {headers: {Authorization: "Bearer " + sessionStorage.getItem("selenium-flow-admin-token")}}).then(r => r.json()).then(m => m.principal)`); got != tc.subject {
				t.Errorf("/admin/api/me with the page's token is %q, want %s", got, tc.subject)
			}
			// Asked for by name, a workspace it does not see stays closed to it.
			for _, ws := range tc.hidden {
				status := p.js(`return fetch("/admin/api/workspaces/" + encodeURIComponent(arguments[0]), {headers: {Authorization: "Bearer " + sessionStorage.getItem("selenium-flow-admin-token")}}).then(r => String(r.status))`, ws)
				if status != "403" && status != "404" {
					t.Errorf("%s asking for %s got %s, want 403 or 404", tc.subject, ws, status)
				}
			}
			p.shot("oidc-signed-in-" + tc.name)

			// Sign-out forgets the token; the page shows the sign-in form.
			p.click("#sign-out")
			p.waitCSS("#sign-in-oidc")
			if got := p.js(`return String(sessionStorage.getItem("selenium-flow-admin-token"))`); got != "null" {
				t.Errorf("token left after sign-out: %q", got)
			}
		})
	}

	// A sign-in answer for a state this page never sent (a forged or
	// replayed callback, the login-CSRF attack) is refused, even though
	// the provider issued a real code: nobody is signed in and the
	// address is cleaned.
	t.Run("tampered state", func(t *testing.T) {
		idp := issuer.Start(t, issuer.WithSubject("mallory"), issuer.WithClaims(issuer.Claims{"roles": []string{"operator"}}))
		base := oidcServer(t, idp, auth.OIDCConfig{})
		p := &page{t: t, s: s, base: base, dir: dir, shots: map[string]string{}}
		assert.NilError(t, s.Navigate(base+"/admin"))
		p.waitCSS("#sign-in-oidc")
		// The page's own sign-in under way: its state and verifier wait.
		p.js(`sessionStorage.setItem(arguments[0], JSON.stringify({verifier: arguments[1], state: "the-state-this-page-sent", issuer: arguments[2], clientId: arguments[3], hash: ""})); return ""`,
			pendingKey, "v-0123456789abcdef0123456789abcdef0123456789", idp.URL, adminClientID)
		q := url.Values{"response_type": {"code"}, "client_id": {adminClientID}, "redirect_uri": {base + "/admin"}, "state": {"a-state-from-elsewhere"},
			"code_challenge": {issuer.Challenge("v-0123456789abcdef0123456789abcdef0123456789")}, "code_challenge_method": {"S256"}}
		assert.NilError(t, s.Navigate(idp.URL+"/authorize?"+q.Encode()))
		p.waitCSS("#signin-error")
		p.waitText("#signin-error", "does not match the sign-in this page started")
		if got := p.js(`return String(sessionStorage.getItem("selenium-flow-admin-token"))`); got != "null" {
			t.Errorf("signed in with a tampered state: %q", got)
		}
		if got := p.js(`return location.search`); got != "" {
			t.Errorf("the refused answer stayed in the address: %q", got)
		}
		if p.count(".who") != 0 {
			t.Error("the page shows someone signed in")
		}
	})

	// A token the server refuses (here: without the role it requires)
	// leaves the page at the sign-in form with the server's sentence, and
	// nothing kept.
	t.Run("refused token", func(t *testing.T) {
		idp := issuer.Start(t, issuer.WithSubject("dave"), issuer.WithClaims(issuer.Claims{"roles": []string{"viewer"}}))
		base := oidcServer(t, idp, auth.OIDCConfig{RequiredRole: "operator"})
		p := &page{t: t, s: s, base: base, dir: dir, shots: map[string]string{}}
		assert.NilError(t, s.Navigate(base+"/admin"))
		p.waitCSS("#sign-in-oidc")
		p.click("#sign-in-oidc")
		p.waitCSS("#signin-error")
		p.waitText("#signin-error", "this server refused its token")
		p.waitText("#signin-error", "does not grant the role operator")
		if got := p.js(`return String(sessionStorage.getItem("selenium-flow-admin-token"))`); got != "null" {
			t.Errorf("a refused token was kept: %q", got)
		}
		if got := p.js(`return location.search`); got != "" {
			t.Errorf("the sign-in answer stayed in the address: %q", got)
		}
	})
}

// oidcServer starts a server that accepts the provider's tokens (cfg with
// the issuer, audience, roles from the "roles" claim and the page's
// client id filled in) and offers its sign-in on the admin page, with
// bob's kept file so that bob has a workspace to see. It returns the base
// URL.
func oidcServer(t *testing.T, idp *issuer.Issuer, cfg auth.OIDCConfig) string {
	t.Helper()
	dataDir := t.TempDir()
	store, err := files.Open(filepath.Join(dataDir, "files"))
	assert.NilError(t, err)
	box, err := store.For("bob")
	assert.NilError(t, err)
	_, err = box.Keep(files.Screenshots, "checkout.png", picture(t))
	assert.NilError(t, err)
	cfg.Issuer, cfg.Audience, cfg.RolesClaim, cfg.AdminClientID = idp.URL, idp.Audience, "roles", adminClientID
	srv := servertest.New(t, server.Config{DataDir: dataDir, OIDC: cfg})
	return servertest.ServeHTTP(t, srv).Base
}
