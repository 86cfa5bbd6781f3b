package clipboard

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/chipchat/chipchat/assets"
	"github.com/chipchat/chipchat/contextref"
)

// LocalAssets is what Import needs of the environment being pasted into
// (the ui implements it over its asset store and store.BindAttachment).
type LocalAssets interface {
	// Rebind binds a fresh local id to bytes this environment already
	// holds: attachmentID is an asset id or a local id bound to one.
	Rebind(attachmentID string) (localID string, err error)
	// Adopt copies the file at path into this environment's asset store and
	// binds a fresh local id to it.
	Adopt(path string) (localID string, err error)
}

// ImportRule is how Import treats the records of one kind.
type ImportRule int

const (
	// ImportAsIs imports the record as it is (terminal excerpts, review
	// comments, mentions, skills, elements, threads, unknown kinds).
	ImportAsIs ImportRule = iota + 1
	// ImportBytes re-attaches the record's bytes under a fresh local id and
	// rewrites the pasted links to it (images and files).
	ImportBytes
	// ImportRebuild rebuilds the record so that its screenshot link follows
	// a re-attached image (preview annotations).
	ImportRebuild
)

// importRules is the importer's entry of the kind table: one rule per known
// kind (TestImportRulesCoverEveryKind fails when a kind has none). A kind
// outside the table is imported as it is.
var importRules = map[string]ImportRule{
	contextref.KindImage:             ImportBytes,
	contextref.KindFile:              ImportBytes,
	contextref.KindTerminal:          ImportAsIs,
	contextref.KindElement:           ImportAsIs,
	contextref.KindPreviewAnnotation: ImportRebuild,
	contextref.KindReviewComment:     ImportAsIs,
	contextref.KindMention:           ImportAsIs,
	contextref.KindSkill:             ImportAsIs,
	contextref.KindThread:            ImportAsIs,
}

// RuleFor returns the import rule of a kind and whether the kind has an
// entry of its own.
func RuleFor(kind string) (ImportRule, bool) {
	r, ok := importRules[kind]
	if !ok {
		return ImportAsIs, false
	}
	return r, true
}

// ImportResult is a fragment made ready for Draft.InsertMarkdown.
type ImportResult struct {
	Text    string              // the pasted text, links to re-attached binaries rewritten
	Records []contextref.Record // the records to insert with it
	Notes   []string            // why some chips stay unresolved (for a toast)
}

// Summary is the toast after an import: what came in, with how many chip
// records, then the notes; it is an error's when there are notes.
func (r ImportResult) Summary(what string) (note string, isErr bool) {
	note = fmt.Sprintf("%s with %d chip record(s)", what, len(r.Records))
	if len(r.Notes) > 0 {
		note += " · " + strings.Join(r.Notes, "; ")
	}
	return note, len(r.Notes) > 0
}

// Import applies DESIGN.md section 6 to a pasted text and its fragment:
// records the draft holds keep their chips (they are not imported again);
// each kind follows its rule in the importer's kind table (RuleFor):
// terminal excerpts, review comments, mentions, skills, elements, threads
// and unknown kinds are imported as they are; preview annotations are rebuilt
// (their screenshot link follows a re-attached image); images and files
// get their bytes — from this environment when the fragment came from it,
// else from the source environment's asset store found through
// resolveEnv — and are attached under a fresh local id, with the pasted
// links rewritten to it. A binary that cannot be had (unknown or
// unreachable environment, bytes gone) stays an unresolved chip: its link
// keeps pointing at an id with no record, and a note says why.
//
// It reads and copies files: call it from a tea.Cmd.
func Import(text string, f *contextref.Fragment, draft []contextref.Record, localEnvID string,
	resolveEnv func(envID string) (dataDir string, ok bool), local LocalAssets) ImportResult {
	res := ImportResult{Text: text}
	if f == nil {
		return res
	}
	held := map[string]bool{}
	for _, r := range draft {
		held[r.RecordBase().ContextID] = true
	}
	src := f.Source.EnvironmentID
	sameEnv := src == localEnvID
	dataDir, known := "", sameEnv
	if !sameEnv && resolveEnv != nil {
		dataDir, known = resolveEnv(src)
	}
	remap := map[string]string{}
	var rest []contextref.Record
	for _, r := range f.Records {
		b := r.RecordBase()
		if held[b.ContextID] {
			continue
		}
		rule, _ := RuleFor(b.Kind)
		att := contextref.AttachmentOf(r)
		if rule != ImportBytes || att == nil {
			rest = append(rest, r)
			continue
		}
		localID, err := fetch(att.AttachmentID, sameEnv, known, dataDir, src, local)
		if err != nil {
			res.Notes = append(res.Notes, fmt.Sprintf("%s stays unresolved: %v", att.Name, err))
			continue
		}
		c := contextref.CloneRecord(r)
		ca := contextref.AttachmentOf(c)
		ca.ContextID, ca.AttachmentID = localID, localID
		remap[b.ContextID] = localID
		res.Records = append(res.Records, c)
	}
	for _, r := range rest {
		if rule, _ := RuleFor(r.RecordBase().Kind); rule != ImportRebuild {
			res.Records = append(res.Records, r)
			continue
		}
		if pa, ok := r.(*contextref.PreviewAnnotationRecord); ok && pa.ScreenshotContextID != nil {
			if to, ok := remap[*pa.ScreenshotContextID]; ok {
				c := contextref.CloneRecord(pa).(*contextref.PreviewAnnotationRecord)
				c.ScreenshotContextID = &to
				r = c
			}
		}
		res.Records = append(res.Records, r)
	}
	if len(remap) > 0 {
		res.Text = contextref.Replace(text, func(o contextref.Occurrence) string {
			if to, ok := remap[o.ContextID]; ok {
				return contextref.FormatLink(o.Kind, to, o.Label)
			}
			return text[o.Start:o.End]
		})
	}
	return res
}

func fetch(id string, sameEnv, known bool, dataDir, src string, local LocalAssets) (string, error) {
	if local == nil {
		return "", errors.New("no asset store here")
	}
	if sameEnv {
		return local.Rebind(id)
	}
	if !known {
		return "", fmt.Errorf("environment %s is unknown here", src)
	}
	p, err := SourceAssetPath(dataDir, id)
	if err != nil {
		return "", err
	}
	return local.Adopt(p)
}

// SourceAssetPath is where the environment in dataDir keeps an asset's
// bytes (its assets/ store). It never creates anything there.
func SourceAssetPath(dataDir, assetID string) (string, error) {
	dir := filepath.Join(dataDir, "assets")
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		if errors.Is(err, fs.ErrNotExist) || err == nil {
			return "", fmt.Errorf("its environment's data (%s) cannot be reached", dataDir)
		}
		return "", err
	}
	st, err := assets.Open(dir, 0)
	if err != nil {
		return "", err
	}
	p, err := st.Path(assetID)
	if err != nil {
		return "", fmt.Errorf("its bytes are gone from %s", dataDir)
	}
	return p, nil
}
