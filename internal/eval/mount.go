package eval

import (
	"context"
	"fmt"
	"io"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// ClientInfo is how the harness introduces itself to the server.
var ClientInfo = mcp.Implementation{Name: "selenium-flow-eval", Version: "1"}

// Mounted is the server the harness mounted, alone, over stdio.
type Mounted struct {
	Client *client.Client
	Init   *mcp.InitializeResult
}

// Close ends the connection and the server process.
func (m *Mounted) Close() error { return m.Client.Close() }

// Mount starts `bin serve --resources on|off` as a child process, with env
// (KEY=VALUE) added to this process's environment, connects mcp-go's stdio
// client to it and initializes with ClientInfo. The process lives until ctx
// ends or Close. The server's stderr goes to stderr when set.
func Mount(ctx context.Context, bin, resources string, env []string, stderr io.Writer) (*Mounted, error) {
	if resources != "on" && resources != "off" {
		return nil, fmt.Errorf("resources must be on or off, not %q", resources)
	}
	var opts []transport.StdioOption
	if stderr != nil {
		opts = append(opts, transport.WithCommandStderrWriter(stderr))
	}
	tp := transport.NewStdioWithOptions(bin, env, []string{"serve", "--resources", resources}, opts...)
	if err := tp.Start(ctx); err != nil {
		return nil, fmt.Errorf("starting %s serve: %w", bin, err)
	}
	c := client.NewClient(tp)
	req := mcp.InitializeRequest{}
	req.Params.ClientInfo = ClientInfo
	init, err := c.Initialize(ctx, req)
	if err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("initializing the server: %w", err)
	}
	return &Mounted{Client: c, Init: init}, nil
}
