package steps

import (
	"fmt"
	"strings"
	"unicode"
)

// godogTags turns a tag expression into the only form godog v0.15 filters
// by (`@a,@b && ~@c`: a conjunction of disjunctions), so that the Cucumber
// forms users know (`not @a`, `@a or @b`, `@a and (@b or not @c)`) work
// instead of silently matching nothing. Expressions already in godog's form
// are checked and passed through.
func godogTags(expr string) (string, error) {
	expr = strings.TrimSpace(expr)
	if expr == "" {
		return "", nil
	}
	if strings.ContainsAny(expr, "~,") || strings.Contains(expr, "&&") {
		return checkGodogTags(expr)
	}
	p := &tagParser{toks: tokenize(expr)}
	n, err := p.parseOr()
	if err != nil {
		return "", fmt.Errorf("tag expression %q: %w", expr, err)
	}
	if p.pos < len(p.toks) {
		return "", fmt.Errorf("tag expression %q: unexpected %q", expr, p.toks[p.pos])
	}
	clauses := cnf(nnf(n, false))
	parts := make([]string, len(clauses))
	for i, c := range clauses {
		parts[i] = strings.Join(c, ",")
	}
	return strings.Join(parts, " && "), nil
}

func checkGodogTags(expr string) (string, error) {
	for _, and := range strings.Split(expr, "&&") {
		for _, lit := range strings.Split(and, ",") {
			lit = strings.TrimSpace(lit)
			if !strings.HasPrefix(strings.TrimPrefix(lit, "~"), "@") || len(strings.TrimPrefix(lit, "~")) < 2 {
				return "", fmt.Errorf("tag expression %q: %q is not a tag (want @tag or ~@tag)", expr, lit)
			}
		}
	}
	return expr, nil
}

type tagNode struct {
	op       string // "tag", "and", "or", "not"
	tag      string
	kids     []*tagNode
	negative bool // for tags after nnf
}

type tagParser struct {
	toks []string
	pos  int
}

func tokenize(s string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	for _, r := range s {
		switch {
		case r == '(' || r == ')':
			flush()
			out = append(out, string(r))
		case unicode.IsSpace(r):
			flush()
		default:
			cur.WriteRune(r)
		}
	}
	flush()
	return out
}

func (p *tagParser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return ""
}

func (p *tagParser) parseOr() (*tagNode, error) { return p.parseBinary("or", p.parseAnd) }

func (p *tagParser) parseAnd() (*tagNode, error) { return p.parseBinary("and", p.parseNot) }

// parseBinary reads operands joined by op (left-associative), each operand
// read by next, the level that binds tighter.
func (p *tagParser) parseBinary(op string, next func() (*tagNode, error)) (*tagNode, error) {
	left, err := next()
	if err != nil {
		return nil, err
	}
	for strings.EqualFold(p.peek(), op) {
		p.pos++
		right, err := next()
		if err != nil {
			return nil, err
		}
		left = &tagNode{op: op, kids: []*tagNode{left, right}}
	}
	return left, nil
}

func (p *tagParser) parseNot() (*tagNode, error) {
	t := p.peek()
	switch {
	case strings.EqualFold(t, "not"):
		p.pos++
		n, err := p.parseNot()
		if err != nil {
			return nil, err
		}
		return &tagNode{op: "not", kids: []*tagNode{n}}, nil
	case t == "(":
		p.pos++
		n, err := p.parseOr()
		if err != nil {
			return nil, err
		}
		if p.peek() != ")" {
			return nil, fmt.Errorf("missing )")
		}
		p.pos++
		return n, nil
	case strings.HasPrefix(t, "@") && len(t) > 1:
		p.pos++
		return &tagNode{op: "tag", tag: t}, nil
	case t == "":
		return nil, fmt.Errorf("ends too early")
	}
	return nil, fmt.Errorf("%q is not a tag (tags start with @)", t)
}

// nnf pushes negations down to the tags.
func nnf(n *tagNode, neg bool) *tagNode {
	switch n.op {
	case "tag":
		return &tagNode{op: "tag", tag: n.tag, negative: neg}
	case "not":
		return nnf(n.kids[0], !neg)
	}
	op := n.op
	if neg {
		op = map[string]string{"and": "or", "or": "and"}[op]
	}
	return &tagNode{op: op, kids: []*tagNode{nnf(n.kids[0], neg), nnf(n.kids[1], neg)}}
}

// cnf returns the clauses (each a disjunction of literals) of a formula in
// negation normal form.
func cnf(n *tagNode) [][]string {
	switch n.op {
	case "tag":
		lit := n.tag
		if n.negative {
			lit = "~" + lit
		}
		return [][]string{{lit}}
	case "and":
		return append(cnf(n.kids[0]), cnf(n.kids[1])...)
	}
	var out [][]string
	for _, a := range cnf(n.kids[0]) {
		for _, b := range cnf(n.kids[1]) {
			out = append(out, append(append([]string{}, a...), b...))
		}
	}
	return out
}
