package record

import "slices"

// A person who asked to be forgotten (/forgetme) leaves no name and no user
// id in a record: their seat is renamed as the histories name them
// («игрок удалён») and holds ForgottenUser in place of their id. The seat
// itself stays, so the game is still the game it was: its seats, its log
// and who opened it (the deal's reveal names the creator's seat, and a
// replay deals from it).

// ForgottenUser is the user id a forgotten person's seat holds instead of
// theirs: negative, so it names no one (a person's id is positive), and
// one per seat, so a game whose creator was forgotten still knows where
// they sat. -1 is AnyAdmin's.
func ForgottenUser(seat int) int64 { return -2 - int64(seat) }

// Forgotten reports whether a seat's user id is a forgotten person's.
func Forgotten(user int64) bool { return user < AnyAdmin }

// Forget takes user out of t: their seat (and a seat they left) renamed
// name with their id replaced, the creator's id too, the press that
// seated them kept under the stand-in id (Pressed; dropped with a seat
// given up), their /stop question and the page's ratings dropped; in the
// jobs, the finished game's copy forgotten the same way, their seat out
// of a result not yet recorded (the results keep no forgotten person),
// and a results command they asked for dropped (its answer would name
// them). It reports whether
// anything changed. A person still playing the game is the caller's to
// take care of: their seat is only renamed here.
func (t *Table) Forget(user int64, name string) bool {
	if user <= 0 {
		return false
	}
	changed := false
	creator := t.Creator == user
	press, pressed := t.Pressed[user]
	if pressed {
		// The press that seated them: kept under the seat's stand-in id,
		// so the deal still mixes it in; gone with a seat given up.
		delete(t.Pressed, user)
		changed = true
	}
	for i := range t.Seats {
		s := &t.Seats[i]
		if s.Human() && s.UserID == user {
			s.UserID, s.Name, changed = ForgottenUser(i), name, true
			if pressed {
				t.Pressed[s.UserID] = press
			}
			if creator {
				t.Creator, creator = s.UserID, false
			}
		}
		if l := s.Leaver; l != nil && l.UserID == user {
			s.Leaver = &Leaver{UserID: ForgottenUser(i), Name: name}
			changed = true
			if creator {
				t.Creator, creator = s.Leaver.UserID, false
			}
		}
	}
	if creator {
		t.Creator, changed = 0, true // they opened the table but sat at none of its seats
	}
	if t.StopAsked == user {
		t.StopAsked, changed = 0, true
	}
	if _, ok := t.WebRatings[PersonPlayer(user)]; ok {
		delete(t.WebRatings, PersonPlayer(user))
		changed = true
	}
	jobs := t.Jobs[:0:0]
	for _, j := range t.Jobs {
		switch {
		case j.Query != nil && j.Query.User == user:
			changed = true
			continue
		case j.Result != nil:
			if seats := slices.DeleteFunc(slices.Clone(j.Result.Seats), func(s ResultSeat) bool { return s.Player == PersonPlayer(user) }); len(seats) != len(j.Result.Seats) {
				r := *j.Result
				r.Seats, changed = seats, true
				j.Result = &r
			}
		}
		if j.Finished != nil && j.Finished.Forget(user, name) {
			changed = true
		}
		jobs = append(jobs, j)
	}
	if len(jobs) == 0 {
		jobs = nil
	}
	t.Jobs = jobs
	if t.Season.forget(user) {
		changed = true
	}
	if forgetCrowns(t, user) { // cups.go
		changed = true
	}
	return changed
}
