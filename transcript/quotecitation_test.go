package transcript

import "testing"

func TestQuoteMsgCitationIsCheckedAndPlaced(t *testing.T) {
	q := QuoteMsg{MessageID: "msg_1", Text: "the quoted words", Start: 4, End: 20, Prefix: "and ", Suffix: "."}
	cit, err := q.Citation("env_1", "thr_1")
	if err != nil {
		t.Fatal(err)
	}
	if cit.EnvironmentID != "env_1" || cit.ThreadID != "thr_1" || cit.MessageID != "msg_1" || cit.Text != q.Text || cit.Start != 4 || cit.End != 20 || cit.Prefix != "and " || cit.Suffix != "." {
		t.Fatalf("citation %+v", cit)
	}
	if _, err := (QuoteMsg{MessageID: "msg_1"}).Citation("env_1", "thr_1"); err == nil {
		t.Fatal("an empty quote makes a citation")
	}
}
