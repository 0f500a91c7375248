package apply

// Landed returns the common part of an editing tool's result: every result
// that embeds Landing has it, so that a caller (the CLI printing warnings,
// the MCP server) handles every editing tool's result alike.
func (l *Landing) Landed() *Landing { return l }
