package chunk

import "strings"

type mdHead struct {
	level int
	title string
}

// markdown emits the blocks of a Markdown document: front matter, fenced
// code, ATX and one-line setext headings, lists and paragraphs. It is a line
// scanner, not a CommonMark parser: it only needs block boundaries.
func (d *doc) markdown(emit func(span)) {
	var stack []mdHead
	path := ""
	heading := func(a, b, level int, title string) {
		for len(stack) > 0 && stack[len(stack)-1].level >= level {
			stack = stack[:len(stack)-1]
		}
		stack = append(stack, mdHead{level, title})
		titles := make([]string, len(stack))
		for k, h := range stack {
			titles[k] = h.title
		}
		path = strings.Join(titles, " > ")
		s := d.block(a, b, byWord)
		s.head, s.boundary, s.path = true, true, path
		emit(s)
	}
	fence := func(a, b int) {
		s := d.block(a, b, byLine)
		s.path = path
		d.fences = append(d.fences, [2]int{s.start, s.end})
		emit(s)
	}

	n := len(d.lines)
	i := 0
	if strings.TrimRight(d.line(0), " \t") == "---" { // YAML front matter
		for j := 1; j < n; j++ {
			if l := strings.TrimRight(d.line(j), " \t"); l == "---" || l == "..." {
				fence(0, j)
				i = j + 1
				break
			}
		}
	}
	for i < n {
		l := d.line(i)
		if blank(l) {
			i++
			continue
		}
		if ch, k := fenceOpen(l); k > 0 {
			j := i + 1
			for j < n && !fenceClose(d.line(j), ch, k) {
				j++
			}
			fence(i, min(j, n-1)) // an unclosed fence runs to the end
			i = j + 1
			continue
		}
		if level, title, ok := atx(l); ok {
			heading(i, i, level, title)
			i++
			continue
		}
		item := listItem(l)
		if i+1 < n && !item && setext(d.line(i+1)) > 0 {
			heading(i, i+1, setext(d.line(i+1)), strings.TrimSpace(l))
			i += 2
			continue
		}
		j := i + 1
		for j < n {
			if !blank(d.line(j)) {
				if !mdText(d.line(j)) {
					break
				}
				j++
				continue
			}
			// A list goes on across blank lines while items or indented
			// continuations follow; a paragraph ends at the blank line.
			k := j + 1
			for k < n && blank(d.line(k)) {
				k++
			}
			if !item || k == n || !mdText(d.line(k)) || !listItem(d.line(k)) && indent(d.line(k)) < 2 {
				break
			}
			j = k + 1
		}
		lv := bySentence
		if item {
			lv = byLine
		}
		s := d.block(i, j-1, lv)
		s.path = path
		emit(s)
		i = j
	}
}

// mdText reports whether a non-blank line continues a paragraph or list
// rather than opening a fence or heading.
func mdText(l string) bool {
	if _, k := fenceOpen(l); k > 0 {
		return false
	}
	_, _, h := atx(l)
	return !h
}

func indent(l string) int {
	return len(l) - len(strings.TrimLeft(l, " "))
}

// marker returns the text after up to 3 spaces of indentation, or ok=false.
func marker(l string) (rest string, ok bool) {
	if n := indent(l); n <= 3 {
		return l[n:], true
	}
	return "", false
}

func atx(l string) (level int, title string, ok bool) {
	r, ok := marker(l)
	if !ok {
		return 0, "", false
	}
	level = len(r) - len(strings.TrimLeft(r, "#"))
	r = r[level:]
	if level == 0 || level > 6 || r != "" && r[0] != ' ' && r[0] != '\t' {
		return 0, "", false
	}
	title = strings.TrimSpace(r)
	// Drop a closing "###" sequence, but not the '#' of "C#".
	if t := strings.TrimRight(title, "#"); t != title && (t == "" || t[len(t)-1] == ' ' || t[len(t)-1] == '\t') {
		title = strings.TrimSpace(t)
	}
	return level, title, true
}

func fenceOpen(l string) (ch byte, n int) {
	r, ok := marker(l)
	if !ok || r == "" || r[0] != '`' && r[0] != '~' {
		return 0, 0
	}
	ch = r[0]
	n = len(r) - len(strings.TrimLeft(r, string(ch)))
	if n < 3 || ch == '`' && strings.IndexByte(r[n:], '`') >= 0 {
		return 0, 0
	}
	return ch, n
}

func fenceClose(l string, ch byte, n int) bool {
	r, ok := marker(l)
	if !ok {
		return false
	}
	rest := strings.TrimLeft(r, string(ch))
	return len(r)-len(rest) >= n && blank(rest)
}

func listItem(l string) bool {
	r, ok := marker(l)
	if !ok || r == "" {
		return false
	}
	switch {
	case r[0] == '-' || r[0] == '*' || r[0] == '+':
		r = r[1:]
	case r[0] >= '0' && r[0] <= '9':
		d := len(r) - len(strings.TrimLeft(r, "0123456789"))
		if d > 9 || d == len(r) || r[d] != '.' && r[d] != ')' {
			return false
		}
		r = r[d+1:]
	default:
		return false
	}
	return r == "" || r[0] == ' ' || r[0] == '\t'
}

// setext returns 1 or 2 if l underlines a setext heading, else 0.
func setext(l string) int {
	r, ok := marker(l)
	r = strings.TrimRight(r, " \t")
	if !ok || r == "" || strings.Trim(r, r[:1]) != "" {
		return 0
	}
	switch r[0] {
	case '=':
		return 1
	case '-':
		return 2
	}
	return 0
}
