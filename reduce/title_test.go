package reduce_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/universal"
)

// TestTitle: Session.Title is session.started's metadata title, then the
// detail of each completed status item labelled title under no other
// item; such a change sets SessionChanged, and a snapshot keeps it.
func TestTitle(t *testing.T) {
	title := func(id, parent, detail string, st universal.ItemStatus) universal.Item {
		return universal.Item{ItemID: id, ParentID: parent, Kind: universal.KindStatus, Status: st,
			Content: []universal.Part{{Type: universal.PartStatus, Label: "title", Detail: detail}}}
	}
	l := newLog().add(universal.TypeSessionStarted, &universal.SessionStarted{Metadata: json.RawMessage(`{"agent":"test","title":"Start"}`)})
	l.turn("t1").complete(title("i1", "", "Renamed", "")).
		complete(universal.Item{ItemID: "c1", Kind: universal.KindToolCall, Content: []universal.Part{{Type: universal.PartToolCall, Name: "task", CallID: "k"}}}).
		complete(title("i2", "c1", "A sub-agent's", "")).
		complete(title("i3", "", "Failed", universal.StatusFailed)).
		turnEnd("t1", universal.TurnCompleted)
	var s reduce.Session
	want := []string{"Start", "Renamed", "Renamed", "Renamed", "Renamed", "Renamed"}
	var titles []string
	for i := range l.evs {
		c, err := s.Apply(&l.evs[i])
		if err != nil {
			t.Fatal(err)
		}
		if l.evs[i].Type == universal.TypeItemCompleted {
			if changed := c.Has(reduce.SessionChanged); changed != (c.ItemID == "i1") {
				t.Errorf("%s: SessionChanged %v", c.ItemID, changed)
			}
		}
		if i > 0 {
			titles = append(titles, s.Title)
		}
	}
	if fmt.Sprint(titles) != fmt.Sprint(want) {
		t.Errorf("titles %q, want %q", titles, want)
	}
	b, err := json.Marshal(&s)
	if err != nil {
		t.Fatal(err)
	}
	var back reduce.Session
	if err := json.Unmarshal(b, &back); err != nil || back.Title != "Renamed" {
		t.Errorf("restored title %q (%v)", back.Title, err)
	}
}

// TestMetadataTitle: the title is the metadata's top-level "title" string,
// its key escaped or not, and nothing else that spells the word.
func TestMetadataTitle(t *testing.T) {
	for md, want := range map[string]string{
		`{"agent":"test","title":"Start"}`:              "Start",
		`{"\u0074itle":"Escaped key"}`:                  "Escaped key",
		`{"titl\u0065":"Escaped e"}`:                    "Escaped e",
		`{"agent":"test"}`:                              "",
		`{"prompt":"a title is the first line"}`:        "",
		`{"nested":{"title":"not the session's"}}`:      "",
		`{"title":42}`:                                  "",
		`{"text":"\u001b[1m","tools":[{"title":"no"}]}`: "",
	} {
		l := newLog().add(universal.TypeSessionStarted, &universal.SessionStarted{Metadata: json.RawMessage(md)})
		var s reduce.Session
		if _, err := s.Apply(&l.evs[0]); err != nil {
			t.Fatal(err)
		}
		if s.Title != want {
			t.Errorf("%s: title %q, want %q", md, s.Title, want)
		}
	}
}
