package resources

// Scope is knowledge/server-scope.json: what the server is for and the topics
// its knowledge answers. A document's or skill's priority and the scope clause
// of its description come from the one topic that names it.
type Scope struct {
	Purpose  string
	Coverage string
	Topics   []Topic
}

// Topic groups the documents, skills and tools that answer one subject.
type Topic struct {
	ID      string
	Title   string
	Summary string
	// Scope is "everywhere" (holds on any site the caller automates) or
	// "server" (running and operating this server).
	Scope     string
	Documents []string
	Skills    []string
	Tools     []string
}

// Priorities by the place an entry holds; gen and the index use the same.
const (
	PriorityIndex      = 1.0
	PriorityEverywhere = 0.8
	PriorityServer     = 0.6
	PriorityReference  = 0.3
)
