//go:build !linux

package apply

// adviseHuge does nothing off Linux.
func adviseHuge([]byte) {}
