package fspath

import "testing"

var (
	linux   = Rules{}
	macOS   = Rules{FoldCase: true}
	windows = Rules{Windows: true, FoldCase: true}
)

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		name            string
		r               Rules
		root, gitDir, p string
		want            Where
		rel             string
	}{
		// Linux: case matters.
		{"linux inside", linux, "/w/repo", "/w/repo/.git", "/w/repo/src/a.go", Inside, "src/a.go"},
		// Case matters, except for .git: git stores no path named .git in
		// any case, so .GIT is git's own even where it is another name.
		{"linux .GIT is git's", linux, "/w/repo", "/w/repo/.git", "/w/repo/.GIT/config", GitDir, ""},
		{"linux .Git deeper is git's", linux, "/w/repo", "/w/repo/.git", "/w/repo/src/.Git/x", GitDir, ""},
		{"linux .gitx is a name", linux, "/w/repo", "/w/repo/.git", "/w/repo/.gitx/config", Inside, ".gitx/config"},
		{"linux .git", linux, "/w/repo", "/w/repo/.git", "/w/repo/.git/config", GitDir, ""},
		{"linux dotdot into .git", linux, "/w/repo", "/w/repo/.git", "/w/repo/src/../.git/HEAD", GitDir, ""},
		{"linux other case is outside", linux, "/w/repo", "/w/repo/.git", "/w/Repo/a.go", Outside, ""},
		{"linux sibling prefix", linux, "/w/repo", "/w/repo/.git", "/w/repo2/a.go", Outside, ""},
		{"linux nested .git", linux, "/w/repo", "/w/repo/.git", "/w/repo/vendor/x/.git/config", GitDir, ""},
		{"linux root", linux, "/w/repo", "/w/repo/.git", "/w/repo/", Root, ""},
		{"linux relative", linux, "/w/repo", "", "repo/a", Invalid, ""},
		{"linux linked worktree's git dir", linux, "/w/wt", "/w/main/.git/worktrees/wt", "/w/main/.git/worktrees/wt/HEAD", Outside, ""},

		// macOS (case-insensitive by default).
		{"mac .GIT/config", macOS, "/Users/a/repo", "/Users/a/repo/.git", "/Users/a/repo/.GIT/config", GitDir, ""},
		{"mac Src/../.Git/HEAD", macOS, "/Users/a/repo", "/Users/a/repo/.git", "/Users/a/repo/Src/../.Git/HEAD", GitDir, ""},
		{"mac other case inside", macOS, "/Users/a/repo", "/Users/a/repo/.git", "/users/A/REPO/src/a.go", Inside, "src/a.go"},
		{"mac other case outside", macOS, "/Users/a/repo", "/Users/a/repo/.git", "/Users/a/REPO2/a.go", Outside, ""},
		{"mac git dir by its own path", macOS, "/Users/a/wt", "/Users/a/main/.git/worktrees/wt", "/USERS/a/Main/.GIT/worktrees/WT/index", Outside, ""},

		// Windows.
		{"win inside", windows, `C:\Repo`, `C:\Repo\.git`, `C:\Repo\src\a.go`, Inside, "src/a.go"},
		{"win forward slashes", windows, `C:\Repo`, `C:\Repo\.git`, `C:/Repo/src/a.go`, Inside, "src/a.go"},
		{"win drive letter case", windows, `C:\Repo`, `C:\Repo\.git`, `c:\repo\SRC\a.go`, Inside, "SRC/a.go"},
		{"win .GIT\\config", windows, `C:\Repo`, `C:\Repo\.git`, `C:\Repo\.GIT\config`, GitDir, ""},
		{"win Src\\..\\.git\\HEAD", windows, `C:\Repo`, `C:\Repo\.git`, `C:\Repo\Src\..\.git\HEAD`, GitDir, ""},
		{"win .git. (trailing dot)", windows, `C:\Repo`, `C:\Repo\.git`, `C:\Repo\.git.\config`, GitDir, ""},
		{"win .git  (trailing space)", windows, `C:\Repo`, `C:\Repo\.git`, `C:\Repo\.git \config`, GitDir, ""},
		{"win 8.3 short name", windows, `C:\Repo`, `C:\Repo\.git`, `C:\Repo\GIT~1\config`, GitDir, ""},
		{"win NTFS stream", windows, `C:\Repo`, `C:\Repo\.git`, `C:\Repo\.git::$INDEX_ALLOCATION\config`, GitDir, ""},
		{"win stream on a file", windows, `C:\Repo`, `C:\Repo\.git`, `C:\Repo\a.txt:hidden`, Invalid, ""},
		{"win other drive", windows, `C:\Repo`, `C:\Repo\.git`, `D:\Repo\a.go`, Outside, ""},
		{"win other case outside", windows, `C:\Repo`, `C:\Repo\.git`, `C:\REPO2\a.go`, Outside, ""},
		{"win dotdot out", windows, `C:\Repo`, `C:\Repo\.git`, `C:\Repo\..\Other\a.go`, Outside, ""},
		{"win long path prefix", windows, `C:\Repo`, `C:\Repo\.git`, `\\?\C:\Repo\src\a.go`, Inside, "src/a.go"},
		{"win UNC", windows, `\\srv\share\Repo`, `\\srv\share\Repo\.git`, `\\SRV\Share\repo\a.go`, Inside, "a.go"},
		{"win long UNC", windows, `\\srv\share\Repo`, `\\srv\share\Repo\.git`, `\\?\UNC\srv\share\Repo\a.go`, Inside, "a.go"},
		{"win UNC other share", windows, `\\srv\share\Repo`, `\\srv\share\Repo\.git`, `\\srv\other\Repo\a.go`, Outside, ""},
		{"win trailing dot name", windows, `C:\Repo`, `C:\Repo\.git`, `C:\Repo\notes.txt.`, Inside, "notes.txt"},
		{"win drive-relative", windows, `C:\Repo`, `C:\Repo\.git`, `\Repo\a.go`, Invalid, ""},
		{"win relative", windows, `C:\Repo`, `C:\Repo\.git`, `Repo\a.go`, Invalid, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rel, where := Classify(tc.root, tc.gitDir, tc.p, tc.r)
			if where != tc.want || rel != tc.rel {
				t.Fatalf("Classify(%q, %q, %q) = %q, %v; want %q, %v", tc.root, tc.gitDir, tc.p, rel, where, tc.rel, tc.want)
			}
		})
	}
}

