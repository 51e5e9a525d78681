package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mneme-ai/mneme/internal/secret"
)

func main() {
	counts := map[string]int{}
	filepath.WalkDir(os.Args[1], func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() { return nil }
		if !strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, ".md") && !strings.HasSuffix(p, ".txt") && !strings.HasSuffix(p, ".html") && !strings.HasSuffix(p, ".yaml") && !strings.HasSuffix(p, ".json") && !strings.HasSuffix(p, ".py") && !strings.HasSuffix(p, ".rst") && !strings.HasSuffix(p, ".conf") && !strings.HasSuffix(p, ".sh") && !strings.HasSuffix(p, ".js") && !strings.HasSuffix(p, ".ts") && !strings.HasSuffix(p, ".yml") && !strings.HasSuffix(p, ".toml") && !strings.HasSuffix(p, ".ini") && !strings.HasSuffix(p, ".env") { return nil }
		b, _ := os.ReadFile(p)
		t := string(b)
		for _, f := range secret.Scan(t) {
			counts[f.Kind]++
			if f.Kind == os.Args[2] || os.Args[2] == "all" {
				ls := strings.LastIndexByte(t[:f.Start], '\n') + 1
				le := strings.IndexByte(t[f.End:], '\n')
				if le < 0 { le = len(t) } else { le += f.End }
				line := t[ls:le]
				if len(line) > 160 { line = line[:160] }
				fmt.Printf("%s:%d [%s] %q\n", p, f.Line, f.Kind, line)
			}
		}
		return nil
	})
	fmt.Println(counts)
}
