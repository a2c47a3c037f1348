package browser

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// maxShipped is the largest file shipped to a Grid node for an upload.
const maxShipped = 64 << 20

// shipToNode copies the local file at path to the Grid node that runs the
// session (Selenium's POST /session/{id}/se/file, a base64 zip of the one
// file) and returns the path the node kept it at, which the node's file
// input then takes. The caller holds the session lock.
func (s *Session) shipToNode(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("the file to upload cannot be read")
	}
	if len(data) > maxShipped {
		return "", fmt.Errorf("the file is larger than %d bytes, the most shipped to a Grid node", maxShipped)
	}
	var zipped bytes.Buffer
	zw := zip.NewWriter(&zipped)
	w, err := zw.Create(filepath.Base(path))
	if err == nil {
		_, err = w.Write(data)
	}
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		return "", fmt.Errorf("the file could not be packed for the Grid: %w", err)
	}
	// The driver's HTTP client bounds the call (timeoutTransport).
	v, err := s.raw(context.Background(), "POST", "/se/file", map[string]any{"file": base64.StdEncoding.EncodeToString(zipped.Bytes())})
	if err != nil {
		return "", fmt.Errorf("the Grid did not take the file (%w); it needs a node that accepts uploads", err)
	}
	var remote string
	if err := json.Unmarshal(v, &remote); err != nil || remote == "" {
		return "", fmt.Errorf("the Grid did not say where it kept the file")
	}
	return remote, nil
}
