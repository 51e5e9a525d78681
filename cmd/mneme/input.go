package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/httpapi"
)

// maxInputBytes bounds one input: a request file, one line of a JSON
// Lines file, text on standard input. It is what the HTTP API takes in one
// request body.
const maxInputBytes = httpapi.DefaultMaxBody

// inputName names path in messages: "-" is standard input.
func inputName(path string) string {
	if path == "-" {
		return "standard input"
	}
	return path
}

// readInput reads all of path ("-": standard input), at most
// maxInputBytes of it.
func (a *app) readInput(path string) ([]byte, error) {
	in := a.input(path)
	defer in.Close()
	data, err := io.ReadAll(io.LimitReader(in, maxInputBytes+1))
	switch {
	case err != nil:
		return nil, err
	case len(data) > maxInputBytes:
		return nil, mneme.Invalid("%s is larger than %s, the most mneme reads as one input", inputName(path), mneme.FormatSize(maxInputBytes))
	}
	return data, nil
}

// readLines reads all of path ("-": standard input), a file of lines: any
// number of them, each at most maxInputBytes long.
func (a *app) readLines(path string) ([]byte, error) {
	in := a.input(path)
	defer in.Close()
	br := bufio.NewReaderSize(in, 64<<10)
	var data []byte
	for line, start := 1, 0; ; {
		frag, err := br.ReadSlice('\n')
		data = append(data, frag...)
		n := len(data) - start
		if err == nil {
			n-- // the newline
		}
		if n > maxInputBytes {
			return nil, mneme.Invalid("%s: line %d is longer than %s, the most mneme reads as one line", inputName(path), line, mneme.FormatSize(maxInputBytes))
		}
		switch {
		case err == nil:
			line, start = line+1, len(data)
		case errors.Is(err, io.EOF):
			return data, nil
		case !errors.Is(err, bufio.ErrBufferFull):
			return nil, err
		}
	}
}

// input opens path ("-": standard input) and reads it in the background,
// so a read that waits (a pipe, a FIFO, a terminal) still ends at the
// first signal: Read then says the command was interrupted.
func (a *app) input(path string) *inputReader {
	in := &inputReader{ctx: a.ctx, name: inputName(path), chunks: make(chan chunk), stop: make(chan struct{})}
	go in.pump(path, a.stdin)
	return in
}

// inputReader reads what its pump sends.
type inputReader struct {
	ctx    context.Context
	name   string
	chunks chan chunk
	stop   chan struct{}
	rest   []byte // of the last chunk, not read yet
	err    error  // the error that ended the input
}

type chunk struct {
	b   []byte
	err error
}

// pump opens path (or takes stdin) and sends what it reads, until an
// error (io.EOF at the end) or Close.
func (in *inputReader) pump(path string, stdin io.Reader) {
	r := stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			in.send(chunk{err: err})
			return
		}
		defer f.Close()
		r = f
	}
	for {
		b := make([]byte, 64<<10)
		n, err := r.Read(b)
		if n > 0 && !in.send(chunk{b: b[:n]}) {
			return
		}
		if err != nil {
			in.send(chunk{err: err})
			return
		}
	}
}

func (in *inputReader) send(c chunk) bool {
	select {
	case in.chunks <- c:
		return true
	case <-in.stop:
		return false
	}
}

func (in *inputReader) Read(p []byte) (int, error) {
	for len(in.rest) == 0 {
		if in.err != nil {
			return 0, in.err
		}
		select {
		case c := <-in.chunks:
			in.rest, in.err = c.b, in.wrap(c.err)
		case <-in.ctx.Done():
			in.err = &mneme.Error{Code: mneme.EUNAVAILABLE, Err: context.Cause(in.ctx),
				Message: "interrupted while reading " + in.name + ": nothing was written"}
		}
	}
	n := copy(p, in.rest)
	in.rest = in.rest[n:]
	return n, nil
}

// wrap words a read error for the user (io.EOF stays io.EOF).
func (in *inputReader) wrap(err error) error {
	if err == nil || err == io.EOF {
		return err
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return mneme.Invalid("cannot read %s: %v", in.name, err)
}

// Close stops the pump (one blocked in a read ends with the process).
func (in *inputReader) Close() error {
	close(in.stop)
	return nil
}
