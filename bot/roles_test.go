package bot_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// roles are the runtime's roles, each its own package (docs/bot.md «The
// map»): none may import another, so they meet only through the small
// interfaces each declares and package bot wires.
var roles = []string{"ingest", "tables", "deliver", "results", "reviews", "web"}

// TestNoRoleImportsAnother reads the imports of every non-test file of each
// role (its subpackages too) and fails on one naming another role.
func TestNoRoleImportsAnother(t *testing.T) {
	const module = "github.com/trickchef/trickchef/bot/"
	for _, role := range roles {
		err := filepath.WalkDir(role, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			for _, imp := range f.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				rest, ok := strings.CutPrefix(p, module)
				if !ok {
					continue
				}
				other, _, _ := strings.Cut(rest, "/")
				if other != role && slices.Contains(roles, other) {
					t.Errorf("%s imports the role %s (%s): roles meet through interfaces package bot wires", path, other, p)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
