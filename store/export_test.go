package store

// The helpers of package store's tests that the public-API tests of
// package store_test (schema6_test.go) use too.
var (
	RecordsJSON = recordsJSON
	ContextJSON = contextJSON
	CopyFixture = copyFixture
)
