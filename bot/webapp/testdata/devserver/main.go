// Command devserver serves the «Стол» page with canned states, to look at
// it in a browser without the bot: go run ./bot/webapp/testdata/devserver
// and open http://127.0.0.1:8089/?table=demo#tgWebAppData=x. Tables:
// demo, six, idle (files here), over and watch (demo finished / as a
// spectator), denied (an auth error). Acts starting "x:" are refused,
// "alert:" answer with a dialog.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/trickchef/trickchef/bot/webapp"
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
		case "over", "watch":
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
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-store")
		data, _ := json.Marshal(st)
		if fmt.Sprint(st["version"]) != r.Header.Get("Last-Event-ID") {
			fmt.Fprintf(w, "id: %v\nevent: state\ndata: %s\n\n", st["version"], data)
		}
		w.(http.Flusher).Flush()
		tick := time.NewTicker(15 * time.Second)
		defer tick.Stop()
		for {
			select {
			case <-r.Context().Done():
				return
			case <-tick.C:
				fmt.Fprint(w, ": ping\n\n")
				w.(http.Flusher).Flush()
			}
		}
	})
	mux.HandleFunc("POST /api/act", func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Table, Act, Key string }
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Key == "" {
			fail(w, http.StatusBadRequest, "bad_request", cat.T(*lang, "web.bad_request"))
			return
		}
		log.Printf("act %q key %s", req.Act, req.Key)
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
