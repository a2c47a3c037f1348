package admin

import (
	"errors"
	"io"
	"net/http"

	"github.com/selenium-flow/selenium-flow/internal/flows"
)

// maxFlow bounds a flow document sent to PUT.
const maxFlow = 1 << 20

func (a *Admin) listFlows(w http.ResponseWriter, r *http.Request) {
	owner, ok := a.workspaceOf(w, r)
	if !ok {
		return
	}
	var list []flows.Summary
	if a.flows != nil {
		list = a.flows.Own(owner)
	}
	writeJSON(w, http.StatusOK, map[string]any{"flows": nonNil(list)})
}

// flowOf reads the owner's own flow named in the path, refusing with the
// names there are.
func (a *Admin) flowOf(w http.ResponseWriter, r *http.Request, owner string) (flows.Flow, bool) {
	if a.flows == nil {
		a.refuse(w, http.StatusNotFound, "This server keeps no flows.")
		return flows.Flow{}, false
	}
	f, err := a.flows.GetOwn(owner, r.PathValue("flow"))
	if err != nil {
		a.flowRefusal(w, r, err)
		return flows.Flow{}, false
	}
	return f, true
}

func (a *Admin) flowRefusal(w http.ResponseWriter, r *http.Request, err error) {
	var nf *flows.NotFoundError
	list := "GET " + APIPrefix + "workspaces/" + r.PathValue("ws") + "/flows lists its flows."
	switch {
	case errors.As(err, &nf):
		a.refuse(w, http.StatusNotFound, "This workspace has no flow called "+quote(r.PathValue("flow"))+". "+list)
	case errors.Is(err, flows.ErrNotFound):
		a.refuse(w, http.StatusNotFound, "This workspace has no flow called "+quote(r.PathValue("flow"))+". "+list)
	default:
		a.refuse(w, http.StatusInternalServerError, err.Error())
	}
}

func (a *Admin) getFlow(w http.ResponseWriter, r *http.Request) {
	owner, ok := a.workspaceOf(w, r)
	if !ok {
		return
	}
	if f, ok := a.flowOf(w, r, owner); ok {
		writeJSON(w, http.StatusOK, f)
	}
}

// putFlow saves the document in the body as the workspace owner's flow,
// validated as save_flow validates it; a mistake is a 422 with each
// problem at its JSON path, for the page to show in place.
func (a *Admin) putFlow(w http.ResponseWriter, r *http.Request) {
	owner, ok := a.workspaceOf(w, r)
	if !ok {
		return
	}
	if a.flows == nil {
		a.refuse(w, http.StatusNotFound, "This server keeps no flows.")
		return
	}
	doc, err := io.ReadAll(io.LimitReader(r.Body, maxFlow+1))
	if err != nil || len(doc) > maxFlow {
		a.refuse(w, http.StatusRequestEntityTooLarge, "The flow document is over 1 MiB or could not be read; send a smaller document.")
		return
	}
	f, err := a.flows.Parse(doc)
	var invalid *flows.InvalidError
	switch {
	case errors.As(err, &invalid):
		writeJSON(w, http.StatusUnprocessableEntity, problem{
			Error:    "The flow document is not valid; fix the problems listed and save again (flow://schema is the full shape).",
			Problems: invalid.Problems,
		})
		return
	case err != nil:
		a.refuse(w, http.StatusBadRequest, "The flow document could not be read: "+err.Error())
		return
	case f.Name != r.PathValue("flow"):
		writeJSON(w, http.StatusUnprocessableEntity, problem{
			Error:    "The document's name " + quote(f.Name) + " differs from the flow " + quote(r.PathValue("flow")) + " being saved; keep the name, or PUT it at " + APIPrefix + "workspaces/" + r.PathValue("ws") + "/flows/" + f.Name + " to save a copy.",
			Problems: []string{"at /name: must be " + quote(r.PathValue("flow"))},
		})
		return
	}
	created, err := a.flows.Save(owner, f)
	if err != nil {
		a.refuse(w, http.StatusInternalServerError, err.Error())
		return
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	writeJSON(w, status, f)
}

func (a *Admin) deleteFlow(w http.ResponseWriter, r *http.Request) {
	owner, ok := a.workspaceOf(w, r)
	if !ok {
		return
	}
	if _, ok := a.flowOf(w, r, owner); !ok {
		return
	}
	if err := a.flows.Delete(owner, r.PathValue("flow")); err != nil {
		a.flowRefusal(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"deleted": r.PathValue("flow")})
}

// shareFlow shares or unshares the owner's flow with every principal.
func (a *Admin) shareFlow(shared bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		owner, ok := a.workspaceOf(w, r)
		if !ok {
			return
		}
		f, ok := a.flowOf(w, r, owner)
		if !ok {
			return
		}
		f.Shared = shared
		if _, err := a.flows.Save(owner, f); err != nil {
			a.refuse(w, http.StatusInternalServerError, err.Error())
			return
		}
		writeJSON(w, http.StatusOK, f)
	}
}
