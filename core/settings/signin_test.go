package settings

import "testing"

// Settings says how the user signed in until they sign out; signing out
// twice is no error.
func TestSignInIsRememberedUntilSignOut(t *testing.T) {
	t.Setenv("CDXTHEME_CONFIG_DIR", t.TempDir())
	if m := SignedInMethod(); m != "" {
		t.Fatalf("signed in as %q before any sign-in", m)
	}
	if err := RememberSignIn("chatgpt"); err != nil {
		t.Fatal(err)
	}
	if m := SignedInMethod(); m != "chatgpt" {
		t.Fatalf("signed in as %q, want chatgpt", m)
	}
	for range 2 {
		if err := ForgetSignIn(); err != nil {
			t.Fatal(err)
		}
	}
	if m := SignedInMethod(); m != "" {
		t.Fatalf("still signed in as %q after sign-out", m)
	}
}
