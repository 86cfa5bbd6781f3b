package agent

import "io"

// CheckAttachments refuses, naming the first, an attachment over
// c.MaxAttachment; with no limit declared it takes them all. It reads the
// attachments' sizes (Attachment.Size, else a stat of Path).
func (c Capabilities) CheckAttachments(atts []Attachment) error {
	if c.MaxAttachment <= 0 {
		return nil
	}
	return ACPCheckAttachments(atts, c.MaxAttachment)
}

// Close ends b's process or connection when b declares one
// (Capabilities.Process); any other backend is left alone.
func Close(b Backend) error {
	if !b.Capabilities().Process {
		return nil
	}
	if c, ok := b.(io.Closer); ok {
		return c.Close()
	}
	return nil
}
