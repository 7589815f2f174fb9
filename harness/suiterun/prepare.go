package suiterun

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/steps"
)

// Before a run over HTTP, `campusconf run` and package conformance alike
// probe the target (Probe) and, unless the run is read-only, restore its
// records through the fixture's reset (Reset).

// Probe checks that something answers HTTP at cfg.BaseURL: any status will
// do, a transport error is returned.
func Probe(ctx context.Context, cfg steps.Config) error {
	ctx, cancel := context.WithTimeout(ctx, timeout(cfg))
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, cfg.BaseURL+"/", nil)
	if err != nil {
		return err
	}
	resp, err := cfg.Client.Do(req)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	return resp.Body.Close()
}

// Reset restores the target's records through the reset the fixture
// declares: its reset call, made as its user with the subscription key,
// else its control API's reset. declared is false when it declares
// neither; err says why a declared reset failed.
func Reset(ctx context.Context, cfg steps.Config) (declared bool, err error) {
	f := cfg.Fixture
	switch {
	case f == nil:
		return false, nil
	case f.Reset != nil:
		method := f.Reset.Method
		if method == "" {
			method = http.MethodPost
		}
		h := http.Header{}
		key := f.SubscriptionKey
		if u, ok := f.Users[f.Reset.User]; ok {
			for k, v := range u.Headers {
				h.Set(k, v)
			}
			if u.SubscriptionKey != "" {
				key = u.SubscriptionKey
			}
		}
		if key != "" {
			h.Set(wire.KeyHeader, key)
		}
		return true, call(ctx, cfg, method, cfg.BaseURL+f.Reset.Path, h)
	case f.Control != "":
		return true, call(ctx, cfg, http.MethodPost, cfg.BaseURL+f.Control+"/reset", nil)
	}
	return false, nil
}

// call makes one request with no body and wants a 2xx answer.
func call(ctx context.Context, cfg steps.Config, method, url string, h http.Header) error {
	ctx, cancel := context.WithTimeout(ctx, timeout(cfg))
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		return err
	}
	for k, v := range h {
		req.Header[k] = v
	}
	resp, err := cfg.Client.Do(req)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	_ = resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s answered %d", method, req.URL.Path, resp.StatusCode)
	}
	return nil
}

func timeout(cfg steps.Config) time.Duration {
	if cfg.RequestTimeout > 0 {
		return cfg.RequestTimeout
	}
	return 10 * time.Second
}

// WaitForTarget probes the target (Probe) until it answers anything at
// all, for at most d (`run --wait`): a CI job may start the implementation
// and the suite together. The probes back off from 200 ms to 2 s; the
// error is the last probe's when d runs out.
func WaitForTarget(ctx context.Context, cfg steps.Config, d time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	wait := 200 * time.Millisecond
	for {
		err := Probe(ctx, cfg)
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("no answer within --wait %s: %w", d, err)
		case <-time.After(wait):
		}
		wait = min(2*wait, 2*time.Second)
	}
}
