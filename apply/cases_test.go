package apply_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/graftdev/graft/apply"
	"github.com/graftdev/graft/gitstore/gittest"
	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/cases/*.txtar from the results")

// TestCases runs every testdata/cases/*.txtar: see testdata/README.md for
// the format.
func TestCases(t *testing.T) {
	files, _ := filepath.Glob("testdata/cases/*.txtar")
	if len(files) == 0 {
		t.Fatal("no cases")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			if strings.Contains(file, "_version_current") && os.Getenv(gittest.ObjectFormatEnv) == "sha256" {
				t.Skip("names a SHA-1 blob id; TestFileReadVersionAndRange covers versions in SHA-256 repositories")
			}
			runCase(t, file)
		})
	}
}

type caseFile struct {
	name    string
	content []byte
	quoted  bool
}

// decodeSection reads a section name and body: "NAME@q" holds a Go
// quoted string, so that CR, missing final newlines and invalid UTF-8
// can be written.
func decodeSection(t *testing.T, f txtar.File) caseFile {
	name, quoted := strings.CutSuffix(f.Name, "@q")
	if !quoted {
		return caseFile{name: name, content: f.Data}
	}
	s, err := strconv.Unquote(strings.TrimSpace(string(f.Data)))
	if err != nil {
		t.Fatalf("%s: bad quoted section: %v", f.Name, err)
	}
	return caseFile{name: name, content: []byte(s), quoted: true}
}

func runCase(t *testing.T, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	dir := newRepo(t)
	var call struct {
		Tool string          `json:"tool"`
		Args json.RawMessage `json:"args"`
		Dir  string          `json:"dir"`
	}
	before := map[string][]byte{}
	want := map[string]caseFile{}
	var wantErr, wantDiff, wantResult []byte
	hasWantErr, hasWantDiff := false, false
	for _, f := range ar.Files {
		cf := decodeSection(t, f)
		switch {
		case cf.name == "call.json":
			if err := json.Unmarshal(cf.content, &call); err != nil {
				t.Fatalf("call.json: %v", err)
			}
		case cf.name == "want.err":
			wantErr, hasWantErr = bytes.TrimSpace(cf.content), true
		case cf.name == "want.diff":
			wantDiff, hasWantDiff = cf.content, true
		case cf.name == "want.result":
			wantResult = cf.content
		case strings.HasPrefix(cf.name, "want/"):
			want[strings.TrimPrefix(cf.name, "want/")] = cf
		default:
			before[cf.name] = cf.content
			writeFile(t, filepath.Join(dir, cf.name), cf.content)
		}
	}
	commitAll(t, dir)
	e, err := apply.Open(apply.Options{Dir: filepath.Join(dir, call.Dir)})
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Call(context.Background(), call.Tool, call.Args)
	if hasWantErr {
		if err == nil {
			t.Fatalf("call succeeded, want error %s", wantErr)
		}
		code, substr, _ := strings.Cut(string(wantErr), " ")
		if got := strconv.Itoa(int(apply.CodeOf(err))); got != code {
			t.Errorf("error code %s, want %s (error: %v)", got, code, err)
		}
		if !strings.Contains(err.Error(), substr) {
			t.Errorf("error %q does not contain %q", err.Error(), substr)
		}
		for name, content := range before {
			got, _ := os.ReadFile(filepath.Join(dir, name))
			if !bytes.Equal(got, content) {
				t.Errorf("refused call changed %s", name)
			}
		}
		return
	}
	if err != nil {
		t.Fatalf("call failed: %v", err)
	}
	out, _ := json.MarshalIndent(res, "", "  ")
	var landing struct {
		Files []struct {
			Path string `json:"path"`
			Diff string `json:"diff"`
		} `json:"files"`
	}
	_ = json.Unmarshal(out, &landing)
	var gotDiff strings.Builder
	for _, f := range landing.Files {
		gotDiff.WriteString(f.Diff)
	}
	if *update {
		updateCase(t, file, ar, dir, gotDiff.String())
		return
	}
	for name, w := range want {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !bytes.Equal(got, w.content) {
			t.Errorf("%s:\n got %q\nwant %q", name, got, w.content)
		}
	}
	for name, content := range before {
		if _, ok := want[name]; ok {
			continue
		}
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.Equal(got, content) {
			t.Errorf("%s changed but the case has no want/%s", name, name)
		}
	}
	if hasWantDiff && gotDiff.String() != string(wantDiff) {
		t.Errorf("diff:\n%s\nwant:\n%s", gotDiff.String(), wantDiff)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(wantResult)), "\n") {
		if line != "" && !bytes.Contains(out, []byte(line)) {
			t.Errorf("result lacks %s", line)
		}
	}
	t.Logf("result: %s", out)
}

// updateCase rewrites the want sections from what the call produced.
func updateCase(t *testing.T, file string, ar *txtar.Archive, dir, diff string) {
	for i, f := range ar.Files {
		cf := decodeSection(t, f)
		switch {
		case strings.HasPrefix(cf.name, "want/"):
			got, err := os.ReadFile(filepath.Join(dir, strings.TrimPrefix(cf.name, "want/")))
			if err != nil {
				t.Fatal(err)
			}
			ar.Files[i].Data = encodeSection(got, cf.quoted)
		case cf.name == "want.diff":
			ar.Files[i].Data = []byte(diff)
		}
	}
	if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
		t.Fatal(err)
	}
}

func encodeSection(b []byte, quoted bool) []byte {
	if quoted {
		return []byte(strconv.Quote(string(b)) + "\n")
	}
	return b
}

func writeFile(t *testing.T, name string, content []byte) {
	t.Helper()
	gittest.WriteFile(t, filepath.Dir(name), filepath.Base(name), string(content))
}

// newRepo makes an empty git repository with a fixed identity and a
// private state directory.
func newRepo(t *testing.T) string {
	t.Helper()
	return gittest.Repo(t, nil)
}

func commitAll(t *testing.T, dir string) {
	t.Helper()
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "--allow-empty", "-m", "base")
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	return gittest.Git(t, dir, args...)
}
