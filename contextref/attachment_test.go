package contextref

import (
	"reflect"
	"testing"
)

// AttachmentOf gives the image and file records' own attachment part and
// nothing for the other kinds; CopyAttachment gives a copy to change.
func TestAttachmentOf(t *testing.T) {
	for _, spec := range Specs() {
		r := spec.Sample()
		att := AttachmentOf(r)
		isAtt := spec.Kind == KindImage || spec.Kind == KindFile
		if (att != nil) != isAtt {
			t.Errorf("%s: attachment %v", spec.Kind, att)
		}
		c, catt := CopyAttachment(r)
		if !isAtt {
			if catt != nil || c != r {
				t.Errorf("%s: CopyAttachment gave %v %v", spec.Kind, c, catt)
			}
			continue
		}
		if !reflect.DeepEqual(c, r) || !RecordOfKind(c, spec.Kind) {
			t.Errorf("%s: the copy %+v differs from %+v", spec.Kind, c, r)
		}
		catt.AttachmentID = "changed"
		if att.AttachmentID == "changed" || AttachmentOf(c).AttachmentID != "changed" {
			t.Errorf("%s: the copy shares its attachment with the record", spec.Kind)
		}
		att.Name = "renamed"
		if AttachmentOf(r).Name != "renamed" {
			t.Errorf("%s: AttachmentOf is not the record's own", spec.Kind)
		}
	}
	if AttachmentOf(nil) != nil {
		t.Error("a nil record has an attachment")
	}
}
