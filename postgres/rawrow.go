package postgres

import (
	"encoding/binary"
	"math"

	"github.com/jackc/pgx/v5"
)

// The lexical lane reads tens of thousands of postings a search: decoding
// their fixed-size binary values directly costs a fraction of Scan.

var be = binary.BigEndian

// binaryRow reports whether rows come in the binary format with columns
// of the given sizes (int4 and float4: 4, int8: 8).
func binaryRow(rows pgx.Rows, sizes ...int16) bool {
	fds := rows.FieldDescriptions()
	if len(fds) != len(sizes) {
		return false
	}
	for i, fd := range fds {
		if fd.Format != pgx.BinaryFormatCode || fd.DataTypeSize != sizes[i] {
			return false
		}
	}
	return true
}

// sized reports whether each value has its size (none is NULL).
func sized(v [][]byte, sizes ...int) bool {
	if len(v) != len(sizes) {
		return false
	}
	for i, b := range v {
		if len(b) != sizes[i] {
			return false
		}
	}
	return true
}

// f32 decodes a binary float4.
func f32(b []byte) float32 { return math.Float32frombits(be.Uint32(b)) }
