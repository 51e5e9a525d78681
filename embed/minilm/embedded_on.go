//go:build embedmodel

package minilm

import _ "embed"

// embeddedBlob is embedded/model.bin, made by `go generate ./embed/minilm`.
//
//go:embed embedded/model.bin
var embeddedBlob string
