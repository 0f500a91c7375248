package main

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graftdev/graft/apply"
)

// fakeClock is a barClock that moves only when the test advances it,
// running the timers that fall due on the test's goroutine: the bar's
// tests never wait for the machine.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	c     *fakeClock
	due   time.Time
	armed bool
	f     func()
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Unix(1_000_000, 0)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) AfterFunc(d time.Duration, f func()) barTimer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{c: c, due: c.now.Add(d), armed: true, f: f}
	c.timers = append(c.timers, t)
	return t
}

func (t *fakeTimer) Reset(d time.Duration) bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := t.armed
	t.due, t.armed = t.c.now.Add(d), true
	return was
}

func (t *fakeTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := t.armed
	t.armed = false
	return was
}

// advance moves the clock by d, running each timer as it falls due, in
// order of due time.
func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(d)
	c.mu.Unlock()
	for {
		c.mu.Lock()
		var next *fakeTimer
		for _, t := range c.timers {
			if t.armed && !t.due.After(end) && (next == nil || t.due.Before(next.due)) {
				next = t
			}
		}
		if next == nil {
			c.now = end
			c.mu.Unlock()
			return
		}
		c.now, next.armed = next.due, false
		c.mu.Unlock()
		next.f()
	}
}

// A long phase of one big file is drawn after the delay and redrawn while
// it lasts, with the time so far; stopping clears the line.
func TestProgressBarShowsLongPhases(t *testing.T) {
	out := &lockedBuffer{}
	clock := newFakeClock()
	p := newProgressBarClock(out, clock)
	p.update(apply.Progress{Message: "read big.txt"})
	clock.advance(progressDelay / 2)
	if out.String() != "" {
		t.Fatalf("drawn before the delay: %q", out)
	}
	p.update(apply.Progress{Message: "locate in big.txt"})
	clock.advance(progressDelay / 2)
	if got := out.String(); got != "\r\033[Klocate in big.txt… (0.3s)" {
		t.Fatalf("at the delay: want the latest phase with its time, got %q", got)
	}
	clock.advance(progressRedraw)
	got := out.String()
	if strings.Count(got, "locate in big.txt…") != 2 || !strings.HasSuffix(got, "(0.5s)") || strings.Contains(got, "read big.txt") {
		t.Fatalf("want the latest phase redrawn with its time, got %q", got)
	}
	p.update(apply.Progress{Done: 1, Total: 3, Message: "write"})
	clock.advance(progressRedraw)
	if !strings.HasSuffix(out.String(), "] 1/3 write (0.7s)") {
		t.Errorf("want a bar for counted steps, got %q", out)
	}
	p.stop()
	after := out.String()
	if !strings.HasSuffix(after, "\r\033[K") {
		t.Errorf("stop did not clear the line: %q", after)
	}
	clock.advance(10 * progressRedraw)
	if out.String() != after {
		t.Errorf("drawn after stop: %q", strings.TrimPrefix(out.String(), after))
	}
}

// A call that ends before the delay draws nothing at all.
func TestProgressBarQuietForQuickCalls(t *testing.T) {
	out := &lockedBuffer{}
	clock := newFakeClock()
	p := newProgressBarClock(out, clock)
	p.update(apply.Progress{Done: 0, Total: 2, Message: "diff a.txt"})
	clock.advance(progressDelay - time.Millisecond)
	p.update(apply.Progress{Done: 2, Total: 2, Message: "done"})
	p.stop()
	clock.advance(progressDelay + 10*progressRedraw)
	if out.String() != "" {
		t.Errorf("quick call drew %q", out)
	}
}
