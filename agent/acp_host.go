package agent

import (
	"github.com/coder/acp-go-sdk"
)

// offHost refuses a client fs or terminal call of an agent that runs on a
// Host (a remote project): chipchat offers neither there (ACPOptions.Host),
// and serving it here would read, write or run on the wrong machine. The
// user is told in the running turn, else at the next one. It is nil for an
// agent that runs here.
func (c *acpClient) offHost(what, method string) error {
	h := c.a.opts.Host
	if h == nil {
		return nil
	}
	err := acpRefused("the project is on %s and chipchat does not serve %s there yet (it was not offered at initialize); use the agent's own tools", h.Label(), method)
	c.a.tell("chipchat refused the agent's " + what + ": " + err.(*acp.RequestError).Message)
	return err
}
