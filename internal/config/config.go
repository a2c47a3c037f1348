// Package config is selenium-flow's configuration: every setting declared
// once (table.go) with its YAML key, environment variable, flag, default,
// whether it is a secret and one line of help, and read from a YAML file
// (--config or FLOW_CONFIG), the environment and the command line, in
// that order of precedence: a flag beats the environment, which beats the
// file, which beats the default.
//
// The serve flags, --help, the README's settings table, the operator
// manual, `selenium-flow config` and the admin page's Settings view all
// come from the one table, so a setting is added by one line there:
//
//	{Key: "oidc_issuer", Help: "the OpenID Connect issuer URL"},
//
// gives the YAML key oidc_issuer, the variable FLOW_OIDC_ISSUER and the
// flag --oidc-issuer; cmd/selenium-flow reads it with c.Get("oidc_issuer").
//
// A typical start:
//
//	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
//	flags := config.NewFlags(fs)
//	if err := fs.Parse(args); err != nil { … }
//	c, err := config.Load(flags, os.Environ())
//	// c.Get("data_dir"), c.Bool("no_scripts"), c.Settings()
package config

import (
	"slices"
	"strings"
)

// Setting is one setting as declared in the table.
type Setting struct {
	// Key is the YAML key, lower case with underscores.
	Key string
	// Env is the environment variable; FLOW_ and the key in capitals
	// when empty (see EnvName).
	Env string
	// Default is the value when nothing sets one, as text; "" is none.
	Default string
	// Secret settings are masked wherever a value is shown.
	Secret bool
	// Private settings name a server path or address (a folder, a file,
	// the Grid): `selenium-flow config` on the server's own console shows
	// them, the admin page only whether they are set.
	Private bool
	// Bool settings take 1/true/yes or 0/false/no, and their flag needs no
	// value (--no-scripts).
	Bool bool
	// Join, when set, lets the file give a YAML list, joined with it into
	// the one text the environment variable would hold.
	Join string
	// Help is one line saying what the setting is for (--help).
	Help string
	// Doc, when set, is the longer Markdown the README and the manual
	// show instead of Help.
	Doc string
}

// EnvName is the setting's environment variable.
func (s Setting) EnvName() string {
	if s.Env != "" {
		return s.Env
	}
	return "FLOW_" + strings.ToUpper(s.Key)
}

// FlagName is the setting's flag, without the leading dashes.
func (s Setting) FlagName() string { return strings.ReplaceAll(s.Key, "_", "-") }

// Table is every setting, in the order --help and the manual show them.
func Table() []Setting { return slices.Clone(table) }

// lookup is the declared setting of a key.
func lookup(key string) (Setting, bool) {
	i := slices.IndexFunc(table, func(s Setting) bool { return s.Key == key })
	if i < 0 {
		return Setting{}, false
	}
	return table[i], true
}

// Keys are the declared keys, for a refusal that lists what is known.
func Keys() []string {
	out := make([]string, len(table))
	for i, s := range table {
		out[i] = s.Key
	}
	return out
}

// Source is where a setting's effective value came from.
type Source string

// The sources, from weakest to strongest.
const (
	FromDefault Source = "default"
	FromFile    Source = "file"
	FromEnv     Source = "environment"
	FromFlag    Source = "flag"
)

// Value is one setting's effective value and its source.
type Value struct {
	Setting
	Value  string
	Source Source
}

// Shown is the value as it may be printed: a secret's value masked, the
// user information of a URL (a Grid's password) hidden.
func (v Value) Shown() string {
	switch {
	case v.Value == "":
		return ""
	case v.Secret:
		return "********"
	}
	return hideUserinfo(v.Value)
}

// hideUserinfo masks the user:password@ part of a URL in s.
func hideUserinfo(s string) string {
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok {
		return s
	}
	host, path, _ := strings.Cut(rest, "/")
	at := strings.LastIndex(host, "@")
	if at < 0 {
		return s
	}
	out := scheme + "://********@" + host[at+1:]
	if path != "" || strings.Contains(rest, "/") {
		out += "/" + path
	}
	return out
}
