// Package admin is the operator's page: a JSON API under /admin/api/ and
// the single-page app at /admin that draws it, embedded in the binary.
//
// An operator (auth.IsOperator) sees and tidies every principal's
// workspaces — the open browsers, kept files, flows, saved site data and
// history — and the secret catalogue and settings; any other principal
// sees only its own. The server builds one Admin from the things it reads
// and mounts it:
//
//	a := admin.New(
//		admin.WithSessions(manager), admin.WithFiles(store),
//		admin.WithFlows(flowStore), admin.WithSecrets(secretStore),
//		admin.WithSettings(func() []admin.Setting { ... }),
//	)
//	mux.Handle(admin.APIPrefix, a.API())         // behind the bearer-token middleware
//	handler = a.Public(tokens.Middleware(mux))   // the page itself and /admin/api/config
//
// Every mutating call is POST, PUT or DELETE and must carry the
// X-Flow-Admin header (csrf.go); a refusal is JSON, {"error": sentence},
// with a 4xx status, and never shows a secret value, a server path or a
// driver URL.
package admin
