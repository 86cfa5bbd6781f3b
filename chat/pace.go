package chat

import (
	"context"
	"time"
)

// FrameInterval is the pacing the app asks of Wait (Options.EventEvery):
// one batch of events per frame of Bubble Tea's renderer (60 fps).
const FrameInterval = time.Second / 60

// pace waits until EventEvery has passed since Wait last returned events
// (at once when it has, or when there is no pacing); false when ctx ended
// first. A stream's changes keep arriving meanwhile: emit merges those of
// one item, so the next batch holds the latest text once.
func (s *Service) pace(ctx context.Context) bool {
	every := s.opt.EventEvery
	if every <= 0 {
		return ctx.Err() == nil
	}
	s.mu.Lock()
	d := s.waited.Add(every).Sub(s.clock.Now())
	s.mu.Unlock()
	if d <= 0 {
		return ctx.Err() == nil
	}
	due := make(chan struct{})
	stop := s.clock.AfterFunc(d, func() { close(due) })
	select {
	case <-due:
		return true
	case <-ctx.Done():
		stop()
		return false
	}
}
