// Command devserver serves the «Стол» page with canned states, to look at
// it in a browser without the bot: go run ./bot/webapp/testdata/devserver
// and open http://127.0.0.1:8089/?table=demo#tgWebAppData=x. Tables:
// demo, six, eight, duo, idle (files here), over, watch and flaky (demo
// finished, with a canned «▶️ Повтор» / as a spectator / with the event
// stream down), denied (an auth error). Acts starting "x:" are refused,
// "alert:" answer with a dialog.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/trickchef/trickchef/bot/web/webapp"
	"github.com/trickchef/trickchef/locales"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8089", "listen address")
	dir := flag.String("dir", "bot/webapp", "the bot/webapp directory (static/ and testdata/ are read from disk on each request)")
	lang := flag.String("lang", "ru", "the texts' language")
	skew := flag.Duration("skew", 0, "server clock minus the real one, to test the countdown's correction")
	flag.Parse()
	cat, err := locales.New()
	if err != nil {
		log.Fatal(err)
	}
	texts := map[string]string{}
	for _, k := range webapp.TextKeys() {
		texts[k] = cat.T(*lang, "web."+k)
	}
	state := func(table string) (map[string]any, error) {
		name := table
		switch table {
		case "over", "watch", "flaky", "live", "retry":
			name = "demo"
		}
		data, err := os.ReadFile(filepath.Join(*dir, "testdata", name+".json"))
		if err != nil {
			return nil, err
		}
		var st map[string]any
		if err := json.Unmarshal(data, &st); err != nil {
			return nil, err
		}
		now := time.Now().Add(*skew).UnixMilli()
		st["now"] = now
		st["texts"] = texts
		sc, _ := st["scene"].(map[string]any)
		if sc != nil {
			for _, s := range sc["seats"].([]any) {
				seat := s.(map[string]any)
				if d, ok := seat["deadline"].(float64); ok {
					seat["deadline"] = now + int64(d)
				}
				if table == "over" {
					delete(seat, "turn")
					delete(seat, "deadline")
				}
			}
		}
		switch table {
		case "over":
			st["over"] = true
			st["again"] = "again"
			st["replay"] = cat.T(*lang, "review.replay")
			st["phase"] = "idle"
			sc["status"] = "🏆 Побеждает Феликс: ⭐ 9"
			sc["prompt"] = ""
			sc["choices"] = nil
			for _, c := range sc["hand"].([]any) {
				delete(c.(map[string]any), "act")
			}
		case "watch":
			st["seat"] = -1
			for _, s := range sc["seats"].([]any) {
				delete(s.(map[string]any), "you")
			}
			delete(sc, "hand")
			delete(sc, "choices")
			delete(sc, "prompt")
		}
		return st, nil
	}
	fail := func(w http.ResponseWriter, code int, key, text string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		json.NewEncoder(w).Encode(map[string]string{"error": key, "text": text})
	}
	check := func(w http.ResponseWriter, r *http.Request) (map[string]any, bool) {
		table := r.URL.Query().Get("table")
		if !strings.HasPrefix(r.Header.Get("Authorization"), "tma ") || r.Header.Get("Authorization") == "tma " || table == "denied" {
			fail(w, http.StatusUnauthorized, "auth", cat.T(*lang, "web.auth"))
			return nil, false
		}
		st, err := state(table)
		if err != nil {
			fail(w, http.StatusNotFound, "not_found", cat.T(*lang, "web.not_found"))
			return nil, false
		}
		return st, true
	}
	seenKeys := map[string]bool{} // touched by one request at a time in practice: a dev tool
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/state", func(w http.ResponseWriter, r *http.Request) {
		if st, ok := check(w, r); ok {
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(st)
		}
	})
	mux.HandleFunc("GET /api/events", func(w http.ResponseWriter, r *http.Request) {
		st, ok := check(w, r)
		if !ok {
			return
		}
		if r.URL.Query().Get("table") == "flaky" {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-store")
		log.Printf("events %s Last-Event-ID %q", r.URL.Query().Get("table"), r.Header.Get("Last-Event-ID"))
		send := func() {
			data, _ := json.Marshal(st)
			fmt.Fprintf(w, "id: %v\nevent: state\ndata: %s\n\n", st["version"], data)
			w.(http.Flusher).Flush()
		}
		if fmt.Sprint(st["version"]) != r.Header.Get("Last-Event-ID") {
			send()
		}
		w.(http.Flusher).Flush()
		ping := time.NewTicker(15 * time.Second)
		defer ping.Stop()
		// "live" changes every second and drops the stream after three
		// changes, to watch the page follow and reconnect.
		live := time.NewTicker(time.Second)
		defer live.Stop()
		for n := 1; ; {
			select {
			case <-r.Context().Done():
				return
			case <-ping.C:
				fmt.Fprint(w, ": ping\n\n")
				w.(http.Flusher).Flush()
			case <-live.C:
				if r.URL.Query().Get("table") != "live" {
					continue
				}
				if n > 3 {
					return
				}
				v, _ := strconv.Atoi(r.Header.Get("Last-Event-ID"))
				st["version"] = max(v, 42) + n
				sc := st["scene"].(map[string]any)
				sc["status"] = fmt.Sprintf("Версия %d", st["version"])
				// The first card of the hand moves to the trick.
				if hand, _ := sc["hand"].([]any); len(hand) > 0 {
					pile := sc["center"].([]any)[0].(map[string]any)
					pile["cards"] = append(pile["cards"].([]any), hand[0])
					sc["hand"] = hand[1:]
				}
				n++
				send()
			}
		}
	})
	// The replay of "over": the demo's hand is dealt out to every seat,
	// one card fewer a step; the rounds begin at 0 and 4, step 3 is the
	// viewer's reviewed move.
	mux.HandleFunc("GET /api/replay", func(w http.ResponseWriter, r *http.Request) {
		st, ok := check(w, r)
		if !ok {
			return
		}
		const moves = 8
		step, err := strconv.Atoi(r.URL.Query().Get("step"))
		if r.URL.Query().Get("table") != "over" {
			fail(w, http.StatusConflict, "no_replay", cat.T(*lang, "web.no_replay"))
			return
		}
		if err != nil || step < 0 || step > moves {
			fail(w, http.StatusBadRequest, "bad_request", cat.T(*lang, "web.bad_request"))
			return
		}
		sc := st["scene"].(map[string]any)
		hand, _ := sc["hand"].([]any)
		for _, s := range sc["seats"].([]any) {
			var cards []any
			for i, c := range hand {
				if i >= step/2 {
					c := maps.Clone(c.(map[string]any))
					delete(c, "act")
					delete(c, "selected")
					cards = append(cards, c)
				}
			}
			s.(map[string]any)["cards"] = cards
		}
		delete(sc, "hand")
		label := cat.T(*lang, "review.replay_deal")
		rp := map[string]any{"table": "over", "lang": *lang, "seat": 0, "step": step, "moves": moves, "scene": sc,
			"rounds": []any{map[string]any{"step": 0, "label": cat.T(*lang, "review.replay_round", "Round", 1)},
				map[string]any{"step": 4, "label": cat.T(*lang, "review.replay_round", "Round", 2)}},
			"marks": []any{map[string]any{"step": 3, "grade": "ошибка", "rank": 1}}}
		if step > 0 {
			label = cat.T(*lang, "review.replay_move", "N", step, "Total", moves)
			rp["move"] = map[string]any{"seat": step % 4, "who": "Феликс", "name": "карта 🟥7"}
		}
		if step == 3 {
			rp["yours"] = cat.T(*lang, "review.replay_yours", "Accuracy", 61, "Pro", "Профи", "Best", "карта 🟥9")
		}
		rp["label"] = label
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(rp)
	})
	mux.HandleFunc("POST /api/act", func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Table, Act, Key string }
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Key == "" {
			fail(w, http.StatusBadRequest, "bad_request", cat.T(*lang, "web.bad_request"))
			return
		}
		log.Printf("act %q key %s", req.Act, req.Key)
		if req.Table == "retry" && !seenKeys[req.Key] {
			// The first try of a tap is lost: the page must retry with
			// the same key.
			seenKeys[req.Key] = true
			panic(http.ErrAbortHandler)
		}
		time.Sleep(300 * time.Millisecond)
		reply := map[string]any{"ok": true, "text": "Принято: " + req.Act}
		switch {
		case strings.HasPrefix(req.Act, "x:"):
			reply = map[string]any{"ok": false, "text": "Нужно положить красную карту: она у вас есть"}
		case strings.HasPrefix(req.Act, "alert:"):
			reply = map[string]any{"ok": true, "alert": true, "text": "Шеф удваивает очки взятки.\nСыграть его можно, когда нет карты нужной масти."}
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(reply)
	})
	mux.HandleFunc("POST /api/seen", func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		log.Printf("seen %s (auth %q)", data, r.Header.Get("Authorization"))
		w.WriteHeader(http.StatusNoContent)
	})
	mux.Handle("GET /", http.FileServerFS(os.DirFS(filepath.Join(*dir, "static"))))
	// /t/ is the page with testdata/click.js added, for screenshots of
	// modals and toasts: /t/?table=demo#tgWebAppData=x&click=.pill
	mux.HandleFunc("GET /t/{$}", func(w http.ResponseWriter, r *http.Request) {
		page, err := os.ReadFile(filepath.Join(*dir, "static", "index.html"))
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		html := strings.ReplaceAll(string(page), `href="app.css"`, `href="/app.css"`)
		html = strings.ReplaceAll(html, `src="app.js" defer>`, `src="/app.js" defer></script><script src="/t/click.js" defer>`)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, html)
	})
	mux.HandleFunc("POST /t/report", func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		log.Printf("page: %s", data)
	})
	mux.HandleFunc("GET /t/click.js", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, filepath.Join(*dir, "testdata", "click.js"))
	})
	csp := "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'"
	log.Printf("listening on http://%s/?table=demo#tgWebAppData=x", *addr)
	log.Fatal(http.ListenAndServe(*addr, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", csp)
		mux.ServeHTTP(w, r)
	})))
}
