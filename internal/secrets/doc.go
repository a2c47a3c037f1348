// Package secrets holds the values a caller may type into pages without the
// model ever seeing them, and takes them back out of anything the model
// would see.
//
// # The catalogue
//
// A secret belongs to a principal (the caller: "local" on stdio, a bearer
// token's principal over HTTP) and has a name, an optional description, one
// or more sites and one or more keys, each with a value. A secret with one
// value has the key "value" ([DefaultKey]); a sign-in has, say, "username"
// and "password". A caller names a key as secret "login/password" (or
// passes the key apart); with no key, a secret's only key is typed.
//
// A site is a host (app.example.com, 10.0.0.7, [::1]) on any port, a
// host:port (127.0.0.1:8080; a URL without a port has its scheme's default),
// *.example.com for every subdomain at any depth (not example.com itself:
// list it too), or * for every site. Secrets are typed only on http and
// https pages: never on data:, about:, blob:, file: or other pages, whatever
// their sites. One name may be bound to several site lists with different
// values (a password per environment); they must not share a site, and the
// most specific site that matches the page wins: host:port, then host, then
// the longest *.domain, then *.
//
// # Sources
//
// [Load] combines three [Sources]; a secret may take keys from several, as
// long as each key of a name and site list is defined once.
//
// The FLOW_SECRETS file has one value a line:
//
//	# principal  name[/key]          site[,site...]                value
//	local        staging-password    staging.example.com           correct horse
//	local        github/username     github.com                    ada-bot
//	local        github/password     github.com                    hunter2hunter2
//	local        github/_description github.com                    the release bot's account
//	ci           smtp-relay          *                             relay pass
//
// Fields are separated by any run of spaces or tabs, so columns may be
// aligned; the value is the rest of the line after the third field, with
// the spaces and tabs around it dropped (a value that begins or ends with a
// space belongs in FLOW_SECRETS_DIR). Blank lines and lines beginning with
// # are skipped. A name without /key is the key "value", so the old
// "principal name site value" lines keep their meaning. The key
// _description gives the secret's description instead of a value: it is
// shown in secret://secrets and never redacted. Sites are separated by
// commas, without spaces.
//
// FLOW_SECRETS_DIR is a folder laid out the way container platforms mount
// secrets, a folder per principal holding a folder per secret:
//
//	$FLOW_SECRETS_DIR/local/github/username         ada-bot
//	$FLOW_SECRETS_DIR/local/github/password         hunter2hunter2
//	$FLOW_SECRETS_DIR/local/github/_allowed_sites   github.com
//	$FLOW_SECRETS_DIR/local/github/_description     the release bot's account
//
// Each file but the two beginning with _ is a key: its value is the file's
// content with one trailing newline ("\n" or "\r\n") removed, so a value
// may hold spaces and inner newlines. _allowed_sites lists the sites, one a
// line or separated by commas (blank lines and # lines skipped); it is
// required. _description is optional. Names beginning with a dot are skipped
// (Kubernetes keeps ..data there) and symbolic links are followed.
//
// Environment variables, for platforms that inject secrets that way:
//
//	FLOW_SECRET_<principal>__<name>=<value>               the key "value"
//	FLOW_SECRET_<principal>__<name>__<key>=<value>        another key
//	FLOW_SECRET_<principal>__<name>_SITES=<site>,<site>   required
//	FLOW_SECRET_<principal>__<name>_DESCRIPTION=<text>    optional
//
// Two underscores separate principal, name and key, which are taken as
// written (case matters), so none of them may hold two underscores in a
// row, and a name may not end in _SITES or _DESCRIPTION. A shell cannot
// export a name with a dot or a dash; container platforms can. The server
// unsets the variables ([EnvPrefix]) once loaded, so the browser and driver
// processes it starts do not inherit them.
//
// # A broken configuration
//
// A source with problems (a blank site, a missing field, a key defined
// twice, an unreadable folder) does not stop the server: [Load] returns a
// usable [Store] and an error joining one [*LoadError] per problem, each
// naming the file and line, the path under the folder or the variable, and
// what is wrong. No problem quotes a value, nor any field of a FLOW_SECRETS
// line (a field may be a value in the wrong column). The server logs the
// error and starts; its Store is broken: [Store.Value] refuses every call
// with [ErrBroken] and where the first problem is ("the server's secret
// configuration is broken (2 problems, the first in the FLOW_SECRETS file at
// line 3); ask the operator to fix it and restart the server"), without the
// operator's paths or other principals' names; [Store.List] lists nothing;
// [Store.Redact] and [Store.Contains] still cover every value that could be
// read, so a half-written file leaks nothing.
//
// # Redaction
//
// [Store.Redact] replaces a value with "[secret name]" (or
// "[secret name/key]") wherever it shows up in text the model will see, in
// every form precomputed at load:
//
//   - as it is, and backwards;
//   - URL-encoded once and twice: Go's url.QueryEscape, a browser's form
//     submission (both "+" for a space), encodeURIComponent and "%20"
//     escaping, url.PathEscape, with upper- and lower-case hex;
//   - HTML: html.EscapeString, a browser's serialisation of text and
//     attributes (&amp; &lt; &gt; &quot; &nbsp;), and decimal (&#38;) and hex
//     (&#x26;, &#X26; digits) numeric references for & < > " ';
//   - JSON and JavaScript strings: encoding/json (\u0026), JSON.stringify,
//     \/ for slashes, \u00e9 for non-ASCII, a '...' literal, every special
//     character as \u00xx or \u00XX, and JSON inside JSON;
//   - base64, standard and URL alphabets, with and without padding, for the
//     value encoded alone; and, for the value inside a longer base64 text,
//     whose encoding depends on where it starts (its offset modulo 3), the
//     complete 4-character groups of the value with 0, 1 and 2 leading
//     bytes dropped, when they make at least 8 characters (values of 8 bytes
//     or more). The 1 or 2 bytes at either end that share a group with the
//     text around them stay: decoding what is left yields at most 2 bytes of
//     each end of the value.
//
// Pieces are redacted too, so that a field with a maxlength (which keeps
// the first characters of what was typed), a mask showing part of a value,
// or a page cutting it short does not hand the model most of it. A piece is
// a run of at least [MinFragmentLength] (6) characters of the value (or of
// its query-, form-, component-, JSON- or HTML-encoded form) found in the
// text, shorter than the whole; it is redacted when
//
//   - it holds a digit or a symbol: anything but letters, spaces and the
//     punctuation of words, e-mail addresses and host names (. - _ @ '),
//     which ordinary text rarely has in a run of 6 shared with a secret; or
//   - it stands alone in the text (no letter or digit touches it, as the
//     content of a field or a quoted string does) and cuts through a word of
//     the value (a letter of it touches a letter of the value just outside
//     it), as "Passwo" of "Password1!" in a maxlength=6 field does.
//
// So a 6-character field holding the start of "Xk9#mQ2v" or "Passwo" is
// redacted, while the words "Password" (of "Password1!"), "battery" (of
// "correct horse battery staple") and the "@example.com" of other people's
// addresses (of the username "ada@example.com") are not: a piece made only
// of letters and word punctuation that is a whole word of the value is
// left, which is the limit of this rule. Pieces of 4 or 5 characters are
// not redacted: they are years, short numbers and common words too often.
//
// Values shorter than [MinRedactLength] (4) characters are typed but never
// redacted: they are as common as words and numbers, and replacing them
// would blank ordinary text and point at the value. Redaction is a safety
// net for text that echoes a value by accident; it cannot undo a
// transformation it does not know (a page that shows a value in upper case,
// hex or split by spaces).
//
// [Store.Contains] reports whether text holds anything Redact would replace;
// a flow document that does is refused.
package secrets
