package chat

import (
	"context"
	"time"
)

// PaceInterval is the pacing the app asks of Wait (Options.EventEvery):
// a streaming reply is drawn 30 times a second, every other frame of
// Bubble Tea's 60 fps renderer (keys are still drawn at the next frame).
// Each drawing costs a View and the renderer's diff of the screen, so a
// stream costs at most 30 of them a second however fast it comes.
const PaceInterval = time.Second / 30

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
