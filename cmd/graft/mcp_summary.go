package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/graftdev/graft/apply"
	"github.com/graftdev/graft/apply/syntax"
)

// How results and refusals read as text: the first thing a model reads of
// a call. The structured content is the JSON `graft call` prints; this is
// its summary.

// codeNames words the error codes (apply.Code) for the summary line.
var codeNames = map[apply.Code]string{
	apply.CodeFileNotFound: "file not found",
	apply.CodePermission:   "permission denied",
	apply.CodeBinary:       "binary file",
	apply.CodeTextNotFound: "text not found",
	apply.CodeAmbiguous:    "several matches",
	apply.CodeConflict:     "conflict",
	apply.CodeSyntax:       "syntax check failed",
	apply.CodeTooLarge:     "too large",
	apply.CodeIO:           "I/O error, nothing changed",
	apply.CodeInvalid:      "invalid request",
	apply.CodeInternal:     "internal error",
}

// errorSummary is the first line a model reads of a refusal, with what to
// do next.
func errorSummary(tool string, j apply.ErrorJSON) string {
	name := codeNames[j.Code]
	if name == "" {
		name = "error"
	}
	s := fmt.Sprintf("%s refused (%d %s): %s", tool, j.Code, name, j.Message)
	switch {
	case len(j.Candidates) > 0:
		s += fmt.Sprintf("\nNearest candidates (%d) are listed below with their line numbers and the file's actual text: retry with that text, or edit by line numbers.", len(j.Candidates))
	case j.Code == apply.CodeTextNotFound || j.Code == apply.CodeAmbiguous:
		s += "\nRead the file (file_read) and retry with text copied from it, or edit by line numbers."
	case j.Code == apply.CodeConflict:
		s += "\nThe file changed since it was read: read it again and redo the edit on the current text."
	}
	return s
}

// summarize renders a result's JSON for people and models: what changed
// where and the diff for editing tools, the numbered lines for reads,
// journal entries, and the diff of diff-like results; the JSON itself for
// anything else. It reads the JSON rather than Go types so that tools
// added to the registry later get a useful summary without a change here.
func summarize(tool string, raw []byte) string {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return string(raw)
	}
	var b strings.Builder
	files := asSlice(m["files"])
	switch {
	case len(files) > 0 && isObject(files[0]):
		summarizeFiles(&b, m, files)
	case isString(m["content"]):
		summarizeRead(&b, m)
	default:
		summarizeOther(&b, tool, m)
	}
	if b.Len() == 0 {
		ind, _ := json.MarshalIndent(m, "", "  ")
		b.Write(ind)
	}
	return b.String()
}

func isObject(v any) bool { _, ok := v.(map[string]any); return ok }

func isString(v any) bool { _, ok := v.(string); return ok }

func num(v any) int {
	f, _ := v.(float64)
	return int(f)
}

func summarizeFiles(b *strings.Builder, m map[string]any, files []any) {
	dry := m["dry_run"] == true
	var diffs strings.Builder
	for _, fv := range files {
		f, _ := fv.(map[string]any)
		if f == nil {
			continue
		}
		v := "edit"
		switch {
		case f["created"] == true:
			v = "create"
		case f["deleted"] == true:
			v = "delete"
		}
		if dry {
			v = "would " + v
		} else {
			v = strings.TrimSuffix(v, "e") + "ed"
		}
		if dry && b.Len() == 0 {
			b.WriteString("dry run, nothing written:\n")
		}
		fmt.Fprintf(b, "%s %v: +%d -%d", v, f["path"], num(f["additions"]), num(f["deletions"]))
		if lr, ok := f["line_range"].(map[string]any); ok && num(lr["start"]) > 0 {
			fmt.Fprintf(b, ", lines %d-%d", num(lr["start"]), num(lr["end"]))
		}
		if n := num(f["replacements"]); n > 1 {
			fmt.Fprintf(b, ", %d replacements", n)
		}
		var dropped strings.Builder // each hunk's warning of lines removed unshown, after the line
		for _, hv := range asSlice(f["hunks"]) {
			h, _ := hv.(map[string]any)
			d, _ := h["dropped"].(string)
			e, _ := h["edit"].(string)
			p, _ := f["path"].(string)
			dropped.WriteString(droppedWarning(p, e, d, dry))
			if sym, _ := h["symbol"].(string); sym != "" {
				// A declaration named otherwise (a method by its own name).
				fmt.Fprintf(b, " [%ssymbol: %s]", editPrefix(h["edit"]), sym)
			}
			how, _ := h["located"].(string)
			if how == "" || how == "exact" || how == "lines" || how == "create" {
				continue
			}
			fmt.Fprintf(b, " [%slocated by %s at line %d, similarity %.2f]", editPrefix(h["edit"]), how, num(h["line"]), h["similarity"])
		}
		b.WriteByte('\n')
		b.WriteString(dropped.String())
		if sv, ok := f["syntax"].(map[string]any); ok {
			// The report as the engine made it, read back from the JSON, so
			// that it reads exactly as on the CLI.
			var rep syntax.Report
			if raw, err := json.Marshal(sv); err == nil && json.Unmarshal(raw, &rep) == nil {
				b.WriteString(syntaxWarning(&rep, dry))
			}
		}
		if d, _ := f["diff"].(string); d != "" {
			diffs.WriteString(d)
			if !strings.HasSuffix(d, "\n") {
				diffs.WriteByte('\n')
			}
		}
	}
	if len(files) == 0 {
		b.WriteString("no file changed\n")
	}
	for _, uv := range asSlice(m["unchanged"]) {
		if u, _ := uv.(map[string]any); u != nil {
			fmt.Fprintf(b, "%s%v line %d: %v\n", editPrefix(u["edit"]), u["path"], num(u["line"]), u["note"])
		}
	}
	for _, rv := range asSlice(m["results"]) {
		r, _ := rv.(map[string]any)
		if r != nil && r["success"] == false {
			fmt.Fprintf(b, "failed %v: %v\n", r["file_path"], r["error"])
		}
	}
	if e, _ := m["error"].(string); e != "" {
		fmt.Fprintf(b, "error: %s\n", e)
	}
	if c, _ := m["commit"].(string); c != "" {
		fmt.Fprintf(b, "journal commit %s\n", c)
	}
	if diffs.Len() > 0 {
		b.WriteByte('\n')
		b.WriteString(clipText(diffs.String(), "files[].diff"))
	}
}

