package main

import (
	"context"
	"sync"
)

// turns hands the engine to one call at a time, first come, first served,
// on every transport (the engine is not for concurrent use, and a model's
// parallel calls must land in the order they were sent).
//
// A call takes a numbered ticket when it arrives, and runs when its ticket
// is the lowest one not yet done. Over HTTP the ticket is taken when the
// request's body has arrived whole (httpLimits), before the SDK has decoded
// it: the SDK then dispatches requests on goroutines that reach the tool
// handler in any order, and a plain mutex (the order of reaching it) is
// not the order of arrival. Over stdio the transport hands calls over in
// order one at a time (lineConn), so the handler takes its ticket itself.
//
// A ticket is taken for a session, and the session a call is attributed to
// (its journal commit's Graft-Session) is the one its ticket was taken
// for (sessionOf): the queue that orders a session's calls and the
// identity that names them are one value. Over HTTP it is the
// Mcp-Session-Id the request arrived with, over stdio the server
// process's one session (mcpServer.stdioSession). The order is first come,
// first served over all sessions, so each session's calls land in the
// order it sent them.
//
// A ticket whose call never reaches the handler (a request the SDK
// refused, a call cancelled while it waited) is done all the same, so it
// holds up no one.
type turns struct {
	mu   sync.Mutex
	next uint64            // the next ticket
	open map[uint64]string // taken and not done: the session of each
	wake chan struct{}     // closed and replaced when a ticket is done
}

func newTurns() *turns {
	return &turns{open: map[uint64]string{}, wake: make(chan struct{})}
}

// take returns a new ticket for a call of session, after every ticket
// taken before.
func (q *turns) take(session string) uint64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	t := q.next
	q.next++
	q.open[t] = session
	return t
}

// sessionOf returns the session ticket t was taken for, while it is open.
func (q *turns) sessionOf(t uint64) (string, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	s, ok := q.open[t]
	return s, ok
}

// wait blocks until ticket t is the lowest ticket not done: its turn. It
// returns ctx's error if ctx ends first (the ticket is then still open:
// the caller marks it done).
func (q *turns) wait(ctx context.Context, t uint64) error {
	for {
		q.mu.Lock()
		first := true
		for u := range q.open {
			if u < t {
				first = false
				break
			}
		}
		wake := q.wake
		q.mu.Unlock()
		if first {
			return nil
		}
		select {
		case <-wake:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// done ends ticket t: its call ran, or never will. Doing a ticket twice
// is harmless.
func (q *turns) done(t uint64) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if _, ok := q.open[t]; !ok {
		return
	}
	delete(q.open, t)
	close(q.wake)
	q.wake = make(chan struct{})
}
