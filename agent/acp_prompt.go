package agent

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"strings"
	"unicode/utf8"

	acp "github.com/coder/acp-go-sdk"
)

// ACPCheckAttachments refuses attachments larger than max bytes (0 means
// ACPDefaultMaxAttachment), naming the first that is; chat calls it before
// it sends a message to an ACP agent (Run refuses them too). The size is
// Attachment.Size, else that of the file at Path; an attachment without
// bytes is left to the text projection and never refused.
func ACPCheckAttachments(atts []Attachment, max int64) error {
	if max <= 0 {
		max = ACPDefaultMaxAttachment
	}
	for _, at := range atts {
		size := at.Size
		if size <= 0 && at.Path != "" {
			if fi, err := os.Stat(at.Path); err == nil {
				size = fi.Size()
			}
		}
		if size > max {
			name := at.Name
			if name == "" {
				name = at.ContextID
			}
			return fmt.Errorf("%s is %s, more than the %s an agent is sent", oneLine(name), humanSize(size), humanSize(max))
		}
	}
	return nil
}

// CheckAttachments is ACPCheckAttachments with this backend's limit.
func (a *ACP) CheckAttachments(atts []Attachment) error {
	return ACPCheckAttachments(atts, a.maxAttachment())
}

// acpAttachmentURI names an attachment by its original file name (never
// the path of its bytes): chipchat://attachment/<context id>/<name>.
func acpAttachmentURI(at Attachment) string {
	name := acpAttachmentName(at)
	id := at.ContextID
	if id == "" {
		id = at.AttachmentID
	}
	if id == "" {
		id = "-"
	}
	u := url.URL{Scheme: "chipchat", Host: "attachment", Path: "/" + id + "/" + name}
	return u.String()
}

// acpAttachmentName is the attachment's file name without any directory.
func acpAttachmentName(at Attachment) string {
	name := path.Base(strings.ReplaceAll(at.Name, "\\", "/"))
	if name == "" || name == "." || name == "/" {
		name = "attachment"
	}
	return name
}

// acpStager puts a local file on the agent's host and returns its path
// there (Host.Stage); nil when the agent runs here.
type acpStager func(name, path string) (string, error)

// acpPromptBlocks is the prompt of t for an agent with the given
// capabilities, and notes on what could not be sent as bytes. With
// stage (the agent runs on a Host), a file that is binary, over
// ACPDefaultMaxAttachment (too large to embed; an image too) or not
// embeddable (no embeddedContext) is staged there and sent as a
// resource_link to its path on the host.
func acpPromptBlocks(caps acp.PromptCapabilities, t Turn, stage acpStager) ([]acp.ContentBlock, []string) {
	blocks := []acp.ContentBlock{acp.TextBlock(acpPromptText(t))}
	var notes []string
	for _, at := range t.Attachments {
		if at.Path == "" {
			continue
		}
		name := at.Name
		if name == "" {
			name = "an attachment"
		}
		uri := acpAttachmentURI(at)
		mime := at.MimeType
		if stage != nil && acpStageIt(caps, at) {
			b, err := acpStagedLink(stage, at)
			if err != nil {
				notes = append(notes, oneLine(name)+" could not be staged on the agent's host: "+oneLine(err.Error()))
				continue
			}
			blocks = append(blocks, b)
			continue
		}
		if at.IsImage() {
			if !caps.Image {
				notes = append(notes, "the agent takes no images: "+oneLine(name)+" is sent as its name only")
				continue
			}
			data, err := acpReadAttachment(at.Path)
			if err != nil {
				notes = append(notes, oneLine(name)+" could not be read: "+oneLine(err.Error()))
				continue
			}
			b := acp.ImageBlock(base64.StdEncoding.EncodeToString(data), mime)
			b.Image.Uri = &uri
			blocks = append(blocks, b)
			continue
		}
		var mt *string
		if mime != "" {
			mt = &mime
		}
		if !caps.EmbeddedContext {
			// A link names the file; the agent gets no bytes it cannot read.
			b := acp.ResourceLinkBlock(acpAttachmentName(at), uri)
			b.ResourceLink.MimeType = mt
			if at.Size > 0 {
				sz := int(at.Size)
				b.ResourceLink.Size = &sz
			}
			blocks = append(blocks, b)
			continue
		}
		data, err := acpReadAttachment(at.Path)
		if err != nil {
			notes = append(notes, oneLine(name)+" could not be read: "+oneLine(err.Error()))
			continue
		}
		if utf8.Valid(data) && !strings.ContainsRune(string(data), 0) {
			blocks = append(blocks, acp.ResourceBlock(acp.EmbeddedResourceResource{
				TextResourceContents: &acp.TextResourceContents{Uri: uri, MimeType: mt, Text: string(data)},
			}))
		} else {
			blocks = append(blocks, acp.ResourceBlock(acp.EmbeddedResourceResource{
				BlobResourceContents: &acp.BlobResourceContents{Uri: uri, MimeType: mt, Blob: base64.StdEncoding.EncodeToString(data)},
			}))
		}
	}
	return blocks, notes
}

// acpStageIt reports whether at goes to an agent on a Host staged and
// linked rather than in the prompt: too large to embed, a binary file,
// or a file the agent takes no embedded resources for.
func acpStageIt(caps acp.PromptCapabilities, at Attachment) bool {
	size := at.Size
	if fi, err := os.Stat(at.Path); err == nil {
		size = fi.Size()
	}
	if size > ACPDefaultMaxAttachment {
		return true
	}
	if at.IsImage() {
		return false
	}
	if !caps.EmbeddedContext {
		return true
	}
	return acpIsBinary(at.Path)
}

// acpIsBinary reports whether the file at p is not text: invalid UTF-8
// or a NUL in its first 8000 bytes (a read error counts as text: the
// prompt's own read then says so).
func acpIsBinary(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, 8000)
	n, _ := io.ReadFull(f, buf)
	head := buf[:n]
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	// A multibyte rune cut at the end of a full head is not invalid.
	for i := 0; n == len(buf) && i < 3 && len(head) > 0 && !utf8.Valid(head); i++ {
		head = head[:len(head)-1]
	}
	return !utf8.Valid(head)
}

// acpStagedLink stages at on the host and links it by its path there
// (file://), named by its original file name, with its type and size.
func acpStagedLink(stage acpStager, at Attachment) (acp.ContentBlock, error) {
	p, err := stage(acpAttachmentName(at), at.Path)
	if err != nil {
		return acp.ContentBlock{}, err
	}
	u := url.URL{Scheme: "file", Path: p}
	b := acp.ResourceLinkBlock(acpAttachmentName(at), u.String())
	if at.MimeType != "" {
		mt := at.MimeType
		b.ResourceLink.MimeType = &mt
	}
	if fi, err := os.Stat(at.Path); err == nil {
		sz := int(fi.Size())
		b.ResourceLink.Size = &sz
	}
	return b, nil
}

func acpReadAttachment(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}
