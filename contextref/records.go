package contextref

import (
	"encoding/json"
)

// The nine kinds this version knows. Any other kind name that matches
// ^[a-z][a-z0-9-]{0,39}$ decodes as an UnknownRecord.
const (
	KindImage             = "image"
	KindFile              = "file"
	KindTerminal          = "terminal"
	KindElement           = "element"
	KindPreviewAnnotation = "preview-annotation"
	KindReviewComment     = "review-comment"
	KindMention           = "mention"
	KindSkill             = "skill"
	KindThread            = "thread"
)

// KnownKinds lists the nine kinds in the contract's order. It is the order
// of the kind table (Specs); each has exactly one KindSpec.
var KnownKinds = []string{KindImage, KindFile, KindTerminal, KindElement, KindPreviewAnnotation, KindReviewComment, KindMention, KindSkill, KindThread}

// IsKnownKind reports whether kind is one of the nine kinds of version 1.
func IsKnownKind(kind string) bool {
	_, ok := specByKind[kind]
	return ok
}

// Base holds the fields every record has. Its JSON fields come first when a
// record is encoded: version, contextId, label, kind.
type Base struct {
	Version   int    `json:"version"`
	ContextID string `json:"contextId"`
	Label     string `json:"label"`
	Kind      string `json:"kind"`
}

// RecordBase gives access to the common fields; every record type embeds Base.
func (b *Base) RecordBase() *Base { return b }

// Record is the typed payload of one piece of context. The concrete types are
// *ImageRecord, *FileRecord, *TerminalRecord, *ElementRecord,
// *PreviewAnnotationRecord, *ReviewCommentRecord, *MentionRecord,
// *SkillRecord, *ThreadRecord and *UnknownRecord. A record never holds bytes.
type Record interface {
	RecordBase() *Base
}

// AttachmentRecord is the shape shared by image and file records: metadata
// of a stored attachment, bound by id.
type AttachmentRecord struct {
	Base
	AttachmentID string `json:"attachmentId"`
	Name         string `json:"name"`
	MimeType     string `json:"mimeType"`
	SizeBytes    int64  `json:"sizeBytes"`
}

// ImageRecord references an image attachment.
type ImageRecord struct{ AttachmentRecord }

// FileRecord references a file attachment.
type FileRecord struct{ AttachmentRecord }

// AttachmentOf is the attachment part of an image or file record — r's
// own, so a change through it changes r — and nil for a record of any
// other kind.
func AttachmentOf(r Record) *AttachmentRecord {
	_, a := attachment(r, false)
	return a
}

// CopyAttachment is a copy of an image or file record and the copy's
// attachment part, to change without changing r; a record of any other
// kind is r itself, with nil.
func CopyAttachment(r Record) (Record, *AttachmentRecord) { return attachment(r, true) }

// attachment is the one reading of the kinds that are attachments.
func attachment(r Record, copied bool) (Record, *AttachmentRecord) {
	switch x := r.(type) {
	case *ImageRecord:
		if copied {
			c := *x
			x = &c
		}
		return x, &x.AttachmentRecord
	case *FileRecord:
		if copied {
			c := *x
			x = &c
		}
		return x, &x.AttachmentRecord
	}
	return r, nil
}

// TerminalRecord is an excerpt of a terminal's output, with absolute line
// numbers in that terminal's history.
type TerminalRecord struct {
	Base
	TerminalID    string `json:"terminalId"`
	TerminalLabel string `json:"terminalLabel"`
	LineStart     int64  `json:"lineStart"`
	LineEnd       int64  `json:"lineEnd"`
	Text          string `json:"text"`
}

// ElementSource says where a picked element comes from in the source code.
type ElementSource struct {
	FunctionName *string `json:"functionName"`
	FileName     *string `json:"fileName"`
	LineNumber   *int64  `json:"lineNumber"`
	ColumnNumber *int64  `json:"columnNumber"`
}

// ElementDetails describes a picked page element; it is the body of an
// element record and of each element of a preview annotation.
type ElementDetails struct {
	PageURL       string         `json:"pageUrl"`
	PageTitle     *string        `json:"pageTitle"`
	TagName       string         `json:"tagName"`
	Selector      *string        `json:"selector"`
	HTMLPreview   string         `json:"htmlPreview"`
	ComponentName *string        `json:"componentName"`
	Source        *ElementSource `json:"source"`
	Styles        string         `json:"styles"`
}

// ElementRecord references an element picked on a page.
type ElementRecord struct {
	Base
	ElementDetails
}

