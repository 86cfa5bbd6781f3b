package chat

import (
	"errors"
	"fmt"
	"strings"

	"github.com/chipchat/chipchat/assets"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
)

// DropExpired removes the terminal excerpts expired reports (DESIGN.md
// section 2: expired terminal excerpts are dropped at send). Their links
// stay in the text, so the agent sees where an excerpt was and that it is
// unavailable.
func DropExpired(records []contextref.Record, expired func(contextref.Record) bool) ([]contextref.Record, int) {
	kept := make([]contextref.Record, 0, len(records))
	for _, r := range records {
		if r.RecordBase().Kind == contextref.KindTerminal && expired(r) {
			continue
		}
		kept = append(kept, r)
	}
	return kept, len(records) - len(kept)
}

// BuildMessage turns a submitted draft into the user message to store:
// only records some chip points at (an image left on the shelf without a
// chip is not sent), attachments normalized, within the contract's limits.
func BuildMessage(threadID, markdown string, records []contextref.Record, resolve func(localID string) (string, bool), has func(assetID string) bool) (store.Message, error) {
	referenced := map[string]bool{}
	for _, o := range contextref.Scan(markdown) {
		referenced[o.ContextID] = true
	}
	var recs []contextref.Record
	for _, r := range records {
		if referenced[r.RecordBase().ContextID] {
			recs = append(recs, r)
		}
	}
	recs, err := NormalizeAttachments(recs, resolve, has)
	if err != nil {
		return store.Message{}, err
	}
	if strings.TrimSpace(markdown) == "" && len(recs) == 0 {
		return store.Message{}, errors.New("nothing to send: write something, or put a chip of the shelf image in the text")
	}
	msg := store.Message{ThreadID: threadID, Role: message.RoleUser, Text: markdown}
	if len(recs) > 0 {
		msg.Context = &contextref.MessageContext{Version: 1, Records: recs}
	}
	if err := CheckLimits(markdown, msg.Context); err != nil {
		return store.Message{}, err
	}
	return msg, nil
}

// MaxMessageLen bounds a message's text, in bytes: the contract's largest
// context encoding.
const MaxMessageLen = contextref.MaxContextJSONLen

// CheckLimits refuses a message over the contract's limits, saying which.
func CheckLimits(text string, ctx *contextref.MessageContext) error {
	if len(text) > MaxMessageLen {
		return fmt.Errorf("message not sent: its text is %s, over the %s limit", assets.HumanSize(int64(len(text))), assets.HumanSize(MaxMessageLen))
	}
	if ctx == nil {
		return nil
	}
	if len(ctx.Records) > contextref.MaxContextRecords {
		return fmt.Errorf("message not sent: it references %d pieces of context, over the limit of %d", len(ctx.Records), contextref.MaxContextRecords)
	}
	raw, err := ctx.Marshal()
	if err != nil {
		return fmt.Errorf("message not sent: %v", err)
	}
	if back, _, err := contextref.DecodeContext(raw); err != nil || len(back.Records) != len(ctx.Records) {
		return fmt.Errorf("message not sent: its context does not pass the contract (%v)", err)
	}
	return nil
}

// NormalizeAttachments is the send-time normalizer (DESIGN.md section 2,
// step 2): each image and file record's attachmentId is rewritten from the
// draft attachment's local id to the stored asset's id (resolve), and the
// stored bytes must exist (has). An attachment whose bytes are not stored
// refuses the send, naming the file. Records are copied, never changed in
// place: the draft keeps its local ids.
func NormalizeAttachments(recs []contextref.Record, resolve func(localID string) (string, bool), has func(assetID string) bool) ([]contextref.Record, error) {
	out := make([]contextref.Record, len(recs))
	for i, r := range recs {
		var att *contextref.AttachmentRecord
		if out[i], att = contextref.CopyAttachment(r); att == nil {
			continue
		}
		id := att.AttachmentID
		if stored, ok := resolve(id); ok {
			id = stored
		}
		if !has(id) {
			return nil, fmt.Errorf("message not sent: the bytes of %s are not in the asset store; attach it again", att.Name)
		}
		att.AttachmentID = id
	}
	return out, nil
}
