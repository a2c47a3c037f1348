package config

import (
	"flag"
	"fmt"
	"strings"
	"time"
)

// Flags holds the command line's settings: NewFlags registers one flag per
// setting on a FlagSet, and Load reads back those the command line gave.
type Flags struct {
	fs     *flag.FlagSet
	values map[string]*flagValue
}

// flagValue is one setting's flag.
type flagValue struct {
	s   Setting
	v   string
	set bool
}

func (f *flagValue) String() string { return f.v }

func (f *flagValue) Set(v string) error {
	if f.s.Bool {
		if _, err := parseBool(v); err != nil {
			return err
		}
	}
	f.v, f.set = v, true
	return nil
}

// IsBoolFlag lets a Bool setting's flag stand alone (--no-scripts).
func (f *flagValue) IsBoolFlag() bool { return f.s.Bool }

// NewFlags registers every setting as a flag of fs, with its help line and
// environment variable.
func NewFlags(fs *flag.FlagSet) *Flags {
	f := &Flags{fs: fs, values: map[string]*flagValue{}}
	for _, s := range table {
		v := &flagValue{s: s}
		f.values[s.Key] = v
		help := s.Help + " (" + s.EnvName()
		if s.Default != "" {
			help += "; default " + s.Default
		}
		fs.Var(v, s.FlagName(), help+")")
	}
	return f
}

// Config is the effective configuration: every setting's value and source.
// It does not change after Load.
type Config struct {
	file   string
	values map[string]Value
}

// Load is the effective configuration: defaults, then the YAML file named
// by --config or FLOW_CONFIG, then the environment (environ as
// os.Environ gives it), then the flags the command line set. flags may be
// nil (no command line). An unknown key in the file, or a value a Bool
// setting cannot take, stops it with an error naming the file and line.
func Load(flags *Flags, environ []string) (*Config, error) {
	env := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	c := &Config{values: map[string]Value{}}
	for _, s := range table {
		c.values[s.Key] = Value{Setting: s, Value: s.Default, Source: FromDefault}
	}
	set := func(key, v string, src Source) {
		val := c.values[key]
		val.Value, val.Source = v, src
		c.values[key] = val
	}

	// The file's name comes from the command line or the environment
	// only: a file cannot name another file.
	cfgSetting, _ := lookup("config")
	if v, ok := env[cfgSetting.EnvName()]; ok && v != "" {
		set("config", v, FromEnv)
	}
	if flags != nil && flags.values["config"].set {
		set("config", flags.values["config"].v, FromFlag)
	}
	if c.file = c.values["config"].Value; c.file != "" {
		fromFile, err := readFile(c.file)
		if err != nil {
			return nil, err
		}
		for _, e := range fromFile {
			set(e.key, e.value, FromFile)
		}
	}
	for _, s := range table {
		if v, ok := env[s.EnvName()]; ok && s.Key != "config" && v != "" {
			set(s.Key, v, FromEnv)
		}
		if flags != nil && flags.values[s.Key].set {
			set(s.Key, flags.values[s.Key].v, FromFlag)
		}
	}
	for _, s := range table {
		if v := c.values[s.Key]; s.Bool && v.Value != "" {
			if _, err := parseBool(v.Value); err != nil {
				return nil, fmt.Errorf("%s (%s, from the %s): %w", s.Key, s.EnvName(), v.Source, err)
			}
		}
	}
	return c, nil
}

// Get is a setting's effective value, "" when none; it panics on a key
// the table does not declare, which is a bug of the caller.
func (c *Config) Get(key string) string { return c.value(key).Value }

// Bool is a Bool setting's effective value.
func (c *Config) Bool(key string) bool {
	b, _ := parseBool(c.value(key).Value)
	return b
}

// Duration is a setting's effective value as a positive duration; zero
// when unset.
func (c *Config) Duration(key string) (time.Duration, error) {
	v := c.value(key)
	if v.Value == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(v.Value)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%s=%q (from the %s) is not a positive duration; use e.g. 15m or 1h", v.EnvName(), v.Value, v.Source)
	}
	return d, nil
}

// Source is where a setting's value came from.
func (c *Config) Source(key string) Source { return c.value(key).Source }

func (c *Config) value(key string) Value {
	v, ok := c.values[key]
	if !ok {
		panic("config: no setting " + key + " is declared in the table")
	}
	return v
}

// Values are every setting's effective value in table order.
func (c *Config) Values() []Value {
	out := make([]Value, 0, len(table))
	for _, s := range table {
		out = append(out, c.values[s.Key])
	}
	return out
}

// Shown is one setting as the admin page's Settings view and
// `selenium-flow config` show it: secrets masked.
type Shown struct {
	Key    string `json:"key"`
	Env    string `json:"env"`
	Value  string `json:"value"`
	Source Source `json:"source"`
	// Private is the table's Private: a server path or address.
	Private bool `json:"private,omitempty"`
}

// Settings is every setting with its shown value and source, in table
// order, for the admin page's Settings view.
func (c *Config) Settings() []Shown {
	vals := c.Values()
	out := make([]Shown, len(vals))
	for i, v := range vals {
		out[i] = Shown{Key: v.Key, Env: v.EnvName(), Value: v.Shown(), Source: v.Source, Private: v.Private}
	}
	return out
}

func parseBool(v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		return true, nil
	case "", "0", "false", "no", "off":
		return false, nil
	}
	return false, fmt.Errorf("%q is not a yes/no value; use 1 or 0", v)
}
