package ops

import (
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/campusconf/campusconf/simulator/store"
)

// Two answers are encoded by hand: a poll response (E19) and an
// attendance record (E7). Measured with bench/loopback.sh against the same
// simulator encoding with encoding/json (-tags campusconf_nohandjson;
// three alternated rounds of 5 s per phase, 2026-11-29), the hand-written
// encoders bought 14% on E19 (median of the rounds' ratios 1.14; CPU per
// request 1.10), 6% on E7 and 2 to 3% elsewhere (E20 1.03, E10 1.02, NR
// 1.03; the pages of E20 and E10 are encoded once and kept,
// listing.List.Encoded). The poll response's stays for its 14%; the
// attendance's stays because without it the create phase fell to 0.64 of
// the bare handler, under the floor of 0.65; those of the download log,
// the accessible students and the notification went (BENCHMARKS.md, "What
// the hand-written machinery buys"). TestPollResponseJSON and
// TestFastAttendanceJSON hold them to encoding/json's bytes.

const hexDigits = "0123456789abcdef"

// plainJSON marks the bytes a JSON string holds as they are: printable
// ASCII but the quote and the backslash.
var plainJSON = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendJSONString quotes s as encoding/json does with HTML escaping off:
// control characters, quote and backslash escaped, invalid UTF-8 replaced
// by U+FFFD, U+2028 and U+2029 escaped.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		for i < len(s) && plainJSON[s[i]] {
			i++ // the common case: ASCII that needs no escape
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendAttendance appends a as json.Encoder writes it (HTML escaping off,
// a newline after): the answer of every E7 create.
func appendAttendance(b []byte, a *store.Attendance) []byte {
	b = appendMember(b, `{"id":`, a.ID)
	b = appendMember(b, `,"name":`, a.Name)
	b = appendMember(b, `,"resourceID":`, a.ResourceID)
	b = append(b, `,"publish":`...)
	b = appendBool(b, a.Publish)
	b = append(b, `,"createdDate":"`...)
	b = a.CreatedDate.AppendFormat(b, time.RFC3339Nano)
	b = appendMember(b, `","creatorID":`, a.CreatorID)
	b = appendMember(b, `,"photoUrl":`, a.PhotoURL)
	b = appendMember(b, `,"userName":`, a.UserName)
	b = appendMember(b, `,"userID":`, a.UserID)
	b = appendMember(b, `,"userMatricNo":`, a.UserMatricNo)
	b = appendMember(b, `,"email":`, a.Email)
	b = appendMember(b, `,"description":`, a.Description)
	b = append(b, `,"isDefault":`...)
	b = appendBool(b, a.IsDefault)
	return append(b, '}', '\n')
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

// appendPollResponse appends one poll response (E19, and the entries of
// E18) as json.Encoder writes it.
func appendPollResponse(b []byte, p *store.PollResponse) []byte {
	b = appendMember(b, `{"id":`, p.ID)
	b = appendMember(b, `,"questionID":`, p.QuestionID)
	b = append(b, `,"createdDate":"`...)
	b = p.CreatedDate.AppendFormat(b, time.RFC3339Nano)
	b = appendMember(b, `","creatorId":`, p.CreatorID)
	b = appendMember(b, `,"userId":`, p.UserID)
	b = appendMember(b, `,"userName":`, p.UserName)
	b = appendMember(b, `,"userMatrixNo":`, p.UserMatrixNo)
	if p.Photo != "" {
		b = appendMember(b, `,"photo":`, p.Photo)
	}
	b = append(b, `,"selectedOptions":`...)
	if p.SelectedOptions == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, o := range p.SelectedOptions {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(o), 10)
		}
		b = append(b, ']')
	}
	b = appendMember(b, `,"text":`, p.Text)
	return append(b, '}')
}

// appendMember appends key (the member's name with its colon, and the
// comma or brace before it) and the JSON string v.
func appendMember(b []byte, key, v string) []byte {
	return appendJSONString(append(b, key...), v)
}
