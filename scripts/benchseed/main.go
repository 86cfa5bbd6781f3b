// Command benchseed writes a thread of n messages (user prose, agent
// Markdown with lists and code) into a chipchat store, for
// scripts/bench-tui.sh; it prints the thread's id.
//
//	go run ./scripts/benchseed -data DIR -project DIR -n 10000
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
)

func main() {
	data := flag.String("data", "", "the store's directory (--data-dir)")
	project := flag.String("project", "", "the project directory")
	n := flag.Int("n", 10000, "messages")
	flag.Parse()
	if err := seed(*data, *project, *n); err != nil {
		fmt.Fprintln(os.Stderr, "benchseed:", err)
		os.Exit(1)
	}
}

func seed(data, project string, n int) error {
	st, err := store.Open(data)
	if err != nil {
		return err
	}
	defer st.Close()
	p, err := st.Project(store.ProjectKey(project))
	if err != nil {
		return err
	}
	th, err := st.CreateThread(p.ID)
	if err != nil {
		return err
	}
	for i := range n {
		m := store.Message{ThreadID: th.ID}
		if i%2 == 0 {
			m.Role = message.RoleUser
			m.Text = fmt.Sprintf("Message %d: could you look at pkg/mod%d/file%d.go where the handler fails, and compare it with the test output? Keep the change small and explain what you did.", i, i%17, i)
		} else {
			m.Role = message.RoleAssistant
			text := fmt.Sprintf("Reply %d. The handler returns early when the **context** is cancelled, so the test sees `nil`.\n\n"+
				"- check the error path\n- add a test for the timeout\n- keep the public API\n\n", i)
			if i%4 == 1 {
				text += "```go\nfunc handle(ctx context.Context) error {\n\tif err := ctx.Err(); err != nil {\n\t\treturn err\n\t}\n\treturn nil\n}\n```\n\nThat should fix it."
			} else {
				text += "```bash\ngo test ./... -run TestHandle -count=1\n```\n\nRun that and tell me what it prints."
			}
			m.Items = []message.Item{{Kind: message.ItemText, Text: text}}
		}
		if _, err := st.AddMessage(m); err != nil {
			return err
		}
	}
	fmt.Println(th.ID)
	return nil
}
