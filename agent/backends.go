package agent

import (
	"fmt"
	"strings"
)

// A backend kind is one entry of the kinds table: a new backend is its
// own file in this package plus one line here. The --agent flag's help,
// New's error for an unknown spec and README's list of specs are made from
// the table.
type Kind struct {
	// Scheme is the spec's part before the colon ("exec"); echo has none.
	Scheme string
	// Spec is how to write it ("exec:<command>").
	Spec string
	// Doc is what it is, in one line of Markdown (README's list).
	Doc string
	// Hosted: the backend runs the app's terminals and MCP servers
	// (Options.ACP), so the app sets those up before it is built.
	Hosted bool
	// New builds the backend from the spec's part after the colon.
	New func(rest string, o Options) (Backend, error)
}

// Options are what the app hands a backend besides its spec.
type Options struct {
	// OpenAIAPIKey is an openai: backend's key (OpenAI.APIKey; when it is
	// empty, $OPENAI_API_KEY).
	OpenAIAPIKey string
	// ACP are an acp: agent's directory, terminals and MCP servers.
	ACP ACPOptions
	// Host runs exec: and acp: agents elsewhere (a remote project); nil
	// runs them here. An acp: agent's ACP.Host is set from it.
	Host Host
}

var kinds = []Kind{
	{Scheme: "", Spec: "echo", New: newEcho,
		Doc: "the default: replies with what the `openai:` harness would send for the turn; no account, no network"},
	{Scheme: "exec", Spec: "exec:<command>", New: newExec,
		Doc: "runs the command for each turn (`sh -c`, in the project directory); the payload on stdin, its output the reply, as plain text"},
	{Scheme: "acp", Spec: "acp:<command>", Hosted: true, New: newACPKind,
		Doc: "any Agent Client Protocol (v1) agent over stdio: one session per thread, its tools, permissions, modes and commands"},
	{Scheme: "openai", Spec: "openai:<base-url>#<model>", New: newOpenAIKind,
		Doc: "any OpenAI-compatible Chat Completions server, with chipchat as the harness"},
}

// Kinds is the table of backend kinds, in the order help lists them.
func Kinds() []Kind { return append([]Kind(nil), kinds...) }

// KindSpecs is the kinds' specs joined with ", " ("echo, exec:<command>, …").
func KindSpecs() string {
	specs := make([]string, len(kinds))
	for i, k := range kinds {
		specs[i] = k.Spec
	}
	return strings.Join(specs, ", ")
}

// KindsMarkdown is README's list of backends, a Markdown table made from
// the kinds table (TestREADMEListsAgents keeps the two equal).
func KindsMarkdown() string {
	var b strings.Builder
	b.WriteString("| `--agent` | what it is |\n| --- | --- |\n")
	for _, k := range kinds {
		fmt.Fprintf(&b, "| `%s` | %s |\n", k.Spec, strings.ReplaceAll(k.Doc, "|", `\|`))
	}
	return b.String()
}

// KindOf is the kind of spec and the spec's part after the colon: "" and
// "echo" are echo; the scheme is case-insensitive.
func KindOf(spec string) (Kind, string, error) {
	s := strings.TrimSpace(spec)
	if s == "" || s == "echo" {
		return kinds[0], "", nil
	}
	scheme, rest, _ := strings.Cut(s, ":")
	for _, k := range kinds {
		if k.Scheme != "" && strings.EqualFold(scheme, k.Scheme) {
			return k, rest, nil
		}
	}
	return Kind{}, "", fmt.Errorf("unknown agent %q (available: %s)", spec, KindSpecs())
}

// New chooses a backend from a spec: "" or "echo" is the echo backend;
// "exec:<command>" runs a command per turn (Exec); "openai:<base-url>#<model>"
// talks to an OpenAI-compatible Chat Completions endpoint (OpenAI);
// "acp:<command>" is an Agent Client Protocol agent (ACP). The scheme is
// case-insensitive; a malformed spec is an error saying what to write.
func New(spec string) (Backend, error) { return NewWith(spec, Options{}) }

// NewWith is New with the app's options.
func NewWith(spec string, o Options) (Backend, error) {
	k, rest, err := KindOf(spec)
	if err != nil {
		return nil, err
	}
	b, err := k.New(rest, o)
	if err != nil {
		return nil, fmt.Errorf("agent %q: %w", spec, err)
	}
	return b, nil
}

func newEcho(string, Options) (Backend, error) { return Echo{}, nil }

func newExec(rest string, o Options) (Backend, error) {
	if strings.TrimSpace(rest) == "" {
		return nil, fmt.Errorf("no command (write exec:<command>)")
	}
	return Exec{Command: strings.TrimSpace(rest), Host: o.Host}, nil
}

func newOpenAIKind(rest string, o Options) (Backend, error) {
	i := strings.LastIndexByte(rest, '#')
	if i < 0 {
		return nil, fmt.Errorf("no model (write openai:<base-url>#<model>, e.g. openai:http://localhost:11434/v1#llama3.2)")
	}
	b, err := NewOpenAI(strings.TrimSpace(rest[:i]), rest[i+1:])
	if err != nil {
		return nil, err
	}
	b.APIKey = o.OpenAIAPIKey // empty: $OPENAI_API_KEY
	return b, nil
}

func newACPKind(rest string, o Options) (Backend, error) {
	if o.Host != nil {
		o.ACP.Host = o.Host
	}
	return NewACP(strings.TrimSpace(rest), o.ACP)
}
