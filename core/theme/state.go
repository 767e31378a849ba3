package theme

// StateOf is the preview state of a theme document held in memory (an
// older version from a checkpoint), as Load gives for the file on disk.
func StateOf(data []byte) State {
	t, err := Parse(data)
	if err != nil {
		return State{Error: err.Error(), Checks: []Check{}, Roles: []RoleValue{}}
	}
	return State{Theme: t, Checks: Checks(t), Roles: t.Values()}.withCompanion()
}