func TestCanonical(t *testing.T) {
	dirs := map[string][]string{
		"":         {"Src", "README.md", "src-old"},
		"Src":      {"Main.go", "main.go.orig", "util"},
		"Src/util": {"a.go"},
	}
	list := func(d string) []string { return dirs[d] }
	for _, tc := range []struct {
		r       Rules
		in, out string
	}{
		{macOS, "src/main.go", "Src/Main.go"},
		{windows, "SRC/UTIL/A.GO", "Src/util/a.go"},
		{macOS, "Src/Main.go", "Src/Main.go"},
		{macOS, "src/new-file.go", "Src/new-file.go"},
		{linux, "src/main.go", "src/main.go"},
	} {
		if got := Canonical(tc.in, tc.r, list); got != tc.out {
			t.Errorf("Canonical(%q) = %q, want %q", tc.in, got, tc.out)
		}
	}
	// An exact entry wins over a folded one.
	both := func(string) []string { return []string{"A.txt", "a.txt"} }
	if got := Canonical("a.txt", macOS, both); got != "a.txt" {
		t.Errorf("exact entry lost: %q", got)
	}
}

func TestSwapCase(t *testing.T) {
	if s, ok := SwapCase(".git"); s != ".GIT" || !ok {
		t.Fatal(s, ok)
	}
	if _, ok := SwapCase("123"); ok {
		t.Fatal("no letters, yet changed")
	}
}
