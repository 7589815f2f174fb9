package store

// CopyFolder copies a bank folder for creator and returns the copy, a new
// folder with a new id that can itself be copied.
func (s *Store) CopyFolder(id string, creator User) (BankFolder, error) {
	f, _, err := s.CopyFolderCounted(id, creator)
	return f, err
}

// CopyFolderCounted is CopyFolder, also returning how many run-time
// records the copy evicted (see MaxCreated).
func (s *Store) CopyFolderCounted(id string, creator User) (BankFolder, int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, ok := s.w.BankFolders[id]
	if !ok {
		return BankFolder{}, 0, notFound("bank folder " + id + " does not exist")
	}
	c := f
	c.ID = s.newID()
	c.Name = "Copy of " + f.Name
	c.CreatedDate = s.now()
	c.CreatorID = creator.ID
	c.UserID = creator.UserID
	c.UserName = creator.Name
	c.Email = creator.Email
	c.ReadonlyAccess = false
	s.w.BankFolders[c.ID] = c
	n := s.remember(createdFolder, c.ID, func(old string) { delete(s.w.BankFolders, old) })
	return c, n, nil
}

// BankFolder returns a bank folder.
func (s *Store) BankFolder(id string) (BankFolder, bool) {
	return lookup(s, func(w *World) map[string]BankFolder { return w.BankFolders }, id, same)
}
