package faithful

import (
	_ "embed"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"text/template"

	"github.com/campusconf/campusconf/internal/doccheck"
	"github.com/campusconf/campusconf/simulator/variants"
)

var update = flag.Bool("update", false, "rewrite docs/variants.md from the variants")

// variantsDoc is docs/variants.md, relative to this package.
const variantsDoc = "../../docs/variants.md"

// variantsDocTemplate is the page around the table: edit it, not the page,
// then regenerate the page.
//
//go:embed testdata/variants.md.tmpl
var variantsDocTemplate string

// docRow is a variant's row of docs/variants.md: the open point or
// permission it exercises, in short, and what the suite does with it, in
// which {skips} stands for the number of scenarios the variant skips.
type docRow struct {
	name             variants.Name
	exercises, suite string
}

// docRows are the table's rows, in its order.
var docRows = []docRow{
	{variants.Key403, "OP.key-status (no 401 listed)",
		"`ALL.key` accepts any client error (4xx) for a missing key: passes"},
	{variants.Key400, "OP.key-status",
		"as above: passes"},
	{variants.Key404, "OP.key-status (another client error)",
		"as above: any 4xx refuses the call: passes"},
	{variants.Token403, "Who is calling (no 401 listed; D-auth-401)",
		"no scenario sends an unknown token; the checks before the suite take a 401 or a 403 to a user it expects to pass as a credentials problem: passes (a fixture whose token is wrong stops with exit 2, inconclusive (setup))"},
	{variants.E5200IDs, "OP.e5-200 (E5 lists 204 and 200 with the ids)",
		"`E5.success` and `E5.403` accept 204 or 200; the 200 body is validated as an array of uuids: passes"},
	{variants.E5AnyAbsent404, "Errors (E5: plain not found)",
		"the suite deletes only existing slots, or only absent ones: passes"},
	{variants.AltPaths, "OP.unplaced",
		"the five unplaced operations are read from the fixture's `operations`: passes"},
	{variants.UserHeader, "OP.identity (Authentication 5)",
		"each fixture user is a set of headers, sent as given: passes"},
	{variants.OmitFalse, "Resources (a field not marked required may be absent)",
		"the checks of a flag set false (`E7.publish`, `QS.default`) see no flag, and absent is not false: the {skips} scenarios are **skipped** as unobservable (\"an optional field this check needs\"), never passed or failed"},
	{variants.UUIDUpper, "Conventions (uuid format; hex digits in either case)",
		"uuids are compared ignoring case; the fixture's ids are sent as given: passes"},
	{variants.LocalOffsets, "Conventions (RFC 3339 date-time)",
		"date-times are compared as instants (`E10.dates`, sortby): passes"},
	{variants.ExtraFields, "Resources (fields beyond those listed are not forbidden)",
		"the body check fails near-misses of listed names only; `etag` and `links` are none: passes"},
	{variants.QuizPatch, "Update quiz section (semantics of omitted fields not shown)",
		"`QS.default` first sets `displayQuestionMark` false explicitly, then leaves it out: passes under replace and merge semantics"},
	{variants.QuizLenient, "OP.write-edges (values a write may refuse that are not bounded)",
		"`ALL.round-trip` accepts a refusal in the error form of an empty name or an int32 extreme, and compares what comes back when they are accepted: passes"},
	{variants.E21ChangedCount, "E21 (\"number of records affected\")",
		"`E21.count` first sets the opposite flag, so the matched and the changed count agree: passes"},
	{variants.Page10, "OP.query-syntax (defaults and maxima not shown)",
		"the suite asks for at most 3 entries and never relies on a default page size: passes (one choice with `paging-capped`)"},
	{variants.NewestFirst, "OP.query-syntax (default order not shown)",
		"`offset` is compared against the same query's own order: passes"},
	{variants.NoSortbySyntax, "OP.query-syntax (sortby syntax not shown)",
		"the {skips} sortby scenarios are **skipped** (\"fixture key conventions.sortby is missing\"), never failed"},
	{variants.PagingCapped, "OP.query-syntax; Limits (maximum and default of `limit` and `offset` not shown)",
		"lists default to 7 entries a page and refuse `limit` above 25 and `offset` above 1000 with 400: the suite walks the pages from the list's own lengths and never sends a larger value: passes"},
	{variants.FewEntries, "Limits (list sizes not shown)",
		"every list holds 3 entries, the fewest the fixture documentation asks for: the suite assumes no length beyond it; `E10.combined` finds no entry surely between two date bounds and is **skipped** ({skips}, \"too few entries\"): passes"},
	{variants.OptionalAbsent, "Resources (unless marked required, a field may be absent)",
		"every optional field is left out of every record (populated fields stay): echo checks beside a scenario's observation compare only where present; the {skips} scenarios whose observation is an optional field (a push's status, the flags of a new attendance, a notification's status even read back through NG, the weightages an update answers, a file name to search for, dates to filter and sort by, the id of a new attendance, what identifies the entries of a page compared with the walk) are **skipped** as unobservable (\"an optional field this check needs\"), never passed or failed"},
	{variants.OTPStatic, "Authentication 4; OP.status-codes",
		"`{otp}` is the fixture's `secondFactor.otp` when no TOTP secret is given: passes"},
	{variants.OTPWrong400, "OP.status-codes (other codes not shown; E1 lists 400)",
		"`E1.reject` only requires that a wrong code is not `0000`; the media-type checks resend a 400 under the other JSON type and count it as a refusal of the media type only if that one is accepted: passes"},
	{variants.PushPendingFirst, "OP.status-codes",
		"the suite polls while the status is neither `0000` nor `7002`, backing off, for the poll window (`--poll-window`, 2 minutes): passes"},
	{variants.PushPendingFor, "OP.status-codes (statuses other than 0000 and 7002 not shown)",
		"the suite polls with backoff for the poll window, a time, not a count of polls; a window that runs out would skip the scenario as unobservable, never fail it: passes"},
	{variants.RateLimit, "Limits (rate limits and quotas not shown)",
		"every producer waits out a 429 as `Retry-After` says and sends the request again, and the run backs off while limited (`internal/pace`); the report counts the answers waited out: passes, in at most 3 times the time (`TestRateLimitedRun`)"},
	{variants.DateLowerCase, "Conventions (RFC 3339 section 5.6: `t` and `z` in either case)",
		"every date-time of an answer is read by one RFC 3339 reader (`rules.ParseDateTime`) and compared as an instant: passes"},
	{variants.SignedLinks, "Resources (no member stated stable between answers)",
		"entries are compared across requests by what identifies their record (`rules.Identity`: an id, or the members the registry declares), never whole: passes"},
	{variants.NoForbiddenTable, "OP.roles (Authentication 6)",
		"`ALL.forbidden` is **skipped** (\"fixture key forbidden is missing\"); the two stated permissions are still checked: passes"},
	{variants.PopulateExact, "Endpoints (accepted populate entities as spelled)",
		"the suite sends the entities exactly as the specification spells them: passes"},
	{variants.Charset, "Endpoints / common (answer media type parameters not shown)",
		"the suite reads bodies as JSON whatever the Content-Type parameters: passes"},
	{variants.Nulls, "Resources (a field not marked required may be absent)",
		"the response validation reads a `null` member as absent (a required one still fails), and so do the field checks: passes"},
	{variants.DatesStartExclusive, "OP.dates-ends (E10, E15: \"begin of range\")",
		"`E10.dates` sends a bound strictly between two logged instants and checks only that entries strictly inside are kept and none strictly outside appears: passes"},
	{variants.DatesEndExclusive, "OP.dates-ends (E10, E15: \"end of range\")",
		"as above, for the end: passes"},
	{variants.SearchCaseSensitive, "OP.search-case (E10: \"filters by student name or file name\")",
		"`E10.search-exact` and `E10.combined` search a text some entries hold as written; an entry holding it only in another case may be kept or dropped: passes"},
	{variants.E15DatesUnfiltered, "OP.e15-dates (what E15's dates do not shown)",
		"only a malformed E15 date is checked (refused): passes"},
	{variants.PermissionPerRecord, "OP.roles (Authentication 2, 6)",
		"`ALL.forbidden` probes each refusal with real records (the record an entry names, else the operation's own; E8 and E2 make theirs first), never an id that names nothing: passes"},
	{variants.SortbyDash, "OP.query-syntax (sortby syntax not shown)",
		"the sortby scenarios write their keys with the fixture's template (`-logDate`): passes, nothing skipped (one choice with `no-sortby-syntax`)"},
	{variants.WhereIgnored, "OP.query-syntax (where syntax not shown)",
		"no scenario relies on `where` (the app check probes it for an app that does, `run --app-traffic`): passes"},
	{variants.UnknownID404, "Errors (no 404 listed: an unknown id's answer left open)",
		"an unknown id on an operation without a documented 404 is open: any 2xx or 4xx it documents, and 404, is accepted: passes"},
	{variants.GradebookReplace, "Update gradebook settings (merge or replace of `iD_Weightage` not shown)",
		"`GB.per-module` accepts a refusal, or an answer whose weightages total at most 100; `GB.unchanged` raises an item past 100 on its own, so both readings must refuse it: passes"},
}

