package flows

import (
	"fmt"
	"regexp"
	"strings"
)

// A flow types secrets by name, and a name means the runner's secret: the
// server looks it up in the catalogue of whoever runs the flow. For a
// caller's own flow that is the point. For a flow another caller shared it
// would be a trap: alice's flow could type "pw" into her own page when bob
// runs it, and read his value there. So a shared flow may type only the
// secrets its runner hands it for that run, through parameters of type
// secret, and the server still types each on its own sites only.

// secretRefRE is a secret parameter's value: a secret name, optionally
// with /key.
var secretRefRE = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}(/[A-Za-z0-9][A-Za-z0-9._-]{0,63})?$`)

// placeholderRE is a whole-argument parameter reference, {{name}}.
var placeholderRE = regexp.MustCompile(`^\{\{\s*([A-Za-z_][A-Za-z0-9_]{0,63})\s*\}\}$`)

// UnpassedSecrets lists the steps of f that would type a secret the runner
// did not pass: a write step whose secret argument is anything but a
// parameter of type secret. Run by another principal than its owner, such
// a flow is refused before its first step.
func (f Flow) UnpassedSecrets() []string {
	secretParams := map[string]bool{}
	for _, p := range f.Parameters {
		if p.Type == "secret" {
			secretParams[p.Name] = true
		}
	}
	var out []string
	for i, st := range f.Steps {
		v, ok := st.Args["secret"]
		if !ok {
			continue
		}
		ref, _ := v.(string)
		if m := placeholderRE.FindStringSubmatch(strings.TrimSpace(ref)); m != nil && secretParams[m[1]] {
			continue
		}
		out = append(out, f.Label(i))
	}
	return out
}

// ForeignSecretsError refuses to run another principal's flow that would
// type the runner's secrets unasked.
func ForeignSecretsError(f Flow, owner string, steps []string) error {
	return fmt.Errorf("the flow %s is %s's, and %s would type one of your secrets without your passing it. "+
		"A flow shared with you types only the secrets you pass for the run, through parameters of type secret: "+
		"ask %s to declare one (e.g. {\"name\": \"password\", \"type\": \"secret\"}) and use {\"secret\": \"{{password}}\"} in the write step, "+
		"or save a copy of your own under another name", f.Name, owner, strings.Join(steps, ", "), owner)
}
