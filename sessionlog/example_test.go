package sessionlog_test

import (
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/agentnorm/agentnorm"
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

// Keep the events of an agent's output in a log as they are translated,
// and follow the session's live stream: a client whose connection dropped
// after the event with sequence 14 reconnects with Last-Event-ID: 14 (a
// browser's EventSource sends it by itself) and gets the events after it;
// once it holds session.ended, a reconnection gets 204 No Content.
func Example_stream() {
	store := sessionlog.NewStore()
	// The translator stamps the log's session id on its events: Append
	// refuses an event of another session (ErrOtherSession).
	l := store.Open("sess_42")
	f, err := os.Open("../testdata/claude/2.1.330/s01-text.jsonl") // or a live agent's stdout
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	s, err := agentnorm.Open(f, "claude", agentnorm.Options{
		Options: universal.Options{SessionID: "sess_42"},
		Prompts: []string{"Say hello"},
	})
	if err != nil {
		log.Fatal(err)
	}
	for ev, err := range s.Events() { // in a server, this loop runs while clients read
		if err != nil {
			log.Fatal(err)
		}
		if err := l.Append(ev); err != nil {
			log.Fatal(err)
		}
	}

	h := &sessionlog.Handler{Store: store}
	mux := http.NewServeMux()
	mux.Handle("/sessions/", h)
	srv := httptest.NewUnstartedServer(mux)
	srv.Config.RegisterOnShutdown(h.Close) // Shutdown ends the open streams
	srv.Start()
	defer srv.Close()

	follow := func(lastEventID string) {
		req, err := http.NewRequest("GET", srv.URL+"/sessions/sess_42/stream", nil)
		if err != nil {
			log.Fatal(err)
		}
		req.Header.Set("Last-Event-ID", lastEventID)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			log.Fatal(err)
		}
		defer resp.Body.Close()
		fmt.Println(resp.Status)
		r := universal.NewSSEReader(resp.Body, 0)
		for {
			m, err := r.Next()
			if err == io.EOF {
				return // the stream ends after session.ended
			} else if err != nil {
				log.Fatal(err)
			}
			var ev universal.Event
			if err := ev.UnmarshalJSON(m.Data); errors.Is(err, universal.ErrHeartbeat) {
				continue // sent while nothing happens
			} else if err != nil {
				log.Fatal(err)
			}
			fmt.Println("id:", m.ID, ev.Type)
		}
	}
	follow("14")
	follow("19")
	// Output:
	// 200 OK
	// id: 15 item.completed
	// id: 16 usage.updated
	// id: 17 usage.updated
	// id: 18 turn.ended
	// id: 19 session.ended
	// 204 No Content
}
