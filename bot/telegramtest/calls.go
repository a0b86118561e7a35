package telegramtest

// CallsSince returns the calls recorded after the first n, in order (nil when
// there are none yet), so a watcher can follow a long call log without
// copying all of it on every change.
func (s *Server) CallsSince(n int) []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n < 0 {
		n = 0
	}
	if n >= len(s.calls) {
		return nil
	}
	return append([]Call(nil), s.calls[n:]...)
}
