package message

// What a permission request's options mean to the prompt that asks it.

// FirstOption is the option highlighted first: the agent's allow once,
// else its reject once, else the first that is not an allow always.
// Never an allow always: enter must not write a permanent rule.
func FirstOption(opts []PermissionOption) int {
	for _, kind := range []string{AllowOnce, RejectOnce} {
		for i, o := range opts {
			if o.Kind == kind {
				return i
			}
		}
	}
	for i, o := range opts {
		if o.Kind != AllowAlways {
			return i
		}
	}
	return 0
}

// RejectOption is what dismissing the prompt answers: the agent's reject
// once, else its reject always; ok false means "cancelled".
func RejectOption(opts []PermissionOption) (id string, ok bool) {
	for _, kind := range []string{RejectOnce, RejectAlways} {
		for _, o := range opts {
			if o.Kind == kind {
				return o.ID, true
			}
		}
	}
	return "", false
}

// EscAnswer is what esc answers on an agent's question, as the hint bar
// words it: "reject" a permission with a reject option (RejectOption),
// "cancel" one without (the outcome cancelled), "dismiss" a sign-in.
func EscAnswer(permission bool, opts []PermissionOption) string {
	if !permission {
		return "dismiss"
	}
	if _, ok := RejectOption(opts); ok {
		return "reject"
	}
	return "cancel"
}