// TestVariantsDoc checks that docs/variants.md is the page the variants and
// the table above make (-update rewrites it): one row per variant, the
// skip counts and the number of runs from the variants.
func TestVariantsDoc(t *testing.T) {
	all := map[variants.Name]variants.Variant{}
	for _, v := range variants.All() {
		all[v.Name] = v
	}
	var table strings.Builder
	listed := map[variants.Name]bool{}
	for _, r := range docRows {
		v, ok := all[r.name]
		if !ok || listed[r.name] {
			t.Errorf("docRows: expected each variant once, got %q unknown or twice", r.name)
			continue
		}
		listed[r.name] = true
		suite := strings.ReplaceAll(r.suite, "{skips}", strconv.Itoa(v.Skips))
		fmt.Fprintf(&table, "| `%s` | %s | %s |\n", r.name, r.exercises, suite)
	}
	for name := range all {
		if !listed[name] {
			t.Errorf("docRows: expected a row for variant %s, got none", name)
		}
	}
	var page strings.Builder
	err := template.Must(template.New("variants.md").Parse(variantsDocTemplate)).Execute(&page, map[string]any{
		"Generated": "<!-- Generated by go test ./harness/faithful/ -run TestVariantsDoc -update from harness/faithful/testdata/variants.md.tmpl and the variants; do not edit. -->",
		"Table":     table.String(),
		"Runs":      len(combinations(variants.All())),
	})
	if err != nil {
		t.Fatal(err)
	}
	doccheck.Current(t, variantsDoc, page.String(), "go test ./harness/faithful/ -run TestVariantsDoc -update", *update)
}
