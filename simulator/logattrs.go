package simulator

import (
	"log/slog"
	"time"
)

func levelOf(status int) slog.Level {
	if status >= 500 {
		return slog.LevelError
	}
	if status >= 400 {
		return slog.LevelWarn
	}
	return slog.LevelInfo
}

func slogAttrs(status int, d time.Duration, info *requestInfo, bytes int) []slog.Attr {
	attrs := []slog.Attr{slog.Int("status", status), slog.Duration("duration", d)}
	if info.op != "" {
		attrs = append(attrs, slog.String("op", info.op))
	}
	if info.user != "" {
		attrs = append(attrs, slog.String("user", info.user))
	}
	if info.evicted > 0 {
		attrs = append(attrs, slog.Int("evicted", info.evicted))
	}
	if len(info.violations) > 0 {
		attrs = append(attrs, slog.Any("violations", idList(violationIDs(info.violations))))
	}
	if info.relies != 0 {
		attrs = append(attrs, slog.Any("relies", idList(info.relies.ids())))
	}
	return append(attrs, slog.Int("bytes", bytes))
}
