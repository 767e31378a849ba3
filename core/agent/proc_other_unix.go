//go:build unix && !linux

package agent

// onlyZombies cannot tell zombies apart without /proc; init reaps orphans on
// these systems, so a group that is still there is really alive.
func onlyZombies(int) bool { return false }
