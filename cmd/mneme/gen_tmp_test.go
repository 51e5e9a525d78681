package main_test

import (
	"os"
	"os/exec"
	"testing"
)

func TestGenCold(t *testing.T) {
	if os.Getenv("GEN_HOME") == "" {
		t.Skip()
	}
	b := &testing.B{}
	_ = b
	path := writeCorpusT(t, 100_000)
	if out, err := exec.Command(bin, "import", path, "--home", os.Getenv("GEN_HOME")).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
}
