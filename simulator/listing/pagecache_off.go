//go:build campusconf_nopagecache

package listing

// pageCaching is off in this build: every page is encoded on every
// request (pagecache_on.go).
const pageCaching = false
