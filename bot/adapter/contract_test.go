package adapter_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/bot/bottest/contract"
)

const module = "github.com/trickchef/trickchef/"

// The contract stands on its own: it imports the engine interface and the
// plain data it shows (the table record, the callback data), never the
// runtime or Telegram's library.
func TestContractImportsNoRuntime(t *testing.T) {
	allowed := []string{module + "game", module + "bot/record", module + "bot/callback"}
	for _, p := range contract.Imports(t, ".") {
		if strings.Contains(p, ".") && !slices.Contains(allowed, p) {
			t.Errorf("package adapter imports %s; it may import only %v and the standard library", p, allowed)
		}
	}
}

// An adapter imports the contract, never the runtime: every package under
// bot/ that imports bot/adapter and an engine (the games' adapters and the
// example) keeps to the contract, the engines and package game. Each game
// the bot offers is checked from the list too (bot/bottest/contract).
func TestAdaptersImportOnlyTheContract(t *testing.T) {
	dirs, err := filepath.Glob("../*")
	if err != nil {
		t.Fatal(err)
	}
	dirs = append(dirs, "example")
	checked := 0
	for _, dir := range dirs {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() || dir == "../adapter" {
			continue
		}
		ims := contract.Imports(t, dir)
		engine := slices.ContainsFunc(ims, func(p string) bool {
			return strings.HasPrefix(p, module+"game/") || p == module+"bot/internal/highcard"
		})
		if !slices.Contains(ims, module+"bot/adapter") || !engine {
			continue // not an adapter: the runtime's own parts, the test harness, the fake Bot API
		}
		checked++
		t.Logf("adapter %s", dir)
		for _, p := range ims {
			if p == module+"bot" || p == module+"store" || strings.HasPrefix(p, module+"bot/") && p != module+"bot/adapter" && !strings.HasPrefix(p, module+"bot/internal/") {
				t.Errorf("adapter %s imports %s: an adapter uses only the contract (bot/adapter), its engine and package game", dir, p)
			}
		}
	}
	if checked == 0 {
		t.Error("found no adapter, not even the example")
	}
}
