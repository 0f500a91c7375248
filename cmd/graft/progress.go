package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/graftdev/graft/apply"
)

// progressBar draws one line on a terminal while a call runs longer than
// progressDelay: the engine's latest report (a bar for counted steps, the
// phase alone for a phase of unknown length, such as reading or locating
// in one big file) and the time so far. It redraws on a timer, so a long
// phase shows that graft is working even when no new report arrives, and
// it shows nothing for calls that finish quickly.
type progressBar struct {
	w     io.Writer
	start time.Time
	clock barClock

	mu      sync.Mutex
	cur     apply.Progress
	have    bool
	drawn   bool
	stopped bool
	timer   barTimer
}

// barClock is the time a progress bar reads and the timers it sets: the
// system's (realClock), or a test's that moves only when told, so that no
// test depends on how fast the machine runs.
type barClock interface {
	Now() time.Time
	AfterFunc(d time.Duration, f func()) barTimer
}

// barTimer is the part of *time.Timer the bar uses.
type barTimer interface {
	Reset(d time.Duration) bool
	Stop() bool
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) AfterFunc(d time.Duration, f func()) barTimer { return time.AfterFunc(d, f) }

func newProgressBar(w io.Writer) *progressBar {
	return newProgressBarClock(w, realClock{})
}

func newProgressBarClock(w io.Writer, c barClock) *progressBar {
	return &progressBar{w: w, start: c.Now(), clock: c}
}

const (
	progressDelay  = 300 * time.Millisecond
	progressRedraw = 200 * time.Millisecond
)

// update records a report from the engine (called on the call's
// goroutine).
func (p *progressBar) update(pr apply.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	if pr.Total > 0 && pr.Done >= pr.Total {
		p.clearLocked()
		p.have = false
		return
	}
	p.cur, p.have = pr, true
	if p.timer == nil {
		p.timer = p.clock.AfterFunc(max(0, progressDelay-p.clock.Now().Sub(p.start)), p.tick)
	}
}

// tick draws the latest report and schedules the next redraw.
func (p *progressBar) tick() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	if p.have {
		p.drawLocked()
	}
	p.timer.Reset(progressRedraw)
}

func (p *progressBar) drawLocked() {
	pr := p.cur
	msg := pr.Message
	if r := []rune(msg); len(r) > 40 {
		msg = "…" + string(r[len(r)-39:])
	}
	secs := p.clock.Now().Sub(p.start).Seconds()
	if pr.Total > 0 {
		const width = 30
		fill := width * min(pr.Done, pr.Total) / pr.Total
		fmt.Fprintf(p.w, "\r\033[K[%s%s] %d/%d %s (%.1fs)", strings.Repeat("#", fill), strings.Repeat(" ", width-fill), pr.Done, pr.Total, msg, secs)
	} else {
		fmt.Fprintf(p.w, "\r\033[K%s… (%.1fs)", msg, secs)
	}
	p.drawn = true
}

func (p *progressBar) clearLocked() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
		p.drawn = false
	}
}

// stop ends the bar when the call returns, whatever its outcome, clearing
// the line before anything else is printed.
func (p *progressBar) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stopped = true
	if p.timer != nil {
		p.timer.Stop()
	}
	p.clearLocked()
}

// call runs a tool on the engine for the CLI; the progress bar, if any,
// is gone when it returns, and what the result warns of (lines a snippet
// removed unshown, syntax errors that --check=warn let land) is on stderr.
func (c *Context) call(e *apply.Engine, tool string, args json.RawMessage) (any, error) {
	res, err := e.Call(c.context(), tool, args)
	if c.bar != nil {
		c.bar.stop()
	}
	if l, ok := res.(interface{ Landed() *apply.Landing }); ok && err == nil {
		for _, f := range l.Landed().Files {
			for _, h := range f.Hunks {
				fmt.Fprint(c.Stderr, droppedWarning(f.Path, h.Edit, h.Dropped, l.Landed().DryRun))
			}
			if w := syntaxWarning(f.Syntax, l.Landed().DryRun); w != "" {
				fmt.Fprint(c.Stderr, w)
			}
		}
	}
	return res, err
}
