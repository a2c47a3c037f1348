// Package workspaces keeps what a caller works in — its workspace — outside
// the server's memory, so that the browser outlives the server process and
// several replicas serve one caller.
//
// A workspace is named by its owner (the principal) and a name the caller
// picks (?workspace=NAME or X-Workspace: NAME on HTTP, Middleware); unnamed
// it is Default. Its Record says which browser it runs (browser choice,
// window, timeouts, insecure), where it was (last URL, driver session id
// while one is live, window handle and frame), the site data saved with
// save_site_data and a short history of sites visited.
//
// A Store holds the records. Two implementations exist, chosen by one
// setting (Open):
//
//   - the embedded store (FLOW_STORE empty): one JSON file per workspace
//     under FLOW_DATA_DIR/workspaces, written with internal/atomicfile. A
//     record is small, read once per call and written only when it
//     changed, so a database buys nothing here; plain files keep the data
//     folder readable, need no new dependency, and share the one atomic
//     write every other store of the data folder uses. Records are written
//     without fsync (atomicfile.WriteUnsynced): a killed process loses
//     nothing, and after a machine crash the browser is gone anyway, while
//     two fsyncs would cost more than the page action that moved it.
//   - Redis (FLOW_STORE=redis://host:port/db): one key per workspace under
//     a prefix (FLOW_STORE_PREFIX, default "selenium-flow:") so a shared
//     database is safe, each with a sliding TTL (FLOW_WORKSPACE_TTL,
//     default a day). This is the store for several replicas.
//
// A store only ever answers for one principal at a time: every method takes
// the owner, and a record of another principal is neither listed nor read.
//
//	store, err := workspaces.Open(workspaces.Config{DataDir: dir})
//	rec, ok, err := store.Get(ctx, "alice", "default")
package workspaces
