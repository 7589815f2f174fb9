package store

import "github.com/campusconf/campusconf/simulator/listing"

// FileLogs returns the file activity log of a folder (E10), oldest first.
func (s *Store) FileLogs(folderID string) (*listing.List[FileLog], bool) {
	l, ok := s.lists().FileLogs.Get()[folderID]
	return l, ok
}

// Annotations returns the annotations of a file (E11).
func (s *Store) Annotations(fileID string) (*listing.List[Annotation], bool) {
	l, ok := s.lists().Annotations.Get()[fileID]
	return l, ok
}
