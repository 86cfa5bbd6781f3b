package chips

import (
	"encoding/json"

	"github.com/chipchat/chipchat/contextref"
)

func ptr[T any](v T) *T { return &v }

// sampleRecords returns one full record of each known kind, with
// every text field set to text (labels to label).
func sampleRecords(label, text string) []contextref.Record {
	el := contextref.ElementDetails{
		PageURL:       "http://localhost:3000/" + text,
		PageTitle:     ptr("Checkout " + text),
		TagName:       "button" + text,
		Selector:      ptr("#pay " + text),
		HTMLPreview:   "<button>\n\tPay " + text + "\n</button>",
		ComponentName: ptr("PayButton" + text),
		Source: &contextref.ElementSource{
			FunctionName: ptr("Pay" + text), FileName: ptr("src/Pay.tsx" + text),
			LineNumber: ptr(int64(3)), ColumnNumber: ptr(int64(7)),
		},
		Styles: "color: red;\n" + text,
	}
	return []contextref.Record{
		&contextref.ImageRecord{AttachmentRecord: contextref.AttachmentRecord{
			Base: contextref.NewBase(contextref.KindImage, "ctx_i", label), AttachmentID: "att_1" + text,
			Name: "shot" + text + ".png", MimeType: "image/png" + text, SizeBytes: 12345}},
		&contextref.FileRecord{AttachmentRecord: contextref.AttachmentRecord{
			Base: contextref.NewBase(contextref.KindFile, "ctx_f", label), AttachmentID: "att_2",
			Name: "notes" + text + ".txt", MimeType: "text/plain", SizeBytes: 3 << 20}},
		&contextref.TerminalRecord{Base: contextref.NewBase(contextref.KindTerminal, "ctx_t", label),
			TerminalID: "term-1", TerminalLabel: "Terminal 1" + text, LineStart: 98, LineEnd: 103,
			Text: "$ go test ./...\n" + text + "\n--- FAIL: TestX\n\tx_test.go:12: boom " + text + "\nFAIL\nexit status 1\nextra line"},
		&contextref.ElementRecord{Base: contextref.NewBase(contextref.KindElement, "ctx_e", label), ElementDetails: el},
		&contextref.PreviewAnnotationRecord{Base: contextref.NewBase(contextref.KindPreviewAnnotation, "ctx_p", label),
			AnnotationID: "ann_1", PageURL: "http://localhost:3000/", PageTitle: ptr("Checkout" + text),
			Comment: "Make the button bigger " + text + "\nand bolder", TargetSummary: "button" + text,
			StyleChanges:        []string{"font-size: 12px → 20px" + text, "font-weight: 400 → 700"},
			Elements:            &[]contextref.ElementDetails{el, el},
			ElementIDs:          &[]string{"el1", "el2" + text},
			RegionCount:         ptr(int64(1)),
			StrokeCount:         ptr(int64(2)),
			StyleChangeDetails:  &[]contextref.StyleChangeDetail{{TargetID: "el1", Selector: ptr("#pay"), Property: "font-size" + text, PreviousValue: "12px", Value: "20px" + text}},
			ScreenshotContextID: ptr("ann_1"),
		},
		&contextref.ReviewCommentRecord{Base: contextref.NewBase(contextref.KindReviewComment, "ctx_r", label),
			SectionID: "s1", SectionTitle: "Diff " + text, FilePath: "src/checkout/a" + text + ".ts",
			StartIndex: 4, EndIndex: 9, RangeLabel: "L4-L9", Text: "Rename this " + text + "\nplease",
			Diff: "@@ -1,2 +1,2 @@\n-old " + text + "\n+new " + text + "\n context\n",
			PullRequest: &contextref.PullRequest{Number: 42, Title: "Add checkout " + text, URL: "https://example.com/pr/42",
				HeadBranch: "feat/x" + text, BaseBranch: "main", State: "open"}},
		&contextref.MentionRecord{Base: contextref.NewBase(contextref.KindMention, "ctx_m", label), Path: "src/deep/dir/" + text + "file.go"},
		&contextref.SkillRecord{Base: contextref.NewBase(contextref.KindSkill, "ctx_s", label), Name: "pinchtab" + text},
		&contextref.ThreadRecord{Base: contextref.NewBase(contextref.KindThread, "ctx_th", label),
			EnvironmentID: "env_a" + text, ThreadID: "thread_42" + text, Title: "Fix login bug " + text},
	}
}

func chipOf(r contextref.Record) Chip {
	b := r.RecordBase()
	return Chip{Kind: b.Kind, ContextID: b.ContextID, Label: b.Label, Record: r}
}

func sampleChips() []Chip {
	var out []Chip
	for _, r := range sampleRecords("label", "") {
		out = append(out, chipOf(r))
	}
	out = append(out,
		Chip{Kind: "file", ContextID: "ctx_missing", Label: "gone.txt"},
		Chip{Kind: "future", ContextID: "ctx_u", Label: "Future",
			Record: &contextref.UnknownRecord{Base: contextref.NewBase("future", "ctx_u", "Future"),
				Payload: json.RawMessage(`{"b":1.50,"1":[true,null],"a":"<b>"}`)}},
		Chip{Kind: "image", ContextID: "ctx_f", Label: "mismatch", Record: sampleRecords("x", "")[1]},
		Chip{Kind: "review-comment", ContextID: "ctx_rs", Label: "a.ts L1",
			Record: &contextref.ReviewCommentRecord{Base: contextref.NewBase(contextref.KindReviewComment, "ctx_rs", "a.ts L1"),
				SectionID: "s", FilePath: "a.ts", RangeLabel: "L1", SourceRevision: ptr("deadbeef"), SourceStale: ptr(true)}},
	)
	return out
}
