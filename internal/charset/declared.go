// Package charset tells a file's encoding from what names it and, when
// nothing does, from its bytes: the .editorconfig charset
// ([EditorConfig]), a declaration inside the file ([Declared]: a Python
// coding cookie, an XML declaration, an HTML meta charset) and a detector
// of legacy encodings ([Detect]). The codecs are internal/textedit's.
package charset

import (
	"bytes"
	"path"
	"regexp"
	"strings"
	"sync"
)

// Declared returns the encoding name a file declares in its own text, or
// "": a coding cookie on one of its first two lines ("# -*- coding:
// latin-1 -*-", as Python, Ruby and Emacs read it), the encoding of an XML
// declaration at its start, or in an HTML file a meta charset within its
// first 1024 bytes. name is the file's path (its extension tells HTML).
func Declared(name string, data []byte) string {
	data = bytes.TrimPrefix(data, []byte{0xEF, 0xBB, 0xBF})
	if bytes.HasPrefix(data, []byte("<?xml")) {
		end := bytes.Index(data, []byte("?>"))
		if end > 0 && end < 1024 {
			if m := xmlEncoding().FindSubmatch(data[:end]); m != nil {
				return string(m[1])
			}
		}
		return ""
	}
	// The first two lines.
	head := data[:min(len(data), 1024)]
	for i := 0; i < 2 && len(head) > 0; i++ {
		line := head
		if nl := bytes.IndexByte(head, '\n'); nl >= 0 {
			line, head = head[:nl], head[nl+1:]
		} else {
			head = nil
		}
		if m := codingCookie().FindSubmatch(line); m != nil {
			return string(m[1])
		}
		// Python reads line 2 only when line 1 is a comment or blank.
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '#' {
			break
		}
	}
	switch strings.ToLower(path.Ext(name)) {
	case ".html", ".htm", ".xhtml", ".shtml":
		if m := metaCharset().FindSubmatch(data[:min(len(data), 1024)]); m != nil {
			return string(m[1])
		}
	}
	return ""
}

var (
	// PEP 263's expression.
	codingCookie = lazyRegexp(`^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)`)
	xmlEncoding  = lazyRegexp(`\sencoding\s*=\s*["']([A-Za-z][-\w.:]*)["']`)
	metaCharset  = lazyRegexp(`(?i)<meta\s[^>]*?charset\s*=\s*["']?\s*([-\w.:]+)`)
)

// lazyRegexp compiles expr at its first use rather than at start-up,
// which every graft process pays whether it reads a declaration or not.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
