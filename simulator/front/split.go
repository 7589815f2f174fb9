package front

import "encoding/json"

// splitObject splits a JSON object that json.Valid accepted into its
// members, without reflection: the hot path of every request body. It
// reports false for anything it leaves to encoding/json: a body that is not
// an object, or a member name holding an escape. As with encoding/json, a
// repeated name keeps its last value (parseBody refuses repeats anyway).
func splitObject(data []byte) (map[string]json.RawMessage, bool) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return nil, false
	}
	fields := make(map[string]json.RawMessage, 4)
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return fields, true
	}
	for i < len(data) {
		if data[i] != '"' {
			return nil, false
		}
		j := i + 1
		for j < len(data) && data[j] != '"' {
			if data[j] == '\\' {
				return nil, false
			}
			j++
		}
		if j >= len(data) {
			return nil, false
		}
		name := string(data[i+1 : j])
		i = skipSpace(data, j+1)
		if i >= len(data) || data[i] != ':' {
			return nil, false
		}
		i = skipSpace(data, i+1)
		end := skipValue(data, i)
		if end <= i {
			return nil, false
		}
		fields[name] = json.RawMessage(data[i:end])
		i = skipSpace(data, end)
		if i >= len(data) {
			return nil, false
		}
		switch data[i] {
		case ',':
			i = skipSpace(data, i+1)
		case '}':
			return fields, true
		default:
			return nil, false
		}
	}
	return nil, false
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the end of the valid JSON value starting at i.
func skipValue(data []byte, i int) int {
	if i >= len(data) {
		return i
	}
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
		depth := 0
		for i < len(data) {
			switch data[i] {
			case '"':
				i = skipString(data, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	for i < len(data) {
		switch data[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

// skipString returns the end of the string starting at i (after its
// closing quote).
func skipString(data []byte, i int) int {
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}
