package httpapi

import (
	_ "embed"
	"net/http"
)

// openAPIDoc describes every route; openapi_test.go keeps it true.
//
//go:embed openapi.json
var openAPIDoc []byte

func (s *server) openAPI(w http.ResponseWriter, r *http.Request) error {
	w.Header().Set("Content-Type", "application/json")
	_, err := w.Write(openAPIDoc)
	return err
}

// OpenAPI is the API's OpenAPI document (served at /v1/openapi.json).
func OpenAPI() []byte { return openAPIDoc }
