package admin

import (
	"encoding/json"
	"net/http"
)

// problem is every refusal's body: a sentence saying what was wrong and
// which call would work, and for a flow document each problem in place.
type problem struct {
	Error    string   `json:"error"`
	Problems []string `json:"problems,omitempty"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(true)
	_ = enc.Encode(v)
}

// refuse answers a 4xx or 5xx with the sentence, scrubbed of the
// server's addresses and folders.
func (a *Admin) refuse(w http.ResponseWriter, status int, sentence string) {
	writeJSON(w, status, problem{Error: a.scrub.Scrub(sentence)})
}

func (a *Admin) notFound(w http.ResponseWriter, r *http.Request) {
	a.refuse(w, http.StatusNotFound, "There is no admin API call "+r.Method+" "+r.URL.Path+". GET "+APIPrefix+"workspaces lists the workspaces you can see; the page at "+PagePath+" draws them all.")
}
