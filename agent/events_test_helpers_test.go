package agent

import "context"

// stream runs Echo with only its text deltas, as the older tests read it.
func (e Echo) stream(ctx context.Context, t Turn, emit func(string)) error {
	return e.Run(ctx, t, textOnly(emit))
}

// textOnly hands emit the text of each TextDelta.
func textOnly(emit func(string)) func(Event) {
	return func(ev Event) {
		if d, ok := ev.(TextDelta); ok {
			emit(d.Text)
		}
	}
}
