package reports

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"unicode"
)

// badgeColours are the fills of the status half of badge.svg. Each holds
// white text at a contrast of at least 4.5:1, and the badge has its own
// opaque fills and a mid-grey outline, so it reads the same on a light
// page and a dark one.
var badgeColours = map[Verdict]string{
	VerdictConformant:    "#1a7f37",
	VerdictWarnings:      "#406d00",
	VerdictPartial:       "#8a5a00",
	VerdictNotConformant: "#c4202b",
	VerdictInconclusive:  "#57606a",
}

// badgeLabelColour is the fill of the label half.
const badgeLabelColour = "#24292f"

// badgeMaxNamed is how many claimed profiles the badge names; past it,
// it counts them (its tooltip names them all).
const badgeMaxNamed = 3

// WriteBadge writes badge.svg: the overall status of r's conformance
// report and the profiles it claims, as a self-contained SVG (no font,
// image or style is fetched) for a README. r should be finalized.
func WriteBadge(w io.Writer, r *Report) error {
	c := ConformanceOf(r)
	label := "campusconf"
	if c.SuiteVersion != "" {
		label += " " + c.SuiteVersion
	}
	claims := badgeProfiles(c)
	value := Word(c.Status, c.Cause)
	if claims != "" {
		value += " · " + claims
	}
	colour := badgeColours[c.Status]
	if colour == "" {
		colour = badgeColours[VerdictInconclusive]
	}
	title := fmt.Sprintf("campusconf conformance: %s; profiles claimed: %s", Word(c.Status, c.Cause), strings.Join(c.Implements, ", "))
	if len(c.Implements) == 0 {
		title = fmt.Sprintf("campusconf conformance: %s; no profile claimed", Word(c.Status, c.Cause))
	}
	const pad, height = 6, 20
	lw, vw := textWidth(label)+2*pad, textWidth(value)+2*pad
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="%s">`+"\n",
		lw+vw, height, lw+vw, height, esc(title))
	fmt.Fprintf(&b, "  <title>%s</title>\n", esc(title))
	fmt.Fprintf(&b, `  <clipPath id="r"><rect width="%d" height="%d" rx="3"/></clipPath>`+"\n", lw+vw, height)
	b.WriteString(`  <g clip-path="url(#r)">` + "\n")
	fmt.Fprintf(&b, `    <rect width="%d" height="%d" fill="%s"/>`+"\n", lw, height, badgeLabelColour)
	fmt.Fprintf(&b, `    <rect x="%d" width="%d" height="%d" fill="%s"/>`+"\n", lw, vw, height, colour)
	b.WriteString("  </g>\n")
	fmt.Fprintf(&b, `  <rect x="0.5" y="0.5" width="%d" height="%d" rx="2.5" fill="none" stroke="#8c959f"/>`+"\n", lw+vw-1, height-1)
	b.WriteString(`  <g fill="#ffffff" font-family="Verdana,DejaVu Sans,Geneva,sans-serif" font-size="11" text-rendering="geometricPrecision">` + "\n")
	fmt.Fprintf(&b, `    <text x="%d" y="14" textLength="%d" lengthAdjust="spacingAndGlyphs">%s</text>`+"\n", pad, lw-2*pad, esc(label))
	fmt.Fprintf(&b, `    <text x="%d" y="14" textLength="%d" lengthAdjust="spacingAndGlyphs">%s</text>`+"\n", lw+pad, vw-2*pad, esc(value))
	b.WriteString("  </g>\n</svg>\n")
	_, err := b.WriteTo(w)
	if err != nil {
		return fmt.Errorf("write %s: %w", BadgeFile, err)
	}
	return nil
}

// badgeProfiles says which profiles the badge's report claims: all of
// them, up to badgeMaxNamed by name, or how many.
func badgeProfiles(c ConformanceReport) string {
	switch n := len(c.Implements); {
	case n == 0:
		return ""
	case n == len(c.Profiles):
		return "all profiles"
	case n <= badgeMaxNamed:
		return strings.Join(c.Implements, ", ")
	default:
		return fmt.Sprintf("%d profiles", n)
	}
}

// textWidth estimates the width in pixels of s in 11 px Verdana, the
// badge's first font: wide enough for it, and the text is fitted to the
// width with textLength, so another font never overflows.
func textWidth(s string) int {
	w := 0.0
	for _, r := range s {
		switch {
		case strings.ContainsRune("iljI.,:;'|!", r):
			w += 3.5
		case strings.ContainsRune("frt()[] -", r):
			w += 4.5
		case strings.ContainsRune("mwMW", r):
			w += 10.5
		case unicode.IsUpper(r):
			w += 8
		default:
			w += 7
		}
	}
	return int(w + 0.5)
}

// esc escapes s for XML text and attribute values.
func esc(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}
