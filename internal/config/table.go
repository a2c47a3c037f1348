package config

// table is every setting of selenium-flow, declared once. Adding one is
// one line here: a key (the YAML key; the flag is the key with hyphens,
// the variable FLOW_ and the key in capitals unless Env says otherwise),
// its default as text, whether it is a secret, and one line of help.
// cmd/selenium-flow reads the value with Config.Get(key).
var table = []Setting{
	{Key: "config", Help: "a YAML file of settings, keys as listed here (file < environment < flag); only as a flag or FLOW_CONFIG"},
	{Key: "http", Help: "serve Streamable HTTP at this address (e.g. 127.0.0.1:8765) instead of stdio; the endpoint is /mcp"},
	{Key: "resources", Default: "auto", Help: "the surface for callers that do not choose per request: on (native resources), off (the list_resources/read_resource mirror) or auto (by clientInfo)"},
	{Key: "token", Secret: true, Help: "accept this bearer token over HTTP, as the principal \"local\" (beside any tokens file)"},
	{Key: "tokens", Help: "a file of \"token principal [roles=operator]\" lines; HTTP callers send Authorization: Bearer <token>; a non-loopback address needs tokens", Doc: "a file of `token principal` lines, optionally followed by `roles=operator` (an operator sees every workspace in the admin page); over HTTP each request needs `Authorization: Bearer <token>` and acts as that principal. Serving a non-loopback address without tokens is refused.. Default: none (loopback only)"},
	{Key: "data_dir", Help: "folder for every caller's kept files and flows (default $XDG_DATA_HOME/selenium-flow, else ~/.local/share/selenium-flow)", Doc: "where every caller's kept files (`files/<principal>/…`, mode 0600) and flows (`flows/<principal>/…`) live. Default: `$XDG_DATA_HOME/selenium-flow`, else `~/.local/share/selenium-flow`; `make run` uses `./.data`"},
	{Key: "selenium_url", Env: "SELENIUM_URL", Help: "a Selenium Grid 4 or other W3C WebDriver endpoint (default: start chromedriver from PATH)", Doc: "a Selenium Grid 4 (or any W3C WebDriver endpoint) to run browsers on; downloads then use Grid managed downloads. Default: none: a `chromedriver` from `PATH` is started on a loopback port and stopped with the server"},
	{Key: "idle_timeout", Default: "15m", Help: "close a caller's browser nobody used for this long (a Go duration: 15m, 1h)", Doc: "close a caller's browser nobody used for this long (a Go duration: `15m`, `1h`)"},
	{Key: "exclude_tools", Join: ",", Help: "comma-separated tool names left out of the tool list; an unknown name stops the start", Doc: "comma-separated tool names left out of the tool list; a name that is no tool stops the server at start-up. Index topics nothing left can answer are dropped (their documents stay readable), instructions, prompts and `flow://schema` name only what is left, the flow tools go too when no step tool is left, and `knowledge://index` lists what is unavailable"},
	{Key: "no_scripts", Bool: true, Help: "1 leaves out execute_script, which runs a caller's JavaScript in the page", Doc: "`1` leaves out `execute_script`, which runs a caller's JavaScript in the page: it is then neither listed, callable nor a flow step (as if named in `FLOW_EXCLUDE_TOOLS`). Default: offered"},
	{Key: "allowed_hosts", Join: ",", Help: "comma-separated Host names the HTTP server answers for besides localhost, 127.0.0.1 and [::1]", Doc: "comma-separated `Host` names the HTTP server answers for. A server reached on a loopback address answers only `localhost`, `127.0.0.1` and `[::1]` (and these), so a web page cannot reach it by DNS rebinding; elsewhere, when set, only these"},
	{Key: "allowed_origins", Join: ",", Help: "comma-separated browser origins (https://app.example.com) that may call the HTTP server", Doc: "comma-separated browser origins (`https://app.example.com`) allowed to call the HTTP server besides its own origin and, on loopback, loopback pages; any other `Origin` is refused with 403"},
	{Key: "browser_args", Join: " ", Help: "extra Chromium arguments, each starting with --, e.g. a closed network's host-resolver rules", Doc: "extra Chromium arguments, each starting with `--`, for every local browser (a closed network's `--host-resolver-rules`, say). Default: none: browsers resolve `localhost`, intranet and public names"},
	{Key: "browser_deny", Join: ",", Help: "comma-separated addresses and CIDR ranges local browsers may not connect to (the server's own ports and link-local addresses are always closed)", Doc: "comma-separated addresses and CIDR ranges a local browser may not connect to. Always closed, whatever is set: the ports of the server, its chromedriver and every browser's DevTools on any address of this machine (by any route: navigation, redirect, frame, fetch, WebSocket, a name resolving there), and link-local addresses with the cloud metadata services. A local browser connects through a small proxy of the server's that decides on the address it dials"},
	{Key: "browser_allow", Join: ",", Help: "comma-separated addresses and CIDR ranges opened despite a default refusal, e.g. a link-local device", Doc: "comma-separated ranges opened despite a default refusal (a link-local device); never the server's own ports"},
	{Key: "secrets", Help: "a file of \"principal name[/key] site[,site] value\" lines typed by write(secret=name)", Doc: "a file of `principal name[/key] site[,site…] value` lines (spaces or tabs between fields; the value is the rest of the line; a site is a host, `host:port`, `*.domain` or `*`; `#` starts a comment). `write(secret=\"name\")` — or `\"name/key\"` for one key of a secret with several — types the value on those sites only, never on `data:`, `about:`, `blob:` or `file:` pages; no result, outline, flow, log or error ever shows it, in any common encoding"},
	{Key: "secrets_dir", Help: "a folder of <principal>/<name>/<key> files, with _allowed_sites and _description, one folder per secret", Doc: "a folder with one folder per secret, `<principal>/<name>/`, holding a file per key plus `_allowed_sites` (required) and `_description` — the way container platforms mount secrets"},
	{Key: "log_level", Default: "info", Help: "the lowest level logged to stderr: debug, info, warn or error (one line per request at info)"},
	{Key: "metrics_public", Bool: true, Help: "1 serves GET /metrics without a bearer token (for a scraper inside the operator's network); by default /metrics needs a token like every other path"},
}

// SecretEnvPattern names the environment variables that carry secret
// values. They are no setting (a file or flag would put a value where it
// is logged or seen in ps), so they are only documented beside the table.
const SecretEnvPattern = "FLOW_SECRET_<principal>__<name>[__<key>]"

// SecretEnvHelp is the help line of SecretEnvPattern.
const SecretEnvHelp = "a secret's value, with ..._SITES (required) and ..._DESCRIPTION; removed from the environment at start"
