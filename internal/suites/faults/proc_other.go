//go:build !unix

package faults

// GroupGone cannot be decided here: it reports false so a case that needs
// it fails loudly instead of passing unchecked.
func GroupGone(pgid int) (bool, []Proc) { return false, nil }
