// Skill discovery for the `$` skill picker.
//
// A skill is a folder holding a SKILL.md file. ListSkills scans, in this
// order (SkillDirs), <project>/.agents/skills, <home>/.agents/skills,
// <project>/.codex/skills, <project>/.claude/skills, <home>/.codex/skills
// and <home>/.claude/skills (where Codex and Claude Code users keep
// theirs), one level deep
// (<dir>/<folder>/SKILL.md; a symlinked folder is followed since skills are
// commonly linked in). The name comes from the YAML front matter's `name:`
// (the block between a leading `---` line and the next `---` or `...` line;
// plain, single- or double-quoted, or a block scalar), else the folder name;
// the description from `description:`. The first skill of a name wins, in
// the scan order above; the result is sorted by name. A file that cannot be
// read is skipped, never fatal. LoadSkills wraps ListSkills in a tea.Cmd.
//
// Only the two keys are read: this is not a YAML parser, and front matter it
// does not understand simply yields the folder name.
package composer

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
)

// Skill is one discovered skill. Path is the path of its SKILL.md.
type Skill struct {
	Name, Description, Path string
}

// SkillsLoadedMsg reports the result of LoadSkills.
type SkillsLoadedMsg struct {
	Skills []Skill
	Err    error
}

// LoadSkills returns a command that runs ListSkills off the UI goroutine and
// reports a SkillsLoadedMsg.
func LoadSkills(projectRoot, home string) tea.Cmd {
	return func() tea.Msg {
		skills, err := ListSkills(projectRoot, home)
		return SkillsLoadedMsg{Skills: skills, Err: err}
	}
}

// skillsMaxRead bounds how much of a SKILL.md is read: the front matter sits
// at the top.
const skillsMaxRead = 64 << 10

// skillsMaxName is the longest front-matter name kept (the skill record's
// name is at most 255 units); a longer one falls back to the folder name.
const skillsMaxName = 255

// SkillDirs are the folders ListSkills scans, in its order (an empty
// projectRoot or home skips its folders).
func SkillDirs(projectRoot, home string) []string {
	var dirs []string
	if projectRoot != "" {
		dirs = append(dirs, filepath.Join(projectRoot, ".agents", "skills"))
	}
	if home != "" {
		dirs = append(dirs, filepath.Join(home, ".agents", "skills"))
	}
	if projectRoot != "" {
		dirs = append(dirs,
			filepath.Join(projectRoot, ".codex", "skills"),
			filepath.Join(projectRoot, ".claude", "skills"))
	}
	if home != "" {
		dirs = append(dirs,
			filepath.Join(home, ".codex", "skills"),
			filepath.Join(home, ".claude", "skills"))
	}
	return dirs
}

// ListSkills lists the skills under the project root and the home directory
// (either may be empty to skip its folders). Missing folders and unreadable
// files are skipped; an error is returned only when nothing was found and a
// skills folder that exists could not be listed.
func ListSkills(projectRoot, home string) ([]Skill, error) {
	dirs := SkillDirs(projectRoot, home)
	seen := map[string]bool{}
	var skills []Skill
	var errs []error
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
				errs = append(errs, err)
			}
			continue
		}
		for _, e := range entries {
			folder := filepath.Join(dir, e.Name())
			if !e.IsDir() {
				// Follow a symlinked skill folder.
				if e.Type()&os.ModeSymlink == 0 {
					continue
				}
				if info, err := os.Stat(folder); err != nil || !info.IsDir() {
					continue
				}
			}
			file := filepath.Join(folder, "SKILL.md")
			data, err := skillsRead(file)
			if err != nil {
				continue
			}
			name, desc := skillsFrontMatter(data)
			if name == "" || len(name) > skillsMaxName {
				name = e.Name()
			}
			if seen[name] {
				continue
			}
			seen[name] = true
			skills = append(skills, Skill{Name: name, Description: desc, Path: file})
		}
	}
	slices.SortFunc(skills, func(a, b Skill) int { return strings.Compare(a.Name, b.Name) })
	if len(skills) == 0 && len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return skills, nil
}

// SkillFile is one SKILL.md read elsewhere (a remote project's): Dir is
// its skills folder (one of SkillDirs, whose order decides between two
// skills of a name), Folder the skill's folder name in it, Path the
// file's path there, Head its first bytes (the front matter).
type SkillFile struct {
	Dir, Folder, Path string
	Head              []byte
}

// SkillsFrom is ListSkills over files read elsewhere, given in SkillDirs'
// order: the names and descriptions from the front matter (else the
// folder name), the first of a name kept, sorted by name.
func SkillsFrom(files []SkillFile) []Skill {
	seen := map[string]bool{}
	var skills []Skill
	for _, f := range files {
		head := f.Head
		if len(head) > skillsMaxRead {
			head = head[:skillsMaxRead]
		}
		name, desc := skillsFrontMatter(head)
		if name == "" || len(name) > skillsMaxName {
			name = f.Folder
		}
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		skills = append(skills, Skill{Name: name, Description: desc, Path: f.Path})
	}
	slices.SortFunc(skills, func(a, b Skill) int { return strings.Compare(a.Name, b.Name) })
	return skills
}

