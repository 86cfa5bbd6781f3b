package fragment

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
)

// Registry is the set of kinds chipchat may inject. It is the only way to
// claim text back as a fragment (Claim) and the only way to turn fragments
// into messages (Assemble): a kind that is not registered can be neither.
// A Registry is not safe for concurrent Register; register everything
// first, then share it.
type Registry struct {
	kinds []*Kind
}

// NewRegistry returns a registry holding kinds.
func NewRegistry(kinds ...*Kind) (*Registry, error) {
	r := &Registry{}
	for _, k := range kinds {
		if err := r.Register(k); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Register adds a kind. It refuses a nil kind, an empty or taken name, a
// role other than user or developer, a kind with exactly one marker, a
// stand-alone user kind, and a marked kind whose markers equal (ASCII
// case-insensitively) those of a registered kind.
func (r *Registry) Register(k *Kind) error {
	switch {
	case k == nil:
		return errors.New("fragment: nil kind")
	case strings.TrimSpace(k.Name) == "":
		return errors.New("fragment: kind without a name")
	case k.Role != RoleUser && k.Role != RoleDeveloper:
		return fmt.Errorf("fragment: kind %q: role %q is not user or developer", k.Name, k.Role)
	case (k.Begin == "") != (k.End == ""):
		return fmt.Errorf("fragment: kind %q has one marker: give both or none", k.Name)
	case k.Marked() && (strings.TrimLeftFunc(k.Begin, unicode.IsSpace) != k.Begin ||
		strings.TrimRightFunc(k.End, unicode.IsSpace) != k.End):
		return fmt.Errorf("fragment: kind %q: markers cannot start or end with whitespace", k.Name)
	case k.StandAlone && k.Role != RoleDeveloper:
		return fmt.Errorf("fragment: kind %q: only developer fragments stand alone", k.Name)
	}
	for _, o := range r.kinds {
		switch {
		case o == k || o.Name == k.Name:
			return fmt.Errorf("fragment: kind %q is already registered", k.Name)
		case k.Marked() && asciiEqualFold(o.Begin, k.Begin) && asciiEqualFold(o.End, k.End):
			return fmt.Errorf("fragment: kind %q has the markers of %q", k.Name, o.Name)
		}
	}
	r.kinds = append(r.kinds, k)
	return nil
}

// Kinds lists the registered kinds in registration order.
func (r *Registry) Kinds() []*Kind { return append([]*Kind(nil), r.kinds...) }

// Registered reports whether k is registered.
func (r *Registry) Registered(k *Kind) bool {
	for _, o := range r.kinds {
		if o == k {
			return true
		}
	}
	return false
}

// Claim says which registered kind text is a fragment of, by the claim
// rule (Kind.Matches). When several match, the one with the longest begin
// marker wins, then the longest end marker, then the first registered.
// Unmarked kinds are never claimed.
func (r *Registry) Claim(text string) (*Kind, bool) {
	var best *Kind
	for _, k := range r.kinds {
		if !k.Matches(text) {
			continue
		}
		if best == nil || len(k.Begin) > len(best.Begin) ||
			(len(k.Begin) == len(best.Begin) && len(k.End) > len(best.End)) {
			best = k
		}
	}
	return best, best != nil
}

// Message is one message for the model: its role and its parts, one
// rendered fragment (or one piece of the user's words) per part.
type Message struct {
	Role  Role
	Parts []string
}

// Text is the parts joined by a blank line, for backends that send one
// string per message.
func (m Message) Text() string { return strings.Join(m.Parts, "\n\n") }

// Assemble bins fragments into messages, keeping their order within a bin:
// one developer message with every developer fragment that need not stand
// alone, then one message per stand-alone developer fragment, then one
// contextual user message with every user fragment. Empty bins make no
// message. A nil fragment or one of an unregistered kind is an error.
func (r *Registry) Assemble(frags ...Fragment) ([]Message, error) {
	var merged, user []string
	var alone []Message
	for i, f := range frags {
		if f == nil {
			return nil, fmt.Errorf("fragment: assemble: fragment %d is nil", i)
		}
		k := f.Kind()
		if !r.Registered(k) {
			name := "<nil>"
			if k != nil {
				name = k.Name
			}
			return nil, fmt.Errorf("fragment: assemble: kind %q is not registered", name)
		}
		text := Render(f)
		switch {
		case k.Role == RoleUser:
			user = append(user, text)
		case k.StandAlone:
			alone = append(alone, Message{Role: RoleDeveloper, Parts: []string{text}})
		default:
			merged = append(merged, text)
		}
	}
	var out []Message
	if len(merged) > 0 {
		out = append(out, Message{Role: RoleDeveloper, Parts: merged})
	}
	out = append(out, alone...)
	if len(user) > 0 {
		out = append(out, Message{Role: RoleUser, Parts: user})
	}
	return out, nil
}
