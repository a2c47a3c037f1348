package secrets

import (
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

func TestEnv(t *testing.T) {
	env := []string{
		"PATH=/bin",
		"FLOW_SECRETS=/ignored",
		"FLOW_SECRET_alice__gh__username=ada-user",
		"FLOW_SECRET_alice__gh__password=gh-pass-1",
		"FLOW_SECRET_alice__gh_SITES=github.com, *.github.com",
		"FLOW_SECRET_alice__gh_DESCRIPTION=The release bot",
		"FLOW_SECRET_bob__login=bobs-pass",
		"FLOW_SECRET_bob__login_SITES=app.example.com",
		"FLOW_SECRET_ci-bot__smtp.relay=relay-pass=with=equals",
		"FLOW_SECRET_ci-bot__smtp.relay_SITES=*",
	}
	s, err := Load(Sources{Environ: env})
	assert.NilError(t, err)
	assert.Check(t, is.DeepEqual(s.List("alice"), []Secret{{Name: "gh", Description: "The release bot", Sites: []string{"*.github.com", "github.com"}, Keys: []string{"password", "username"}}}))
	assert.Check(t, is.DeepEqual(s.List("ci-bot"), []Secret{{Name: "smtp.relay", Sites: []string{"*"}, Keys: []string{"value"}}}))
	cases := []struct{ principal, name, page, want string }{
		{"alice", "gh/password", "https://api.github.com/", "gh-pass-1"},
		{"bob", "login", "https://app.example.com/", "bobs-pass"},
		{"ci-bot", "smtp.relay", "https://mail.test/", "relay-pass=with=equals"},
	}
	for _, tc := range cases {
		v, err := s.Value(tc.principal, tc.name, "", tc.page)
		assert.Check(t, err)
		assert.Check(t, is.Equal(v, tc.want), tc.name)
	}
}

func TestEnvProblems(t *testing.T) {
	cases := []struct {
		name string
		env  []string
		want string
	}{
		{"no sites", []string{"FLOW_SECRET_alice__gh=gh-pass-1"},
			"FLOW_SECRET_alice__gh: has no FLOW_SECRET_alice__gh_SITES variable"},
		{"sites without a value", []string{"FLOW_SECRET_alice__gh_SITES=github.com"},
			"FLOW_SECRET_alice__gh_SITES: belongs to a secret without a value; set FLOW_SECRET_alice__gh or FLOW_SECRET_alice__gh__<key>"},
		{"blank site", []string{"FLOW_SECRET_alice__gh=gh-pass-1", "FLOW_SECRET_alice__gh_SITES=github.com,,x"},
			"FLOW_SECRET_alice__gh_SITES: site 2: a site is blank"},
		{"empty sites", []string{"FLOW_SECRET_alice__gh=gh-pass-1", "FLOW_SECRET_alice__gh_SITES="},
			"FLOW_SECRET_alice__gh_SITES: is empty"},
		{"sites as a key", []string{"FLOW_SECRET_alice__gh=gh-pass-1", "FLOW_SECRET_alice__gh__SITES=github.com"},
			"FLOW_SECRET_alice__gh__SITES: names a key SITES; the secret's sites are set by FLOW_SECRET_alice__gh_SITES, with one underscore"},
		{"no name", []string{"FLOW_SECRET_alice=gh-pass-1"},
			"FLOW_SECRET_alice: is not a secret variable; want FLOW_SECRET_<principal>__<name>"},
		{"too many parts", []string{"FLOW_SECRET_a__b__c__d=gh-pass-1"},
			"FLOW_SECRET_a__b__c__d: is not a secret variable"},
		{"bad principal", []string{"FLOW_SECRET_al!ce__gh=gh-pass-1"},
			"FLOW_SECRET_al!ce__gh: does not begin with a valid principal"},
		{"bad name", []string{"FLOW_SECRET_alice__g!h=gh-pass-1"},
			"FLOW_SECRET_alice__g!h: does not name a valid secret"},
		{"bad key", []string{"FLOW_SECRET_alice__gh___pw=gh-pass-1"},
			"FLOW_SECRET_alice__gh___pw: does not end with a valid key"},
		{"empty value", []string{"FLOW_SECRET_alice__gh="},
			"FLOW_SECRET_alice__gh: is empty"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Load(Sources{Environ: tc.env})
			assert.Check(t, is.ErrorContains(err, "environment, "+tc.want))
			checkNoValue(t, err.Error())
			_, verr := s.Value("alice", "gh", "", "https://github.com/")
			assert.Check(t, is.ErrorContains(verr, "the first in a FLOW_SECRET_ environment variable"))
		})
	}
}
