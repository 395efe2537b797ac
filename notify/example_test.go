package notify_test

import (
	"fmt"
	"log"
	"os"

	"github.com/agentnorm/agentnorm"
	"github.com/agentnorm/agentnorm/notify"
)

// Notifications of a recorded Claude Code session: pushed as they are made,
// and polled afterwards since an index.
func Example() {
	f, err := os.Open("../testdata/claude/2.1.330/s02-tool.jsonl")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	s, err := agentnorm.Open(f, "claude", agentnorm.Options{Prompts: []string{"Run echo hello-from-tool"}})
	if err != nil {
		log.Fatal(err)
	}
	feed := notify.NewFeed(notify.Options{Push: func(e notify.Event) error {
		fmt.Printf("%d %s %q", e.Index, e.Type, e.Text)
		if e.ToolName != "" {
			fmt.Print(" ", e.ToolName)
		}
		fmt.Println()
		return nil
	}})
	for ev, err := range s.Events() {
		if err != nil {
			log.Fatal(err)
		}
		if err := feed.Apply(&ev); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println("since 4:", len(feed.Since(4)), "notifications")
	// Output:
	// 0 status "running"
	// 1 message "I'll run the command for you."
	// 2 tool_call "echo hello-from-tool" Bash
	// 3 tool_result "hello-from-tool" Bash
	// 4 message "The command printed hello-from-tool. Done."
	// 5 completion "The command printed hello-from-tool. Done."
	// 6 status "idle"
	// 7 status "completed"
	// since 4: 3 notifications
}
