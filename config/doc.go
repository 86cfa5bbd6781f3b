// Package config is chipchat's config file: what
// $XDG_CONFIG_HOME/chipchat/config.toml may set (the agent, [limits],
// [ui], [acp], [notify], [[mcp_servers]], [keys], [remote], [remotes.NAME]),
// its embedded defaults, reading it (Load: unknown settings refused, naming
// the file) and the checks of every range and value (check.go). The [keys]
// table is checked by the key table's owner (ui.CheckKeys), which Load is
// given.
//
// It imports chat only for its default reply size, remote for its
// [remotes.NAME] entry type and defaults, and notify for the [notify]
// events and methods; never ui or a component.
package config
