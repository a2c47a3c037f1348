package flows

// Owners lists the principals that have stored flows, for an operator who
// tidies every principal's flows (the admin page).
func (s *Store) Owners() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.owners()
}

// Own lists the principal's own flows only, without the flows others
// share: what an operator sees under that principal's workspace.
func (s *Store) Own(principal string) []Summary {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []Summary
	for _, f := range s.own(principal) {
		out = append(out, summarize(f, principal))
	}
	return out
}

// GetOwn returns the principal's own flow called name, never another's
// shared one: an edit from the admin page must land where it was read.
func (s *Store) GetOwn(principal, name string) (Flow, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	f, err := s.read(principal, name)
	if err != nil {
		if err == ErrNotFound {
			var names []string
			for _, o := range s.own(principal) {
				names = append(names, o.Name)
			}
			return Flow{}, &NotFoundError{Name: name, Available: names}
		}
		return Flow{}, err
	}
	return f, nil
}
