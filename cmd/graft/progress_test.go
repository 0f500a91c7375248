package main

import (
	"strings"
	"testing"
	"time"

	"github.com/graftdev/graft/apply"
)

// A long phase of one big file is drawn after the delay and redrawn while
// it lasts, with the time so far; stopping clears the line.
func TestProgressBarShowsLongPhases(t *testing.T) {
	out := &lockedBuffer{}
	p := newProgressBar(out)
	p.update(apply.Progress{Message: "read big.txt"})
	time.Sleep(progressDelay / 2)
	if out.String() != "" {
		t.Fatalf("drawn before the delay: %q", out)
	}
	p.update(apply.Progress{Message: "locate in big.txt"})
	deadline := time.Now().Add(10 * time.Second)
	for strings.Count(out.String(), "locate in big.txt") < 2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	got := out.String()
	if strings.Count(got, "locate in big.txt…") < 2 || !strings.Contains(got, "s)") || strings.Contains(got, "read big.txt") {
		t.Fatalf("want the latest phase redrawn with its time, got %q", got)
	}
	p.update(apply.Progress{Done: 1, Total: 3, Message: "write"})
	p.stop()
	after := out.String()
	if !strings.HasSuffix(after, "\r\033[K") {
		t.Errorf("stop did not clear the line: %q", after)
	}
	time.Sleep(2 * progressRedraw)
	if out.String() != after {
		t.Errorf("drawn after stop: %q", strings.TrimPrefix(out.String(), after))
	}
}

// A call that ends before the delay draws nothing at all.
func TestProgressBarQuietForQuickCalls(t *testing.T) {
	out := &lockedBuffer{}
	p := newProgressBar(out)
	p.update(apply.Progress{Done: 0, Total: 2, Message: "diff a.txt"})
	p.update(apply.Progress{Done: 2, Total: 2, Message: "done"})
	p.stop()
	time.Sleep(progressDelay + progressRedraw)
	if out.String() != "" {
		t.Errorf("quick call drew %q", out)
	}
}
