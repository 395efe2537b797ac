package claude

import (
	"slices"
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
)

// A transcript records the CLI's queue of what waits for the model (a
// prompt typed while it works, a background task's notification) as
// queue-operation entries: enqueue (with the content), dequeue (the
// entry taken for the next turn, whose prompt then follows as a user
// entry), and remove. A remove either hands the entry to the running
// turn (a queued_command attachment follows; 2.1.332 writes reason
// absorbed_mid_turn, older versions no reason) or discards it: reason
// cleared_on_cancel (the user interrupted and the queue was cleared),
// dropped_by_hook (a hook refused it), rewound (a task's notification
// withdrawn by a rewind). A discarded entry, and one still queued when
// the record ends, never reached the model and shows nowhere else: each
// becomes a status item labelled "queue" (as Pi's queue updates are),
// detail "not delivered" with the reason, the content in metadata
// content. The CLI takes entries by priority and the records do not say
// which one a dequeue took: the oldest is taken, which is the order for
// entries of one priority.

// maxQueueSearch bounds the entries a remove compares its content with.
const maxQueueSearch = 64

// queueOperation reads a transcript's queue-operation entry.
func (t *Translator) queueOperation(dst events, r jsonscan.Value) events {
	switch r.Get("operation").Str {
	case "enqueue":
		t.s.Queued = append(t.s.Queued, t.w.Copy(r.Get("content").Str))
	case "dequeue":
		if len(t.s.Queued) > 0 {
			t.s.Queued = t.s.Queued[1:]
		}
	case "remove":
		content := r.Get("content").Str
		taken := ""
		if len(t.s.Queued) > 0 {
			i := 0
			// The entry of that content among the oldest few (a bound, so
			// that a long queue is not searched at every remove), else
			// the oldest.
			for j, q := range t.s.Queued[:min(len(t.s.Queued), maxQueueSearch)] {
				if content != "" && q == content {
					i = j
					break
				}
			}
			taken = t.s.Queued[i]
			t.s.Queued = append(t.s.Queued[:i:i], t.s.Queued[i+1:]...)
		}
		switch reason := r.Get("reason").Str; reason {
		case "cleared_on_cancel", "dropped_by_hook", "rewound":
			if content == "" {
				content = taken // dropped_by_hook writes none
			}
			return t.undelivered(dst, content, reason, r.Get("commandUuid").Str, universal.SourceAgent)
		}
	}
	return dst
}

// undelivered emits the status item of a queued entry that never
// reached the model.
func (t *Translator) undelivered(dst events, content, reason, uuid string, src universal.Source) events {
	var md jsonw.Object
	md.String("content", content)
	detail := "not delivered: the record ends"
	if reason != "" {
		md.String("reason", reason)
		detail = "not delivered: " + reason
	}
	return t.w.Complete(dst, universal.Item{
		ItemID: t.w.NewItemID(), NativeItemID: t.w.Copy(uuid), Kind: universal.KindStatus,
		Content: []universal.Part{{Type: universal.PartStatus, Label: "queue", Detail: detail, Metadata: md.Bytes()}},
	}, src, t.raw)
}

// queuedReports, when the input ends, takes the background sub-agents
// whose <task-notification> is still queued off the open turn's list of
// those still to report: the agent did report (it finished, or was
// stopped as the CLI exited: Claude Code 2.1.214 enqueues a notification
// "killed" after the turn's last response, and no dequeue follows), but
// the record ends before the CLI answered it. The turn ends then as its
// last response left it, not as cut off while waiting; the notification
// shows as not delivered (queuedAtEnd).
func (t *Translator) queuedReports() {
	tn := t.s.Turn
	if tn == nil || len(tn.Background) == 0 {
		return
	}
	for _, q := range t.s.Queued {
		if !strings.HasPrefix(q, "<task-notification>") {
			continue
		}
		call := tagText(q, "tool-use-id")
		tn.Background = slices.DeleteFunc(tn.Background, func(c string) bool { return c == call })
	}
}

// queuedAtEnd reports what is still queued when the input ends.
func (t *Translator) queuedAtEnd(dst events) events {
	for _, q := range t.s.Queued {
		dst = t.undelivered(dst, q, "", "", universal.SourceDaemon)
	}
	t.s.Queued = nil
	return dst
}
