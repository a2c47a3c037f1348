package workspaces

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"github.com/redis/go-redis/v9"
)

// Transport is one Streamable HTTP transport session of the initialize
// handshake (its Mcp-Session-Id) as every replica sees it: whose it is
// and what the client said of itself, so that a replica which did not see
// initialize serves the session, and decides the same surface.
type Transport struct {
	ID        string `json:"id"`
	Principal string `json:"principal"`
	// ClientInfo and Capabilities are initialize's, as JSON; empty until
	// initialize has been answered.
	ClientInfo   json.RawMessage `json:"client_info,omitempty"`
	Capabilities json.RawMessage `json:"capabilities,omitempty"`
}

// TransportStore keeps transport sessions for a TTL that every Put slides.
type TransportStore interface {
	PutTransport(ctx context.Context, t Transport, ttl time.Duration) error
	// GetTransport returns the session, and false when there is none (or
	// it expired).
	GetTransport(ctx context.Context, id string) (Transport, bool, error)
	DeleteTransport(ctx context.Context, id string) error
}

// validTransportID keeps an id that names a file or key to what the
// server makes (mcp-session- and hex digits).
var validTransportID = regexp.MustCompile(`^mcp-session-[0-9a-f]{8,64}$`)

var errTransportID = errors.New("workspaces: not a transport session id")

func (f *fileStore) transportPath(id string) (string, error) {
	if !validTransportID.MatchString(id) {
		return "", errTransportID
	}
	return filepath.Join(filepath.Dir(f.dir), "transport-sessions", id+".json"), nil
}

func (f *fileStore) PutTransport(_ context.Context, t Transport, _ time.Duration) error {
	p, err := f.transportPath(t.ID)
	if err != nil {
		return err
	}
	return writeJSON(p, t, "write a transport session")
}

func (f *fileStore) GetTransport(_ context.Context, id string) (Transport, bool, error) {
	p, err := f.transportPath(id)
	if err != nil {
		return Transport{}, false, nil
	}
	// The embedded store serves one process, whose own memory says when
	// a session expires; a file left past the workspace TTL is removed.
	if fi, err := os.Stat(p); err == nil && f.now().Sub(fi.ModTime()) > f.ttl {
		_ = os.Remove(p)
		return Transport{}, false, nil
	}
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return Transport{}, false, nil
	}
	if err != nil {
		return Transport{}, false, storeErr("read a transport session", errors.New("the file cannot be read"))
	}
	var t Transport
	if json.Unmarshal(data, &t) != nil || t.ID != id {
		return Transport{}, false, nil
	}
	return t, true, nil
}

func (f *fileStore) DeleteTransport(_ context.Context, id string) error {
	p, err := f.transportPath(id)
	if err != nil {
		return nil
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return storeErr("end a transport session", errors.New("the file cannot be removed"))
	}
	return nil
}

func (s *redisStore) transportKey(id string) (string, error) {
	if !validTransportID.MatchString(id) {
		return "", errTransportID
	}
	return s.prefix + "mcp:" + id, nil
}

func (s *redisStore) PutTransport(ctx context.Context, t Transport, ttl time.Duration) error {
	k, err := s.transportKey(t.ID)
	if err != nil {
		return err
	}
	data, err := json.Marshal(t)
	if err != nil {
		return storeErr("write a transport session", err)
	}
	if err := s.c.Set(ctx, k, data, ttl).Err(); err != nil {
		return storeErr("write a transport session", errors.New("Redis did not answer"))
	}
	return nil
}

func (s *redisStore) GetTransport(ctx context.Context, id string) (Transport, bool, error) {
	k, err := s.transportKey(id)
	if err != nil {
		return Transport{}, false, nil
	}
	data, err := s.c.Get(ctx, k).Bytes()
	if errors.Is(err, redis.Nil) {
		return Transport{}, false, nil
	}
	if err != nil {
		return Transport{}, false, storeErr("read a transport session", errors.New("Redis did not answer"))
	}
	var t Transport
	if json.Unmarshal(data, &t) != nil || t.ID != id {
		return Transport{}, false, nil
	}
	return t, true, nil
}

func (s *redisStore) DeleteTransport(ctx context.Context, id string) error {
	k, err := s.transportKey(id)
	if err != nil {
		return nil
	}
	if err := s.c.Del(ctx, k).Err(); err != nil {
		return storeErr("end a transport session", errors.New("Redis did not answer"))
	}
	return nil
}
