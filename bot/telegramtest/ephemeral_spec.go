package telegramtest

import (
	_ "embed"
	"encoding/json"
	"fmt"
)

// ephemeralJSON is what Bot API 10.2 and 10.3 added for ephemeral messages, in api.json's form,
// on top of the 10.1 copy: the methods the fake simulates, the parameter and fields they need.
// The rest of 10.2 and 10.3 is not in it (see testdata/README.md).
//
//go:embed testdata/ephemeral.json
var ephemeralJSON []byte

// addEphemeral merges testdata/ephemeral.json into the parsed spec: a new method or type is
// added whole, and the fields of one the spec has already replace its fields of the same name
// or follow them.
func addEphemeral(methods, types map[string]apiEntry, others *[]string, version *string) error {
	var patch struct {
		Version      string              `json:"version"`
		Methods      map[string]apiEntry `json:"methods"`
		Types        map[string]apiEntry `json:"types"`
		OtherMethods []string            `json:"other_methods"`
	}
	if err := json.Unmarshal(ephemeralJSON, &patch); err != nil {
		return fmt.Errorf("telegramtest: embedded ephemeral spec: %w", err)
	}
	merge := func(into map[string]apiEntry, from map[string]apiEntry) {
		for name, e := range from {
			old, ok := into[name]
			if !ok {
				into[name] = e
				continue
			}
			fields := append([]apiField(nil), old.Fields...)
		next:
			for _, f := range e.Fields {
				for i := range fields {
					if fields[i].Name == f.Name {
						fields[i] = f
						continue next
					}
				}
				fields = append(fields, f)
			}
			old.Fields = fields
			into[name] = old
		}
	}
	merge(methods, patch.Methods)
	merge(types, patch.Types)
	*others = append(*others, patch.OtherMethods...)
	*version += " with the " + patch.Version
	return nil
}
