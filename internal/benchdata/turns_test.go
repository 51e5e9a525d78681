package benchdata

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestTurns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "locomo.json")
	data := `[{"conversation": {"speaker_a": "A", "session_2": [{"speaker": "Bo", "text": "third turn"}],
		"session_1_date_time": "x", "session_1": [{"speaker": "Al", "text": "one two"}, {"speaker": "Bo", "text": "three"}]}},
		{"conversation": {"session_1": [{"speaker": "Cy", "text": "last"}]}}]`
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	got := Turns(t, path, 6, 3)
	want := []string{
		"Al: one two", // turn 0 from its first word
		"Bo: three Bo:",
		"Bo: third turn",
		"Cy: last Al:", // wraps around to the first turn
		"one two Bo:",  // second pass: one word into turn 0
		"three Bo: third",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Turns = %q, want %q", got, want)
	}
}
