package statefile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestToken: the control token kept beside the state file is written
// owner-only and read back; one that is a link, not a regular file or open
// to others is refused, unread, and a link is never written through.
func TestToken(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state.json")
	if tok, err := ReadToken(state); tok != "" || err != nil {
		t.Fatalf("ReadToken with no token file: %q %v, want \"\" and no error", tok, err)
	}
	if err := WriteToken(state, "0123456789abcdef0123"); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(state + ".token")
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file: expected mode 0600, got %v %v", fi, err)
	}
	if tok, err := ReadToken(state); tok != "0123456789abcdef0123" || err != nil {
		t.Errorf("ReadToken: %q %v, want the token written", tok, err)
	}

	secret := filepath.Join(dir, "elsewhere")
	if err := os.WriteFile(secret, []byte("not a token of ours"), 0o600); err != nil {
		t.Fatal(err)
	}
	linked := filepath.Join(dir, "linked.json")
	if err := os.Symlink(secret, linked+".token"); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	open := filepath.Join(dir, "open.json")
	if err := os.WriteFile(open+".token", []byte("0123456789abcdef0123"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open+".token", 0o644); err != nil {
		t.Fatal(err)
	}
	notFile := filepath.Join(dir, "dir.json")
	if err := os.Mkdir(notFile+".token", 0o700); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ state, want string }{
		{linked, "symbolic link"},
		{open, "chmod 600"},
		{notFile, "not a regular file"},
	} {
		if tok, err := ReadToken(tt.state); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ReadToken(%s): %q %v, want an error saying %q", filepath.Base(tt.state), tok, err, tt.want)
		}
	}
	if err := WriteToken(linked, "0123456789abcdef0123"); err == nil {
		t.Error("WriteToken over a symbolic link: expected a refusal")
	}
	if b, _ := os.ReadFile(secret); string(b) != "not a token of ours" {
		t.Errorf("the link's target was changed: %q", b)
	}
}
