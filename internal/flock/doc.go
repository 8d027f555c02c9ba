// Package flock takes and releases exclusive advisory locks on open
// files: the index's writer lock, the rewrite journal's apply lock and the
// precision index's generation lock. The system releases a lock when its
// holder dies, so a killed process never leaves one behind, and the lock
// belongs to the open file, so two opens in one process exclude each
// other too.
//
// On Unix the lock is flock(2). On Windows it is LockFileEx over the
// file's whole byte range, which is mandatory there: no other open of the
// file may read or write it while the lock is held, so only the holder
// may use what a lock file holds. Elsewhere there is no lock, and every TryLock
// succeeds.
package flock
