//go:build !embedmodel

package minilm

// embeddedBlob is empty: build with -tags embedmodel to compile the model in.
var embeddedBlob string
