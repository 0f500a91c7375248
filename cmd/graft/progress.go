package main

import (
	"fmt"
	"github.com/graftdev/graft/apply"
	"io"
	"strings"
	"time"
)

// progressBar draws one line on a terminal for calls with many steps. It
// shows nothing for calls that finish quickly.
type progressBar struct {
	w     io.Writer
	start time.Time
	drawn bool
}

func newProgressBar(w io.Writer) *progressBar {
	return &progressBar{w: w, start: time.Now()}
}

const progressDelay = 300 * time.Millisecond

func (p *progressBar) update(pr apply.Progress) {
	if pr.Total <= 0 || time.Since(p.start) < progressDelay {
		return
	}
	if pr.Done >= pr.Total {
		if p.drawn {
			fmt.Fprint(p.w, "\r\033[K")
		}
		return
	}
	const width = 30
	fill := width * pr.Done / pr.Total
	msg := pr.Message
	if len(msg) > 40 {
		msg = "…" + msg[len(msg)-39:]
	}
	fmt.Fprintf(p.w, "\r\033[K[%s%s] %d/%d %s", strings.Repeat("#", fill), strings.Repeat(" ", width-fill), pr.Done, pr.Total, msg)
	p.drawn = true
}
