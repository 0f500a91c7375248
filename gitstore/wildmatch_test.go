package gitstore

import (
	"encoding/json"
	"os"
	"testing"
)

// Every case of git's own wildmatch test script, in the four modes it
// tests (testdata/wildmatch.json notes the source and license).
func TestWildmatchGitVectors(t *testing.T) {
	b, err := os.ReadFile("testdata/wildmatch.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cases []struct {
			Text, Pattern                                string
			Wildmatch, IWildmatch, Pathmatch, IPathmatch bool
		}
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Cases) < 150 {
		t.Fatalf("only %d cases", len(doc.Cases))
	}
	for _, c := range doc.Cases {
		for _, m := range []struct {
			name           string
			pathname, fold bool
			want           bool
		}{
			{"wildmatch", true, false, c.Wildmatch},
			{"iwildmatch", true, true, c.IWildmatch},
			{"pathmatch", false, false, c.Pathmatch},
			{"ipathmatch", false, true, c.IPathmatch},
		} {
			if got := wildmatch(c.Pattern, c.Text, m.pathname, m.fold); got != m.want {
				t.Errorf("%s(%q, %q) = %v, git says %v", m.name, c.Pattern, c.Text, got, m.want)
			}
		}
	}
}