// skillsRead reads the head of a regular file (never a pipe that would block).
func skillsRead(file string) ([]byte, error) {
	info, err := os.Stat(file)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, skillsMaxRead))
}

// skillsFrontMatter returns the trimmed `name` and `description` of the YAML
// front matter at the start of data, empty when absent.
func skillsFrontMatter(data []byte) (name, description string) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	lines := strings.Split(string(data), "\n")
	for i := range lines {
		lines[i] = strings.TrimSuffix(lines[i], "\r")
	}
	if len(lines) == 0 || strings.TrimRight(lines[0], " \t") != "---" {
		return "", ""
	}
	end := -1
	for i := 1; i < len(lines); i++ {
		if t := strings.TrimRight(lines[i], " \t"); t == "---" || t == "..." {
			end = i
			break
		}
	}
	if end < 0 {
		return "", ""
	}
	block := lines[1:end]
	var gotName, gotDesc bool
	for i := 0; i < len(block); i++ {
		line := block[i]
		if line == "" || line[0] == ' ' || line[0] == '\t' || line[0] == '#' {
			continue
		}
		key, rest, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key = strings.TrimSpace(key)
		if key != "name" && key != "description" {
			continue
		}
		// Continuation lines: indented or blank lines up to the next key.
		j := i + 1
		for j < len(block) && (strings.TrimSpace(block[j]) == "" || block[j][0] == ' ' || block[j][0] == '\t') {
			j++
		}
		value := skillsScalar(strings.TrimSpace(rest), block[i+1:j])
		i = j - 1
		switch {
		case key == "name" && !gotName:
			name, gotName = strings.TrimSpace(value), true
		case key == "description" && !gotDesc:
			description, gotDesc = strings.TrimSpace(value), true
		}
	}
	return name, description
}

// skillsScalar decodes a YAML scalar whose first line (after the colon) is
// head and whose continuation lines are more.
func skillsScalar(head string, more []string) string {
	switch {
	case head == "" && len(more) == 0:
		return ""
	case strings.HasPrefix(head, `"`):
		return skillsDoubleQuoted(skillsJoinFolded(head, more))
	case strings.HasPrefix(head, `'`):
		s := skillsJoinFolded(head, more)[1:]
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			if s[i] == '\'' {
				if i+1 < len(s) && s[i+1] == '\'' {
					b.WriteByte('\'')
					i++
					continue
				}
				break
			}
			b.WriteByte(s[i])
		}
		return b.String()
	case head != "" && (head[0] == '|' || head[0] == '>'):
		literal := head[0] == '|'
		var kept []string
		for _, l := range more {
			kept = append(kept, strings.TrimSpace(l))
		}
		for len(kept) > 0 && kept[len(kept)-1] == "" {
			kept = kept[:len(kept)-1]
		}
		if literal {
			return strings.Join(kept, "\n")
		}
		return skillsFold(kept)
	default:
		return skillsStripComment(skillsJoinFolded(head, more))
	}
}

// skillsJoinFolded joins a plain or quoted multi-line scalar: lines fold to
// single spaces, blank lines to newlines.
func skillsJoinFolded(head string, more []string) string {
	lines := append([]string{head}, more...)
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	for len(lines) > 1 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return skillsFold(lines)
}

// skillsFold folds lines the YAML way: single breaks become spaces, each
// blank line a newline.
func skillsFold(lines []string) string {
	var b strings.Builder
	for i, l := range lines {
		if l == "" {
			b.WriteByte('\n')
			continue
		}
		if i > 0 && lines[i-1] != "" {
			b.WriteByte(' ')
		}
		b.WriteString(l)
	}
	return b.String()
}

// skillsStripComment removes a trailing " # comment" from a plain scalar.
func skillsStripComment(s string) string {
	for i := 1; i < len(s); i++ {
		if s[i] == '#' && (s[i-1] == ' ' || s[i-1] == '\t') {
			return strings.TrimSpace(s[:i])
		}
	}
	return s
}

// skillsDoubleQuoted decodes a double-quoted YAML scalar starting at s[0]=='"'
// up to its closing quote (or the end when unterminated).
func skillsDoubleQuoted(s string) string {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		if c == '"' {
			break
		}
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't', '\t':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '0':
			b.WriteByte(0)
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case ' ':
			b.WriteByte(' ')
		case '_':
			b.WriteString("\u00a0")
		case 'N':
			b.WriteString("\u0085")
		case 'L':
			b.WriteString("\u2028")
		case 'P':
			b.WriteString("\u2029")
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if i+n < len(s) {
				if v, err := strconv.ParseUint(s[i+1:i+1+n], 16, 32); err == nil && utf8.ValidRune(rune(v)) {
					b.WriteRune(rune(v))
					i += n
					continue
				}
			}
			b.WriteByte('\\')
			b.WriteByte(e)
		default: // \" \\ \/ and anything unknown: the character itself
			b.WriteByte(e)
		}
	}
	return b.String()
}
