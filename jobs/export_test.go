package jobs

// Clean is clean, for the tests.
var Clean = clean
