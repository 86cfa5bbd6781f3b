package main

import (
	"context"
	"strconv"
	"strings"

	"github.com/chipchat/chipchat/composer"
)

// skillsScript prints, for each skills folder given (composer.SkillDirs'
// order; "~/" is the remote HOME), each skill folder's SKILL.md (a
// regular file, a symlinked folder followed) as NUL, the folder, NUL, the
// skill's folder name, NUL, the file's path, NUL, then its first $1 bytes
// with any NUL dropped. What a login shell prints comes first, before the
// first NUL.
const skillsScript = `max=$1; shift
for d do
	case "$d" in "~/"*) d="$HOME/${d#"~/"}";; esac
	[ -d "$d" ] || continue
	for f in "$d"/*/SKILL.md; do
		[ -f "$f" ] || continue
		s=${f%/SKILL.md}
		printf '\000%s\000%s\000%s\000' "$d" "${s##*/}" "$f"
		head -c "$max" -- "$f" | tr -d '\000'
	done
done`

// skillHeadBytes is how much of a SKILL.md is read (its front matter).
const skillHeadBytes = 64 << 10

// skills lists the remote project's skills for the $ picker: its own and
// the remote home's skill folders, read there in one command.
func (p *remoteProject) skills() ([]composer.Skill, error) {
	argv := append([]string{"sh", "-c", skillsScript, "sh", strconv.Itoa(skillHeadBytes)}, composer.SkillDirs(p.Dir(), "~")...)
	out, err := p.conn.Run(context.Background(), argv, nil)
	if err != nil {
		return nil, err
	}
	return composer.SkillsFrom(parseSkillFiles(out)), nil
}

// parseSkillFiles reads skillsScript's output.
func parseSkillFiles(out []byte) []composer.SkillFile {
	parts := strings.Split(string(out), "\x00")
	var files []composer.SkillFile
	for i := 1; i+3 < len(parts); i += 4 {
		files = append(files, composer.SkillFile{Dir: parts[i], Folder: parts[i+1], Path: parts[i+2], Head: []byte(parts[i+3])})
	}
	return files
}
