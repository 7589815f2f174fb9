package statefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// stateIn makes a temporary folder holding the folder sub, and returns
// the temporary folder and the path of a state file in sub (not written).
func stateIn(t *testing.T, sub string) (dir, state string) {
	t.Helper()
	dir = t.TempDir()
	state = filepath.Join(dir, sub, "state.json")
	if err := os.MkdirAll(filepath.Dir(state), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, state
}

// symlinks makes each link, the second of a pair, point to the first; the
// test is skipped where symbolic links cannot be made.
func symlinks(t *testing.T, links ...[2]string) {
	t.Helper()
	for _, l := range links {
		if err := os.Symlink(l[0], l[1]); err != nil {
			t.Skipf("symbolic links: %v", err)
		}
	}
}

func TestTargetFollowsLinks(t *testing.T) {
	dir, real := stateIn(t, "data")
	abs := filepath.Join(dir, "abs.json")
	rel := filepath.Join(dir, "rel.json")
	chain := filepath.Join(dir, "chain.json")
	loop := filepath.Join(dir, "loop.json")
	symlinks(t, [2]string{real, abs}, [2]string{filepath.Join("data", "state.json"), rel}, [2]string{"rel.json", chain}, [2]string{"loop.json", loop})
	for _, c := range []struct{ path, want string }{
		{real, real}, // not written yet: the path itself
		{abs, real},  // a link to a file not written yet
		{rel, real},
		{chain, real},
		{filepath.Join(dir, "plain.json"), filepath.Join(dir, "plain.json")},
	} {
		if got, err := Target(c.path); err != nil || got != c.want {
			t.Errorf("Target(%s) = %q, %v; want %q", c.path, got, err, c.want)
		}
	}
	if _, err := Target(loop); err == nil || !strings.Contains(err.Error(), "symbolic links") {
		t.Errorf("Target(a link to itself) = %v, want an error about links", err)
	}
}

// TestWriteThroughLink: a write replaces the link's target atomically and
// leaves the link a link, and no temporary file behind.
func TestWriteThroughLink(t *testing.T) {
	dir, real := stateIn(t, "shared")
	link := filepath.Join(dir, "state.json")
	symlinks(t, [2]string{filepath.Join("shared", "state.json"), link})
	for _, content := range []string{"first", "second"} {
		if err := Write(link, []byte(content)); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(real); string(got) != content {
			t.Errorf("target holds %q after writing %q through the link", got, content)
		}
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("after the writes %s is no longer a symbolic link (%v)", link, err)
	}
	for d, want := range map[string]int{dir: 2, filepath.Dir(real): 1} { // the link and shared/; the file
		if entries, _ := os.ReadDir(d); len(entries) != want {
			t.Errorf("%s holds %d entries after the writes, want %d (no temporary left)", d, len(entries), want)
		}
	}
	if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o600 {
		t.Errorf("state file mode %v, want 0600 (it holds credentials)", fi.Mode().Perm())
	}
}

// TestReadRefusesTooBig: a file over the limit is refused with its size,
// without being read (a sparse file of 300 MB takes no time).
func TestReadRefusesTooBig(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 300<<20); err != nil {
		t.Fatal(err)
	}
	_, err := Read(big, DefaultMaxBytes)
	var tooBig *TooBigError
	if !errors.As(err, &tooBig) || tooBig.Size != 300<<20 {
		t.Fatalf("Read(300 MB file) = %v, want a TooBigError with its size", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "314572800 bytes (300.0 MB)") || !strings.Contains(msg, "268435456") {
		t.Errorf("message %q, want the size and the limit", msg)
	}
	small := filepath.Join(dir, "small.json")
	if err := os.WriteFile(small, []byte("12345"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := Read(small, 5); err != nil || string(got) != "12345" {
		t.Errorf("Read(5 bytes, max 5) = %q, %v; want the content", got, err)
	}
	if _, err := Read(small, 4); !errors.As(err, &tooBig) {
		t.Errorf("Read(5 bytes, max 4) = %v, want a TooBigError", err)
	}
	if _, err := Read(filepath.Join(dir, "absent.json"), 10); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Read(absent) = %v, want fs.ErrNotExist", err)
	}
	if _, err := Read(dir, 10); err == nil {
		t.Error("Read(a directory): no error, want one")
	}
}

func TestCheckDir(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "missing", "state.json"), "does not exist"},
		{filepath.Join(file, "state.json"), "is not a directory"},
		{dir, "is a directory"},
	} {
		if err := CheckDir(c.path); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("CheckDir(%s) = %v, want an error saying %q", c.path, err, c.want)
		}
	}
	if err := CheckDir(filepath.Join(dir, "state.json")); err != nil {
		t.Errorf("CheckDir(a writable directory) = %v, want nil", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("CheckDir left %d entries, want the one file there before", len(entries))
	}
	if err := CheckDir(filepath.Join(unwritableDir(t), "state.json")); err == nil || !strings.Contains(err.Error(), "cannot write") {
		t.Errorf("CheckDir(an unwritable directory) = %v, want an error saying it cannot write", err)
	}
}

// unwritableDir is a directory this process cannot create a file in: a
// read-only temporary directory, or, for root (who writes anywhere the
// file system allows), /sys.
func unwritableDir(t *testing.T) string {
	t.Helper()
	if os.Geteuid() != 0 {
		dir := filepath.Join(t.TempDir(), "ro")
		if err := os.Mkdir(dir, 0o500); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	if runtime.GOOS == "linux" {
		if fi, err := os.Stat("/sys"); err == nil && fi.IsDir() {
			return "/sys"
		}
	}
	t.Skip("running as root with no read-only directory at hand")
	return ""
}

// TestLockKeepsSecondOff: while one holds the lock, a second Acquire
// (through a link to the same file too) is refused with the holder's
// line; after Release it succeeds and the lock file is gone.
func TestLockKeepsSecondOff(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	first, err := Acquire(path, "campusconf serve (pid 1) at http://127.0.0.1:8080")
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink("state.json", link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, link} {
		_, err := Acquire(p, "campusconf serve (pid 2) at http://127.0.0.1:8081")
		var held *HeldError
		if !errors.As(err, &held) || held.Holder != "campusconf serve (pid 1) at http://127.0.0.1:8080" {
			t.Fatalf("second Acquire(%s) = %v, want a HeldError naming the first holder", p, err)
		}
		if !strings.Contains(err.Error(), "http://127.0.0.1:8080") {
			t.Errorf("message %q, want the holder's address", err)
		}
	}
	if err := first.Release(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + ".lock"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("lock file after Release: %v, want it removed", err)
	}
	takesLock(t, link, path+".lock", "campusconf serve (pid 2) at http://127.0.0.1:8081")
}

// takesLock acquires the lock of state as holder, expecting it granted
// and its file (lockFile) to hold holder's line alone, then releases it.
func takesLock(t *testing.T, state, lockFile, holder string) {
	t.Helper()
	l, err := Acquire(state, holder)
	if err != nil {
		t.Fatalf("Acquire(%s): expected the lock, got %v", state, err)
	}
	if b, _ := os.ReadFile(lockFile); string(b) != holder+"\n" {
		t.Errorf("lock file: expected the new holder's line alone, got %q", b)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
}
