package workspace

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/chipchat/chipchat/assets"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/store"
)

// errNoAssets: there is no asset store to keep bytes in.
var errNoAssets = errors.New("no asset store")

// LocalAssets binds attachments in this environment: Rebind and Adopt are
// clipboard.LocalAssets (the paste importer's), and do I/O: the importer
// runs off the UI goroutine.
type LocalAssets struct {
	st *store.Store
	as *assets.Store
}

// Assets is the importer's view of this environment's stores.
func (w *Workspace) Assets() LocalAssets { return LocalAssets{w.o.Store, w.o.Assets} }

// Rebind binds a fresh local id to bytes this environment holds (id is an
// asset id or a local id bound to one).
func (l LocalAssets) Rebind(id string) (string, error) {
	if b, ok, err := l.st.AttachmentBinding(id); err == nil && ok {
		id = b
	}
	if l.as == nil || !l.as.Has(id) {
		return "", errors.New("its bytes are gone from this environment")
	}
	local := randomID("att_")
	return local, l.st.BindAttachment(local, id)
}

// Adopt copies the file at p into the asset store and binds a fresh local
// id to it.
func (l LocalAssets) Adopt(p string) (string, error) {
	if l.as == nil {
		return "", errNoAssets
	}
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	id, _, err := l.as.Put(f)
	if err != nil {
		return "", err
	}
	local := randomID("att_")
	return local, l.st.BindAttachment(local, id)
}

// put stores r's bytes and binds a fresh local id to them.
func (l LocalAssets) put(r io.Reader) (local string, size int64, err error) {
	if l.as == nil {
		_, _ = io.Copy(io.Discard, r)
		return "", 0, errNoAssets
	}
	id, size, err := l.as.Put(r)
	if err != nil {
		return "", 0, err
	}
	local = randomID("att_")
	if err := l.st.BindAttachment(local, id); err != nil {
		return "", 0, err
	}
	return local, size, nil
}

// attachment is the record of stored bytes: an image chip for an image, a
// file chip otherwise.
func attachment(local, name, mime string, size int64) contextref.Record {
	att := contextref.AttachmentRecord{AttachmentID: local, Name: name, MimeType: mime, SizeBytes: size}
	if assets.IsImage(mime) {
		att.Base = contextref.NewBase(contextref.KindImage, local, name)
		return &contextref.ImageRecord{AttachmentRecord: att}
	}
	att.Base = contextref.NewBase(contextref.KindFile, local, name)
	return &contextref.FileRecord{AttachmentRecord: att}
}

// Attach copies a file into the asset store and binds a fresh local id to
// it: the chip's record (an image or a file record).
func (w *Workspace) Attach(path string) func() (contextref.Record, error) {
	st, as := w.o.Store, w.o.Assets
	return func() (contextref.Record, error) {
		if as == nil {
			return nil, errNoAssets
		}
		a, err := as.PutFile(path)
		if err != nil {
			return nil, NoFile(path, err)
		}
		local := randomID("att_")
		if err := st.BindAttachment(local, a.ID); err != nil {
			return nil, err
		}
		return attachment(local, a.Name, a.MimeType, a.Size), nil
	}
}

// KeepPaste keeps pasted bytes as pasted-text-n.txt (text/plain), or
// pasted-image-n.png when image: the chip's record.
func (w *Workspace) KeepPaste(data []byte, n int, image bool) func() (contextref.Record, error) {
	l := w.Assets()
	return func() (contextref.Record, error) {
		local, size, err := l.put(strings.NewReader(string(data)))
		if err != nil {
			return nil, err
		}
		if image {
			return attachment(local, fmt.Sprintf("pasted-image-%d.png", n), "image/png", size), nil
		}
		return attachment(local, fmt.Sprintf("pasted-text-%d.txt", n), "text/plain", size), nil
	}
}

// PasteRecord is the record of a long paste KeepStream stored: the file
// chip pasted-text-n.txt. No I/O.
func PasteRecord(local string, size int64, n int) contextref.Record {
	return attachment(local, fmt.Sprintf("pasted-text-%d.txt", n), "text/plain", size)
}

// KeepStream streams a long paste's bytes into the asset store and binds a
// fresh local id to them. It does I/O on the caller's goroutine: the paste
// filter's reader calls it, never the UI. An error over the asset store's
// limit is a TooLarge one.
func (w *Workspace) KeepStream(r io.Reader) (local string, size int64, err error) {
	return w.Assets().put(r)
}

// TooLarge reports whether err is the asset store's size limit refusing
// bytes, and the limit.
func TooLarge(err error) (limit int64, ok bool) {
	var tl *assets.TooLargeError
	if errors.As(err, &tl) {
		return tl.Limit, true
	}
	return 0, false
}

// PasteLimit is the largest paste kept: the asset store's limit, else
// Options.AttachmentBytes.
func (w *Workspace) PasteLimit() int64 {
	if w.o.Assets != nil {
		return w.o.Assets.Limit()
	}
	return w.o.AttachmentBytes
}

// Path is where the bytes of an attachment (a local id or an asset id)
// are in this environment.
func (w *Workspace) Path(id string) func() (string, error) {
	st, as := w.o.Store, w.o.Assets
	return func() (string, error) {
		if b, ok, err := st.AttachmentBinding(id); err == nil && ok {
			id = b
		}
		if as == nil {
			return "", errNoAssets
		}
		return as.Path(id)
	}
}

// Text reads a text attachment's bytes, refused over max bytes.
func (w *Workspace) Text(id string, max int64) func() (string, error) {
	path := w.Path(id)
	return func() (string, error) {
		p, err := path()
		if err != nil {
			return "", errors.New("its bytes are not in this environment's asset store")
		}
		f, err := os.Open(p)
		if err != nil {
			return "", err
		}
		defer f.Close()
		b, err := io.ReadAll(io.LimitReader(f, max+1))
		if err != nil {
			return "", err
		}
		if int64(len(b)) > max {
			return "", fmt.Errorf("it is over %s", HumanSize(max))
		}
		return string(b), nil
	}
}

// ForCopy is recs as another environment can fetch them: clones whose
// attachment ids are asset ids, not this environment's local ids.
func (w *Workspace) ForCopy(recs []contextref.Record) func() []contextref.Record {
	st := w.o.Store
	return func() []contextref.Record {
		out := make([]contextref.Record, len(recs))
		for i, r := range recs {
			c, att := contextref.CopyAttachment(r)
			if att != nil {
				if b, ok, err := st.AttachmentBinding(att.AttachmentID); err == nil && ok {
					att.AttachmentID = b
				}
			}
			out[i] = c
		}
		return out
	}
}

// CheckAttachments refuses, naming the first, an image or file record over
// the agent's limit (Options.MaxAttachment). It reads only the records'
// sizes: no I/O.
func (w *Workspace) CheckAttachments(recs []contextref.Record) error {
	max := w.o.MaxAttachment
	if max <= 0 {
		return nil
	}
	for _, r := range recs {
		att := contextref.AttachmentOf(r)
		if att == nil || att.SizeBytes <= max {
			continue
		}
		name := att.Name
		if name == "" {
			name = att.ContextID
		}
		name = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(name)
		return fmt.Errorf("not sent: %s is %s, more than the %s an agent is sent — remove the chip (or send the file some other way)",
			name, HumanSize(att.SizeBytes), HumanSize(max))
	}
	return nil
}
