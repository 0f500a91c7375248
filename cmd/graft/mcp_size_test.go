package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graftdev/graft/apply"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var updateDocs = flag.Bool("update", false, "rewrite docs/TOOLS.md from the measured tool list sizes")

// modelBytes lists the tools a server hands a client, through the SDK, and
// returns the size of what clients give the model: each tool's name,
// description and input schema as compact JSON (output schemas are for
// the client).
func modelBytes(t *testing.T, tools []*apply.Tool) (total int, per map[string]int) {
	t.Helper()
	s := &mcpServer{tools: tools, log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	s.server = s.newSDKServer()
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := s.server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "size", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	per = map[string]int{}
	for _, tool := range res.Tools {
		b, err := json.Marshal(struct {
			Name        string `json:"name"`
			Description string `json:"description"`
			InputSchema any    `json:"inputSchema"`
		}{tool.Name, tool.Description, tool.InputSchema})
		if err != nil {
			t.Fatal(err)
		}
		per[tool.Name] = len(b)
		total += len(b)
	}
	if len(res.Tools) != len(tools) {
		t.Fatalf("listed %d tools, served %d", len(res.Tools), len(tools))
	}
	return total, per
}

// The default tool set fits in 8 KB of the model's context, every profile
// is measured, and docs/TOOLS.md states the figures this test measures
// (go test ./cmd/graft -run TestMCPToolListSize -update rewrites it).
func TestMCPToolListSize(t *testing.T) {
	var doc strings.Builder
	doc.WriteString(toolsDocHead)
	for _, p := range profiles {
		tools, err := selectTools(apply.Tools(), []string{p.Name}, false)
		if err != nil {
			t.Fatal(err)
		}
		total, _ := modelBytes(t, tools)
		if p.Name == "default" && total > 8192 {
			t.Errorf("the default tools cost a model %d bytes, over 8 KB", total)
		}
		var names []string
		for _, tool := range tools {
			names = append(names, tool.Name)
		}
		fmt.Fprintf(&doc, "| `%s` | %s | %s | %d | %d |\n", p.Name, p.Doc, strings.Join(names, ", "), total, (total+3)/4)
	}
	_, per := modelBytes(t, apply.Tools())
	doc.WriteString("\nEach tool alone:\n\n| tool | bytes | tokens (≈ bytes / 4) |\n| --- | ---: | ---: |\n")
	for _, tool := range apply.Tools() {
		fmt.Fprintf(&doc, "| `%s` | %d | %d |\n", tool.Name, per[tool.Name], (per[tool.Name]+3)/4)
	}
	path := filepath.Join("..", "..", "docs", "TOOLS.md")
	if *updateDocs {
		if err := os.WriteFile(path, []byte(doc.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != doc.String() {
		t.Errorf("docs/TOOLS.md does not state the measured sizes; run go test ./cmd/graft -run TestMCPToolListSize -update\nwant:\n%s", doc.String())
	}
}

const toolsDocHead = `# What the MCP tools cost a model

Every tool a server offers is handed to the model in every session: its name, description and input
schema. graft mcp serves a lean default set; ` + "`--tools`" + ` takes the profiles below and tool names,
comma-separated, and serves their union (` + "`graft call`" + ` and ` + "`graft tools`" + ` always have every tool).

Bytes are the compact JSON of each tool's name, description and input schema as the SDK lists them
(output schemas go to the client, not the model); tokens are estimated at 4 bytes a token.
Reproduce: ` + "`go test ./cmd/graft -run TestMCPToolListSize -update`" + ` rewrites this file, and the test
fails when the file and the measurement disagree.

| profile | what | tools | bytes | tokens (≈) |
| --- | --- | --- | ---: | ---: |
`
