// Package ui embeds the built MCP App shell.
//
// The shell is a TypeScript app (src/) built by `npm run build` into one
// self-contained HTML file, dist/index.html, that hosts with the MCP Apps
// extension draw as ui://selenium-flow/component. The server's show tool
// returns {component, uri, data}; the shell draws it and drills in through
// further show calls. ui_test.go fails when dist/ is older than its sources.
package ui

import _ "embed"

// Shell is dist/index.html: the app shell served as ui://selenium-flow/component
// with MIME type text/html;profile=mcp-app.
//
//go:embed dist/index.html
var Shell []byte