func editPrefix(v any) string {
	if s, _ := v.(string); s != "" {
		return s + " "
	}
	return ""
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}

// summarizeOther renders journal results: entries (history), entries and
// files by name (undo, redo), a commit and a diff.
func summarizeOther(b *strings.Builder, tool string, m map[string]any) {
	var names []string
	for _, ev := range asSlice(m["entries"]) {
		switch e := ev.(type) {
		case string:
			names = append(names, shortID(e))
		case map[string]any:
			// The message is the call's own summary (tool, files, counts)
			// or its description: the structured content has the rest.
			fmt.Fprintf(b, "%s %v %v\n", shortID(fmt.Sprint(e["id"])), e["time"], e["message"])
		}
	}
	if j, _ := m["journal"].(string); j != "" && m["entries"] != nil {
		if len(asSlice(m["entries"])) == 0 {
			fmt.Fprintf(b, "%s: no entries\n", j)
		} else {
			fmt.Fprintf(b, "(journal %s)\n", j)
		}
	}
	if len(names) > 0 {
		fmt.Fprintf(b, "%s: %s", tool, strings.Join(names, ", "))
		var paths []string
		for _, f := range asSlice(m["files"]) {
			paths = append(paths, fmt.Sprint(f))
		}
		if len(paths) > 0 {
			fmt.Fprintf(b, " (%s)", strings.Join(paths, ", "))
		}
		b.WriteByte('\n')
	}
	if c, _ := m["commit"].(string); c != "" {
		fmt.Fprintf(b, "journal commit %s\n", c)
	}
	if d, _ := m["diff"].(string); d != "" {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(clipText(d, "diff"))
	} else if isString(m["diff"]) && b.Len() == 0 {
		b.WriteString("no changes\n")
	}
}

func shortID(id string) string { return id[:min(12, len(id))] }

func summarizeRead(b *strings.Builder, m map[string]any) {
	fmt.Fprintf(b, "%v: lines %d-%d of %d, version %v", m["path"], num(m["start_line"]), num(m["end_line"]), num(m["total_lines"]), m["version"])
	if le, _ := m["line_endings"].(string); le != "" && le != "lf" && le != "none" {
		fmt.Fprintf(b, ", %s line endings", le)
	}
	if m["final_newline"] == false && num(m["total_lines"]) > 0 {
		b.WriteString(", no final newline")
	}
	if enc, _ := m["encoding"].(string); enc != "" && enc != "UTF-8" {
		fmt.Fprintf(b, ", encoding %s", enc)
	}
	b.WriteString("\n")
	b.WriteString(m["content"].(string))
}

// syntaxWarning is what a person or a model must read of a file's syntax
// check when the call landed anyway: the errors the edit adds (--check=warn,
// or a file that did not parse before the edit), each with its line,
// column and snippet. It is "" when the edit adds none. The CLI prints it
// on stderr, the MCP server puts it in the text content.
func syntaxWarning(rep *syntax.Report, dryRun bool) string {
	if rep == nil || rep.AddedCount == 0 {
		return ""
	}
	s := strings.TrimRight(rep.String(), "\n")
	if dryRun {
		s = strings.Replace(s, ": the edit adds ", ": the edit would add ", 1)
	}
	return "warning: " + s + "\n"
}

// droppedWarning is what a person or a model must read of the lines an
// operation (a snippet's region, edit) of file path removed without
// showing them or anything like them (dropped, as Location.Dropped names
// them): a deletion the snippet implies, which a forgotten marker implies
// too. It is "" when there are none. The CLI prints it on stderr; the MCP
// server puts it in the result's text.
func droppedWarning(path, edit, dropped string, dryRun bool) string {
	if dropped == "" {
		return ""
	}
	verb, after := "removed", "undo this call and send"
	if dryRun {
		verb, after = "would remove", "send"
	}
	return fmt.Sprintf("warning: %s: %s%s line(s) %s of the file as it was, which the snippet does not show and nothing in it reads like: if they should stay, %s a marker where they are\n",
		path, editPrefix(edit), verb, dropped, after)
}

// textDiffBytes bounds the diff in a result's text: a model reads the
// text, and a diff of megabytes there costs its context and the server a
// copy of the diff in every layer that encodes the response. The
// structured result holds the diff whole.
const textDiffBytes = 64 << 10

// clipText cuts a diff longer than textDiffBytes at the end of a line and
// says where the whole of it is: the structured result's field.
func clipText(d, field string) string {
	if len(d) <= textDiffBytes {
		return d
	}
	cut := strings.LastIndexByte(d[:textDiffBytes], '\n') + 1
	if cut == 0 {
		cut = textDiffBytes
	}
	return d[:cut] + fmt.Sprintf("\n[the diff is clipped here, past %d KB: the structured result's %s holds it whole]\n", textDiffBytes>>10, field)
}
