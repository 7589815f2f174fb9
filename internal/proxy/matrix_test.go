package proxy

import (
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/campusconf/campusconf/simulator/defects"
)

// TestProxyMatrix (opt-in: CAMPUSCONF_PROXY_MATRIX=1, about a minute) runs
// the suite through the proxy once per simulator defect and logs which
// defects the proxy names by one of the defect's requirements, from the
// traffic alone: the figures of docs/proxy.md.
func TestProxyMatrix(t *testing.T) {
	if os.Getenv("CAMPUSCONF_PROXY_MATRIX") == "" {
		t.Skip("opt-in: CAMPUSCONF_PROXY_MATRIX=1")
	}
	all := defects.All()
	var mu sync.Mutex
	caught, missed := map[string][]string{}, map[string][]string{}
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for _, d := range all {
		if d.Generated {
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			name := string(d.Name)
			p, _ := throughProxy(t, name)
			found := map[string]bool{}
			for _, ids := range p.Findings() {
				for _, id := range ids {
					found[id] = true
				}
			}
			hit := slices.ContainsFunc(d.Requirements, func(r string) bool { return found[r] })
			kind := strings.SplitN(strings.Join(d.Requirements, ","), ".", 2)[0]
			mu.Lock()
			if hit {
				caught[kind] = append(caught[kind], name)
			} else {
				missed[kind] = append(missed[kind], name+" ("+strings.Join(d.Requirements, ",")+")")
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	n, m := 0, 0
	for _, v := range caught {
		n += len(v)
	}
	for _, v := range missed {
		m += len(v)
	}
	t.Logf("caught %d of %d defects from traffic alone", n, n+m)
	var lines []string
	for k, v := range missed {
		sort.Strings(v)
		lines = append(lines, k+": "+strings.Join(v, "; "))
	}
	sort.Strings(lines)
	t.Logf("missed:\n%s", strings.Join(lines, "\n"))
}
