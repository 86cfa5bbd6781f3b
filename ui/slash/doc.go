// Package slash is the `/` picker's reading of the draft and of chat's
// command table: what the picker offers (chipchat's commands that apply,
// then the agent's that chat.Info.AgentServes), the query a draft's first
// word makes, writing a picked command into the draft, and the footer's
// hint for an agent command. Pure functions over chat.Info and
// composer.Draft; it must not import store, agent or package ui.
package slash
