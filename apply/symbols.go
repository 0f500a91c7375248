package apply

import (
	"container/list"
	"sync"
	"sync/atomic"

	"github.com/graftdev/graft/internal/textedit"

	"github.com/graftdev/graft/apply/lineedit"
	"github.com/graftdev/graft/apply/outline"
	"github.com/graftdev/graft/apply/symbol"
)

// Edits by symbol name (file_outline, edit_symbol and multi_edit's symbol
// edits): a declaration found by its name path in the file's outline
// (package apply/outline) becomes a line range, and the action becomes
// Hunks like every other operation.

// outlineCacheSize and outlineCacheBytes bound the outlines an engine
// keeps: how many, and the size of the contents they outline (an
// outline's size follows its file's).
const (
	outlineCacheSize  = 64
	outlineCacheBytes = 32 << 20
)

// outlineCache keeps the outlines of recently seen contents, by blob id
// and language: an agent outlines a file, edits it, outlines it again.
type outlineCache struct {
	mu    sync.Mutex
	order *list.List // of string keys, most recent first
	byKey map[string]*cachedOutline
	bytes int // the sizes of the outlined contents
}

type cachedOutline struct {
	o       *outline.Outline
	size    int // the outlined content's
	version string
	stored  atomic.Bool // the content is saved as a version (file_read's)
	elem    *list.Element
}

func (c *outlineCache) get(key string) *cachedOutline {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byKey == nil {
		return nil
	}
	co := c.byKey[key]
	if co != nil {
		c.order.MoveToFront(co.elem)
	}
	return co
}

// reset empties the cache.
func (c *outlineCache) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.byKey, c.order, c.bytes = nil, nil, 0
}

func (c *outlineCache) put(key string, co *cachedOutline) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byKey == nil {
		c.byKey, c.order = map[string]*cachedOutline{}, list.New()
	}
	if old := c.byKey[key]; old != nil {
		c.order.Remove(old.elem)
		c.bytes -= old.size
	}
	co.elem = c.order.PushFront(key)
	c.byKey[key] = co
	c.bytes += co.size
	for c.order.Len() > 1 && (c.order.Len() > outlineCacheSize || c.bytes > outlineCacheBytes) {
		last := c.order.Back()
		c.order.Remove(last)
		key := last.Value.(string)
		c.bytes -= c.byKey[key].size
		delete(c.byKey, key)
	}
}

// outlineOf returns the outline of content, the content of the file rel
// (its lines read through the file's text view, as every tool reads
// them), and its version (blob id), from the engine's cache when the same
// content was outlined before. store says to save the content as a
// version an edit may name later (as file_read does).
func (e *Engine) outlineOf(rel string, content []byte, store bool, edit string) (*outline.Outline, string, error) {
	return e.outlineText(rel, content, textedit.NewView(content).Text, "", store, edit)
}

// outlineText is outlineOf for content data whose text is content, decoded
// from the encoding enc ("" for UTF-8).
func (e *Engine) outlineText(rel string, data, content []byte, enc string, store bool, edit string) (*outline.Outline, string, error) {
	lang := symbol.Language(rel, content)
	if lang == "" {
		_, err := symbol.Parse(rel, lang, content, edit)
		return nil, "", err
	}
	id := e.store.BlobID(data)
	key := id + "\x00" + lang + "\x00" + enc
	co := e.outlines.get(key)
	if co == nil {
		o, err := symbol.Parse(rel, lang, content, edit)
		if err != nil {
			return nil, "", err
		}
		co = &cachedOutline{o: o, version: id, size: len(content)}
		e.outlines.put(key, co)
	}
	if store && !co.stored.Load() {
		// The version is stored, so that a later edit can diff against it.
		if _, err := e.store.SaveBlob(data); err != nil {
			e.log.Debug("version not stored", "path", rel, "err", err)
		}
		co.stored.Store(true)
	}
	return co.o, co.version, nil
}

// EditSymbolText makes one edit by symbol in content, the content of the
// file named path, as edit_symbol does but with no repository, syntax
// check or journal: for corpora and tests. It returns the new content,
// or the refusal (an *Error: CodeAmbiguous, CodeTextNotFound, ...).
func EditSymbolText(path string, content []byte, name, action string, text *string, line int) ([]byte, error) {
	o, err := symbol.Parse(path, symbol.Language(path, content), content, "")
	if err != nil {
		return nil, err
	}
	ix := lineedit.NewFile(content)
	s, err := symbol.Resolve(o, ix, name, line, "")
	if err != nil {
		return nil, textedit.WithPath(err, path)
	}
	hunks, err := symbol.Changes(o, ix, path, s, symbol.Edit{Symbol: name, Action: action, Content: text, Line: line}, "")
	if err != nil {
		return nil, textedit.WithPath(err, path)
	}
	return textedit.Splice(content, hunks)
}
