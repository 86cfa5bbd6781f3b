package agent

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"sort"
)

// execHostScript runs an exec: command on a Host: $1 the command, $2 the
// staged history, then pairs of a place under the attachments directory
// (folder/name) and the staged file to copy there. The turn's directory is
// removed when the command ends, as locally.
const execHostScript = `set -e
d=$(mktemp -d "${TMPDIR:-/tmp}/chipchat-turn-XXXXXX")
trap 'rm -rf "$d"' EXIT
cmd=$1
cp "$2" "$d/history.json"
shift 2
mkdir "$d/attachments"
while [ $# -ge 2 ]; do
	mkdir -p "$d/attachments/${1%/*}"
	cp "$2" "$d/attachments/$1"
	shift 2
done
export ` + AttachmentsEnv + `="$d/attachments" ` + HistoryEnv + `="$d/history.json"
set +e
sh -c "$cmd"
`

// hostCommand stages the turn's files (the local attachments directory
// dir, laid out as places says, and the history file) on e.Host and
// returns the command that runs e.Command there in turnDir.
func (e Exec) hostCommand(ctx context.Context, turnDir, dir, historyPath string, places map[string]string) (*exec.Cmd, error) {
	hist, err := e.Host.Stage(ctx, "history.json", historyPath)
	if err != nil {
		return nil, fmt.Errorf("staging the history on %s: %w", e.Host.Label(), err)
	}
	argv := []string{"sh", "-c", execHostScript, "chipchat-exec", e.Command, hist}
	rels := make([]string, 0, len(places))
	for _, rel := range places {
		rels = append(rels, rel)
	}
	sort.Strings(rels)
	for _, rel := range rels {
		local := filepath.Join(dir, filepath.FromSlash(rel))
		staged, err := e.Host.Stage(ctx, filepath.Base(local), local)
		if err != nil {
			return nil, fmt.Errorf("staging %s on %s: %w", filepath.Base(local), e.Host.Label(), err)
		}
		argv = append(argv, rel, staged)
	}
	return e.Host.Command(ctx, turnDir, argv, nil)
}
