package sessionlog_test

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/agentnorm/agentnorm/sessionlog"
	"github.com/agentnorm/agentnorm/universal"
)

// Keep a session's events in a log and serve the patch since a version.
func Example() {
	store := sessionlog.NewStore()
	l := store.Open("sess_42")

	// Ingest: whatever produces the session's events appends them.
	w := universal.NewStream("demo", universal.Options{SessionID: "sess_42"})
	evs := w.Begin(nil, nil, universal.SourceAgent, nil)
	evs = w.Complete(evs, universal.Item{ItemID: w.NewItemID(), Kind: universal.KindMessage, Role: universal.RoleAssistant,
		Content: []universal.Part{universal.Text("Hello.")}}, universal.SourceAgent, nil)
	evs = w.End(evs, universal.SessionEnded{Reason: universal.EndCompleted, TerminatedBy: universal.ByAgent}, universal.SourceAgent, nil)
	if err := l.Append(evs...); err != nil {
		log.Fatal(err)
	}

	// Serve: a client at version 2 fetches the rest.
	mux := http.NewServeMux()
	mux.Handle("/sessions/", &sessionlog.Handler{Store: store})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/sessions/sess_42/log?since=2")
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println("version:", resp.Header.Get("X-Session-Version"))
	fmt.Print(string(body))
	// Output:
	// version: 5
	// {"event_id":"evt_sess_42_3","sequence":3,"time":"2026-01-01T00:00:00.002Z","session_id":"sess_42","native_session_id":null,"synthetic":true,"source":"daemon","type":"item.delta","data":{"item_id":"itm_1","native_item_id":null,"delta":"Hello.","part_index":0,"part_type":"text"},"raw":null}
	// {"event_id":"evt_sess_42_4","sequence":4,"time":"2026-01-01T00:00:00.003Z","session_id":"sess_42","native_session_id":null,"synthetic":false,"source":"agent","type":"item.completed","data":{"item":{"item_id":"itm_1","native_item_id":null,"parent_id":null,"kind":"message","role":"assistant","content":[{"type":"text","text":"Hello."}],"status":"completed"}},"raw":null}
	// {"event_id":"evt_sess_42_5","sequence":5,"time":"2026-01-01T00:00:00.004Z","session_id":"sess_42","native_session_id":null,"synthetic":false,"source":"agent","type":"session.ended","data":{"reason":"completed","terminated_by":"agent","message":null,"exit_code":null,"stderr":null},"raw":null}
}