// StyleChangeDetail is one requested style change of a preview annotation.
type StyleChangeDetail struct {
	TargetID      string  `json:"targetId"`
	Selector      *string `json:"selector"`
	Property      string  `json:"property"`
	PreviousValue string  `json:"previousValue"`
	Value         string  `json:"value"`
}

// PreviewAnnotationRecord is an annotation drawn on a page preview.
// Optional fields are nil when absent.
type PreviewAnnotationRecord struct {
	Base
	AnnotationID        string               `json:"annotationId"`
	PageURL             string               `json:"pageUrl"`
	PageTitle           *string              `json:"pageTitle"`
	Comment             string               `json:"comment"`
	TargetSummary       string               `json:"targetSummary"`
	StyleChanges        []string             `json:"styleChanges"`
	Elements            *[]ElementDetails    `json:"elements,omitempty"`
	ElementIDs          *[]string            `json:"elementIds,omitempty"`
	RegionCount         *int64               `json:"regionCount,omitempty"`
	StrokeCount         *int64               `json:"strokeCount,omitempty"`
	StyleChangeDetails  *[]StyleChangeDetail `json:"styleChangeDetails,omitempty"`
	ScreenshotContextID *string              `json:"screenshotContextId,omitempty"`
}

// MarshalJSON writes styleChanges as [] rather than null when it is empty.
func (r *PreviewAnnotationRecord) MarshalJSON() ([]byte, error) {
	type plain PreviewAnnotationRecord
	c := *r
	if c.StyleChanges == nil {
		c.StyleChanges = []string{}
	}
	return marshalNoEscape((*plain)(&c))
}

// PullRequest is the snapshot of the pull request a review comment belongs to.
type PullRequest struct {
	Number     int64  `json:"number"`
	Title      string `json:"title"`
	URL        string `json:"url"`
	HeadBranch string `json:"headBranch"`
	BaseBranch string `json:"baseBranch"`
	State      string `json:"state"`
	IsDraft    bool   `json:"isDraft"`
}

// ReviewCommentRecord is a comment on a range of a diff.
type ReviewCommentRecord struct {
	Base
	SectionID     string  `json:"sectionId"`
	SectionTitle  string  `json:"sectionTitle"`
	FilePath      string  `json:"filePath"`
	StartIndex    int64   `json:"startIndex"`
	EndIndex      int64   `json:"endIndex"`
	RangeLabel    string  `json:"rangeLabel"`
	Text          string  `json:"text"`
	Diff          string  `json:"diff"`
	FenceLanguage *string `json:"fenceLanguage,omitempty"`
	// SourceRevision is the revision the commented source was read at
	// (at most 64 units, kept as is, may be empty); nil when absent.
	SourceRevision *string `json:"sourceRevision,omitempty"`
	// SourceStale says the captured location may no longer match the file;
	// nil when absent.
	SourceStale *bool        `json:"sourceStale,omitempty"`
	PullRequest *PullRequest `json:"pullRequest,omitempty"`
}

// MentionRecord references a path in the project.
type MentionRecord struct {
	Base
	Path string `json:"path"`
}

// SkillRecord references a skill by name.
type SkillRecord struct {
	Base
	Name string `json:"name"`
}

// ThreadRecord references another thread on the same server. Only its
// identity travels; Title is a display snapshot (at most 200 units, kept
// as is, may be empty).
type ThreadRecord struct {
	Base
	EnvironmentID string `json:"environmentId"`
	ThreadID      string `json:"threadId"`
	Title         string `json:"title"`
}

// UnknownRecord is a record of a kind this version does not know. Its payload
// is kept as the JSON it came in and written back unchanged.
type UnknownRecord struct {
	Base
	Payload json.RawMessage `json:"payload"`
}

// MarshalJSON writes the payload compacted but otherwise as it came in.
func (r *UnknownRecord) MarshalJSON() ([]byte, error) {
	type plain UnknownRecord
	return marshalNoEscape((*plain)(r))
}

// NewBase makes the common fields of a version-1 record.
func NewBase(kind, contextID, label string) Base {
	return Base{Version: 1, ContextID: contextID, Label: label, Kind: kind}
}

// CloneRecord returns a deep copy of r, so an editor can hold it without
// sharing memory with the value it came from.
func CloneRecord(r Record) Record {
	raw, err := MarshalRecord(r)
	if err != nil {
		return r
	}
	c, err := DecodeRecord(raw)
	if err != nil {
		return r
	}
	return c
}
