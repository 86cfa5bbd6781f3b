package agent

import (
	"context"
	"os/exec"

	"github.com/coder/acp-go-sdk"
)

// HostHelper is a Host on which chipchat's helper runs (`chipchat
// remote-helper`, see helper.go): the agent's client fs is served there
// through it, and its terminals too when ACPOptions.Terminals runs them
// there.
type HostHelper interface {
	// Helper is the command that runs the helper on the host, its stdin
	// and stdout the protocol; ctx bounds only the starting. An error
	// says why there is none (the host's OS or architecture is not
	// chipchat's, staging it failed): client fs and terminals are then
	// not offered.
	Helper(ctx context.Context) (*exec.Cmd, error)
}

// hostHelper starts the helper for a new agent process on a Host that
// has one: nil and why not otherwise ("" when the Host has no helper at
// all).
func (a *ACP) hostHelper(ctx context.Context) (*helperClient, string) {
	hh, ok := a.opts.Host.(HostHelper)
	if !ok {
		return nil, ""
	}
	cmd, err := hh.Helper(ctx)
	if err != nil {
		return nil, err.Error()
	}
	h, err := startHelper(cmd, a.opts.Host.Label())
	if err != nil {
		return nil, err.Error()
	}
	return h, ""
}

// files is what serves the client's fs requests: acpFS here, the helper
// on a Host. On a Host without one (it was not offered at initialize) the
// call is refused, and the user told in the running turn, else at the
// next one.
func (c *acpClient) files(what, method string) (acpFiles, error) {
	h := c.a.opts.Host
	if h == nil {
		return c.a.fs, nil
	}
	if c.helper != nil {
		return c.helper, nil
	}
	return nil, c.refuseOffHost(what, method)
}

// offHost refuses a terminal call of an agent that runs on a Host where
// chipchat does not run its terminals (no helper, or no terminal host for
// it): serving it here would run on the wrong machine. It is nil for an
// agent that runs here.
func (c *acpClient) offHost(what, method string) error {
	if c.a.opts.Host == nil || c.helper != nil && c.a.opts.Terminals != nil {
		return nil
	}
	return c.refuseOffHost(what, method)
}

func (c *acpClient) refuseOffHost(what, method string) error {
	why := ""
	if c.noHelper != "" {
		why = " (" + c.noHelper + ")"
	}
	err := acpRefused("the project is on %s and chipchat does not serve %s there%s; it was not offered at initialize: use the agent's own tools", c.a.opts.Host.Label(), method, why)
	c.a.tell("chipchat refused the agent's " + what + ": " + err.(*acp.RequestError).Message)
	return err
}
