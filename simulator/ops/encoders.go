package ops

import (
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/campusconf/campusconf/simulator/store"
)

// The download log (E10) is the hottest list and the one that grows to a
// million entries; encoding/json spends most of its page time in
// reflection and in time.Time's marshaller. appendFileLogs writes the same
// bytes directly (TestFastFileLogJSON proves it for the seeded world).

// appendFileLogs appends logs as a JSON array followed by a newline, as
// json.Encoder writes it.
func appendFileLogs(b []byte, logs []store.FileLog) []byte {
	return append(appendArray(b, logs, appendFileLog), '\n')
}

func appendFileLog(b []byte, e *store.FileLog) []byte {
	b = appendMember(b, `{"action":`, e.Action)
	b = appendMember(b, `,"targetID":`, e.TargetID)
	b = appendMember(b, `,"userGuid":`, e.UserGUID)
	b = appendMember(b, `,"userID":`, e.UserID)
	b = appendMember(b, `,"name":`, e.Name)
	b = appendMember(b, `,"userMatricNo":`, e.UserMatricNo)
	b = appendMember(b, `,"email":`, e.Email)
	b = appendMember(b, `,"fileName":`, e.FileName)
	b = appendMember(b, `,"folderName":`, e.FolderName)
	b = appendMember(b, `,"folderID":`, e.FolderID)
	b = append(b, `,"logDate":"`...)
	b = e.LogDate.AppendFormat(b, time.RFC3339Nano)
	return append(b, `"}`...)
}

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

// appendStudents appends a page of accessible students (E20) as
// json.Encoder writes it: the other 20-entry page of bench/loopback.sh.
func appendStudents(b []byte, l []store.Student) []byte {
	return append(appendArray(b, l, appendStudent), '\n')
}

func appendStudent(b []byte, e *store.Student) []byte {
	b = appendMember(b, `{"id":`, e.ID)
	b = appendMember(b, `,"userID":`, e.UserID)
	b = appendMember(b, `,"userName":`, e.UserName)
	b = appendMember(b, `,"userMatricNo":`, e.UserMatricNo)
	b = appendMember(b, `,"officialEmail":`, e.OfficialEmail)
	b = appendMember(b, `,"email":`, e.Email)
	b = appendMember(b, `,"userFaculty":`, e.UserFaculty)
	b = appendMember(b, `,"loginDomain":`, e.LoginDomain)
	if e.Photo != "" {
		b = appendMember(b, `,"photo":`, e.Photo)
	}
	return append(b, '}')
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

// appendNotification appends a notification without ancestors (the
// answer of NR and NG) as json.Encoder writes it; ok is false for one
// with ancestors, which front.WriteJSON encodes.
func appendNotification(b []byte, n *store.Notification) (_ []byte, ok bool) {
	if len(n.Ancestor) > 0 {
		return b, false
	}
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, n.ID, 10)
	b = appendMember(b, `,"targetID":`, n.TargetID)
	b = appendMember(b, `,"notifyGroupId":`, n.NotifyGroupID)
	b = appendMember(b, `,"type":`, n.Type)
	b = append(b, `,"recordDate":"`...)
	b = n.RecordDate.AppendFormat(b, time.RFC3339Nano)
	b = appendMember(b, `","notifyMessage":`, n.NotifyMessage)
	b = append(b, `,"notifyStatus":`...)
	b = strconv.AppendInt(b, int64(n.NotifyStatus), 10)
	return append(b, '}', '\n'), true
}

// appendMember appends key (the member's name with its colon, and the
// comma or brace before it) and the JSON string v.
func appendMember(b []byte, key, v string) []byte {
	return appendJSONString(append(b, key...), v)
}

// appendArray appends l as a JSON array, each element by one.
func appendArray[T any](b []byte, l []T, one func([]byte, *T) []byte) []byte {
	b = append(b, '[')
	for i := range l {
		if i > 0 {
			b = append(b, ',')
		}
		b = one(b, &l[i])
	}
	return append(b, ']')
}
